// record_run and report_json run the tasklens CLI through run_command; replay_experiment calls
// the replay library directly.
#include "support/recording.h"

#include <gtest/gtest.h>

#include "format/experiment.h"
#include "replay/replay.h"
#include "support/trace_builder.h"

namespace tasklens::testing {

Recording record_run(const std::vector<std::string>& program, int threads,
                     const std::vector<std::string>& env) {
  Recording r;
  r.dir = scratch_dir("run") + "/exp";
  std::vector<std::string> argv = {tasklens_bin(), "run", "-q", "-n", std::to_string(threads),
                                   "-o", r.dir, "--"};
  argv.insert(argv.end(), program.begin(), program.end());
  r.run = run_command(argv, env);
  return r;
}

Recording record_profile(const std::vector<std::string>& program, int threads,
                         const std::vector<std::string>& run_flags) {
  Recording r;
  r.dir = scratch_dir("profile") + "/exp";
  std::vector<std::string> argv = {tasklens_bin(), "run",     "-q", "-n", std::to_string(threads),
                                   "--mode",       "profile", "-o", r.dir};
  argv.insert(argv.end(), run_flags.begin(), run_flags.end());
  argv.push_back("--");
  argv.insert(argv.end(), program.begin(), program.end());
  r.run = run_command(argv);
  return r;
}

JsonReport report_json(const std::string& dir, const std::vector<std::string>& options) {
  std::vector<std::string> argv = {tasklens_bin(), "report", dir};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back("--json");
  JsonReport r;
  r.command = run_command(argv);
  r.doc = nlohmann::json::parse(r.command.out, nullptr, false);
  return r;
}

bool replay_experiment(const std::string& dir, const std::vector<replay::Pass*>& passes) {
  auto x = format::open_experiment(dir);
  EXPECT_TRUE(x.ok()) << (x.ok() ? "" : x.error().message);
  if (!x.ok()) return false;
  auto stats = replay::run_replay(*x, passes);
  EXPECT_TRUE(stats.ok()) << (stats.ok() ? "" : stats.error().message);
  return stats.ok();
}

}  // namespace tasklens::testing
