// Amdahl's estimate from the ompP classes (analysis/overheads.h): from the figures alone, and
// from a trace whose serial code was partly the machine's (the initial thread off its CPU).
#include <gtest/gtest.h>

#include "analysis/overheads.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {
namespace {

using format::Endpoint;
using testing::SyncKind;
using testing::TraceBuilder;

TEST(Overheads, AmdahlEstimate) {
  Overheads o;
  o.run_ns = 1000;
  o.parallel_ns = 800;
  o.coverage = 0.8;
  Amdahl one = amdahl(o, 1);
  EXPECT_TRUE(one.measured);
  EXPECT_DOUBLE_EQ(one.alpha, 0.8);
  EXPECT_EQ(one.predicted_ns(4), 400u);  // 1000 * 0.8 / 4 + 1000 * 0.2
  EXPECT_DOUBLE_EQ(one.max_speedup, 5.0);
  // Two threads: 800 ns of region wall, 1200 ns of work in it: one thread would take
  // 200 + 1200 ns, 6/7 of it parallel.
  o.program[Cost::kWork] = 1200;
  Amdahl two = amdahl(o, 2);
  EXPECT_FALSE(two.measured);
  EXPECT_EQ(two.t1_ns, 1400u);
  EXPECT_DOUBLE_EQ(two.alpha, 1200.0 / 1400.0);
  EXPECT_EQ(two.predicted_ns(2), 800u);
}

// The initial thread runs 1,000 ns of serial code, 400 of them off its CPU (300..700), then a
// region of one thread with 200 ns of work (1,000..1,200), then 100 ns more of serial code.
// One thread would take 700 ns of serial code and the 200 of work: the 400 preempted ns are the
// machine's (T_1 was 1,300 with them).
TEST(Overheads, AmdahlLeavesTheSerialCodesPreemptedTimeOut) {
  TraceBuilder t;
  t.thread_begin(0, 0, 1).initial_task(0, 0, 1);
  t.parallel_begin(0, 1000, 100, 1);
  t.implicit_begin(0, 1000, 2, 100, 2, 0);
  t.thread_begin(1, 1000).implicit_begin(1, 1000, 3, 100, 2, 1);
  for (uint32_t th = 0; th < 2; ++th) {
    uint64_t task = th ? 3 : 2, arrive = th ? 1000 : 1200;
    t.sync(th, arrive, SyncKind::kBarrierImplicit, Endpoint::kBegin, 100, task, 0x1000);
    t.sync_wait(th, arrive, SyncKind::kBarrierImplicit, Endpoint::kBegin, 100, task, 0x1000);
    t.sync_wait(th, 1200, SyncKind::kBarrierImplicit, Endpoint::kEnd, 0, task, 0x1000);
    t.sync(th, 1200, SyncKind::kBarrierImplicit, Endpoint::kEnd, 0, task, 0x1000);
    t.implicit_end(th, 1200, task);
  }
  t.parallel_end(0, 1200, 100, 1);
  t.thread_end(1, 1250).thread_end(0, 1300);
  t.preempted(0, 300, 700);
  OverheadsPass pass;
  ASSERT_TRUE(testing::replay_experiment(t.write(), {&pass}));
  const Overheads& o = pass.result();
  EXPECT_EQ(o.serial_preempted_ns, 400u);
  EXPECT_EQ(o.run_ns, 1300u);
  EXPECT_EQ(o.parallel_ns, 200u);
  EXPECT_EQ(o.program[Cost::kWork], 200u);
  Amdahl a = amdahl(o, 2);
  EXPECT_EQ(a.t1_ns, 900u);  // 1,300 - 200 - 400 of serial code, 200 of work
  EXPECT_DOUBLE_EQ(a.alpha, 200.0 / 900.0);
}

}  // namespace
}  // namespace tasklens::analysis
