// Test program paths, the recorder's environment, `tasklens check` expectations.
#include "integration/recorder_runs.h"

#include <gtest/gtest.h>

#include "support/recording.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::testing {

std::string test_program(const std::string& name) {
  return std::string(TASKLENS_TEST_PROGRAMS_DIR) + "/" + name;
}

std::vector<std::string> recorder_env(const std::string& dir, int threads) {
  return {"OMP_TOOL_LIBRARIES=" TASKLENS_RECORDER_LIBRARY, "TASKLENS_OUTPUT=" + dir,
          "OMP_NUM_THREADS=" + std::to_string(threads)};
}

void expect_check(const std::string& dir, int status, const std::vector<std::string>& says) {
  CommandResult check = run_command({tasklens_bin(), "check", dir});
  EXPECT_EQ(check.status, status) << check.out << check.err;
  for (const std::string& s : says) {
    EXPECT_NE(check.out.find(s), std::string::npos) << "no \"" << s << "\" in:\n" << check.out;
  }
}

Recorded record_run(const std::string& program, const std::vector<std::string>& args, int threads,
                    const std::vector<std::string>& env) {
  std::vector<std::string> argv = {program};
  argv.insert(argv.end(), args.begin(), args.end());
  Recording rec = record_run(argv, threads, env);
  Recorded r;
  r.run = rec.run;
  r.dir = rec.dir;
  r.facts = read_trace(r.dir);
  return r;
}

void expect_sound(const Recorded& r, int threads) {
  using format::Kind;
  const TraceFacts& f = r.facts;
  ASSERT_EQ(r.run.status, 0) << r.run.err;
  ASSERT_NE(r.run.out.find(" OK"), std::string::npos) << r.run.out;
  ASSERT_TRUE(f.error.empty()) << f.error;
  EXPECT_EQ(f.x.status, "complete");
  EXPECT_TRUE(f.problems.empty()) << f.summary();
  EXPECT_EQ(f.x.meta["recorder"]["events_lost"], 0);
  EXPECT_EQ(f.x.meta["recorder"]["events_written"], f.events);
  if (r.printed("threads") > 0) EXPECT_EQ(r.printed("threads"), threads);
  EXPECT_EQ(f.explicit_not_once(), 0u) << f.summary();
  EXPECT_EQ(f.orphans, 0u) << f.summary();
  EXPECT_EQ(f.times_backwards, 0u);
  EXPECT_EQ(f.suspensions, f.resumptions) << f.summary();
  EXPECT_EQ(f.x.meta["explicit_tasks"], f.explicit_created);
  // Every implicit task (the initial one included) begins and ends.
  EXPECT_EQ(f.count(Kind::kImplicitTask, 1), f.count(Kind::kImplicitTask, 2));
  CommandResult check = run_command({tasklens_bin(), "check", r.dir});
  EXPECT_EQ(check.status, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("sound: nothing lost, every task consistent"), std::string::npos)
      << check.out;
}

void tasks_as_printed(const Recorded& r, int) {
  ASSERT_GT(r.printed("tasks"), 0);
  EXPECT_EQ(r.facts.explicit_created, uint64_t(r.printed("tasks")));
  EXPECT_EQ(r.facts.explicit_completed(), uint64_t(r.printed("tasks")));
}

}  // namespace tasklens::testing
