// record_and_replay and the breakdown invariant, shared by the breakdown tests.
#include "analysis/breakdown_checks.h"

#include <gtest/gtest.h>

#include "support/recording.h"

namespace tasklens::analysis {

RecordedBreakdown record_and_replay(const std::vector<std::string>& program, int threads) {
  testing::Recording rec = testing::record_run(program, threads);
  const testing::CommandResult& r = rec.run;
  EXPECT_EQ(r.status, 0) << r.err;
  BreakdownPass pass(20);
  TaskGraphPass graph;
  testing::replay_experiment(rec.dir, {&pass, &graph});
  return {r.out, pass.result(), graph.result()};
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
    EXPECT_EQ(s->serial_ns, b.total.serial_ns);
    EXPECT_EQ(s->preempted_ns, b.total.preempted_ns);
  }
  EXPECT_GT(b.total.total_ns(), 0u);
}

}  // namespace tasklens::analysis
