#include "breakdown_checks.h"

#include <gtest/gtest.h>

#include "format/experiment.h"
#include "replay/replay.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {

RecordedBreakdown record_and_replay(const std::vector<std::string>& program, int threads) {
  std::string dir = testing::scratch_dir("run") + "/exp";
  std::vector<std::string> argv = {testing::tasklens_bin(), "run", "-q", "-n",
                                   std::to_string(threads), "-o", dir, "--"};
  argv.insert(argv.end(), program.begin(), program.end());
  auto r = testing::run_command(argv);
  EXPECT_EQ(r.status, 0) << r.err;
  auto x = format::open_experiment(dir);
  EXPECT_TRUE(x.ok()) << (x.ok() ? "" : x.error().message);
  BreakdownPass pass(20);
  if (x.ok()) {
    auto stats = replay::run_replay(*x, {&pass});
    EXPECT_TRUE(stats.ok());
  }
  return {r.out, pass.result()};
}

void expect_breakdown_invariant(const Breakdown& b) {
  TimeSplit threads, regions, series;
  for (const auto& t : b.threads) {
    EXPECT_EQ(t.time.total_ns(), t.end_ns - t.begin_ns) << "thread " << t.thread;
    threads += t.time;
  }
  for (const auto& r : b.regions) regions += r.time;
  for (const auto& s : b.series) series += s.time;
  for (const TimeSplit* s : {&threads, &regions, &series}) {
    EXPECT_EQ(s->work_ns, b.total.work_ns);
    EXPECT_EQ(s->overhead_ns, b.total.overhead_ns);
    EXPECT_EQ(s->idle_ns, b.total.idle_ns);
  }
  EXPECT_GT(b.total.total_ns(), 0u);
}

}  // namespace tasklens::analysis
