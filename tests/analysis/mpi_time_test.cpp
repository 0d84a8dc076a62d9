// Golden tests of the time in MPI calls (analysis/mpi_time.h, docs/MPI.md) on hand-made traces:
// kMpiCall begin/end pairs and kMpiClock samples as the PMPI library records them.
#include <gtest/gtest.h>

#include "analysis/mpi_time.h"
#include "format/event_views.h"
#include "format/mpi_ops.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {
namespace {

using format::Endpoint;
using format::MpiOp;
using testing::TraceBuilder;

format::Event call(uint64_t t, Endpoint ep, MpiOp op, int64_t peer, uint64_t bytes) {
  format::ev::MpiCall v;
  v.endpoint = uint8_t(ep);
  v.mpi_op = uint16_t(op);
  v.comm = 3;
  v.peer = peer;
  v.bytes = bytes;
  return v.event(t);
}

format::Event clock(uint64_t t, uint16_t which, uint64_t local, uint64_t root) {
  format::ev::MpiClock v;
  v.which = which;
  v.local_ns = local;
  v.root_ns = root;
  return v.event(t);
}

// One thread: Init 200 ns, a Barrier of 600 ns preempted for 100 of them, a Recv of 100 ns that
// received 64 bytes from rank 1, Finalize 50 ns; clock samples 100 ns ahead then 40 behind.
TEST(MpiTime, CallsButInitAndFinalizeAreMpiTimeAndPreemptionInThemIsSaid) {
  TraceBuilder t;
  t.solo_begin();
  t.event(0, call(100, Endpoint::kBegin, MpiOp::kInit, -1, 0));
  t.event(0, call(300, Endpoint::kEnd, MpiOp::kInit, -1, 0));
  t.event(0, clock(310, 0, 5000, 5100));
  t.event(0, call(1000, Endpoint::kBegin, MpiOp::kBarrier, -1, 0));
  t.event(0, call(1600, Endpoint::kEnd, MpiOp::kBarrier, -1, 0));
  t.preempted(0, 1200, 1300);
  t.event(0, call(2000, Endpoint::kBegin, MpiOp::kRecv, -1, 4096));
  t.event(0, call(2100, Endpoint::kEnd, MpiOp::kRecv, 1, 64));
  t.event(0, clock(2900, 1, 9000, 8960));
  t.event(0, call(2950, Endpoint::kBegin, MpiOp::kFinalize, -1, 0));
  t.event(0, call(3000, Endpoint::kEnd, MpiOp::kFinalize, -1, 0));
  t.solo_end(3100, 3200);
  MpiTimePass pass;
  ASSERT_TRUE(testing::replay_experiment(t.write(), {&pass}));
  const MpiTime& m = pass.result();
  EXPECT_EQ(m.mpi_ns, 700u);
  EXPECT_EQ(m.setup_ns, 250u);
  EXPECT_EQ(m.calls, 2u);
  EXPECT_EQ(m.bytes, 64u);
  EXPECT_EQ(m.mpi_preempted_ns, 100u);
  EXPECT_EQ(m.setup_preempted_ns, 0u);
  ASSERT_EQ(m.thread_mpi_ns.size(), 1u);
  EXPECT_EQ(m.thread_mpi_ns[0], 700u);
  ASSERT_EQ(m.by_op.count(uint16_t(MpiOp::kBarrier)), 1u);
  EXPECT_EQ(m.by_op.at(uint16_t(MpiOp::kBarrier)).ns, 600u);
  EXPECT_EQ(m.by_op.at(uint16_t(MpiOp::kRecv)).bytes, 64u);
  ASSERT_TRUE(m.init_clock && m.finalize_clock);
  EXPECT_EQ(m.init_clock->offset_ns, 100);
  EXPECT_EQ(m.finalize_clock->offset_ns, -40);
  // The collectives, for the run's waits: the Barrier only (Recv is point to point).
  ASSERT_EQ(m.collectives.size(), 1u);
  EXPECT_EQ(m.collectives[0].op, uint16_t(MpiOp::kBarrier));
  EXPECT_EQ(m.collectives[0].comm, 3u);
  EXPECT_EQ(m.collectives[0].begin_ns, 1000u);
  EXPECT_EQ(m.collectives[0].end_ns, 1600u);
  // The offset on the line through (5000, 100) and (9000, -40), extended past both.
  EXPECT_DOUBLE_EQ(m.offset_at(5000), 100.0);
  EXPECT_DOUBLE_EQ(m.offset_at(7000), 30.0);
  EXPECT_DOUBLE_EQ(m.offset_at(9000), -40.0);
  EXPECT_DOUBLE_EQ(m.offset_at(13000), -180.0);
  EXPECT_DOUBLE_EQ(mpi_clock_offset(m.init_clock, std::nullopt, 9000), 100.0);
  EXPECT_DOUBLE_EQ(mpi_clock_offset(std::nullopt, std::nullopt, 9000), 0.0);
}

format::Event p2p(uint64_t t, Endpoint ep, MpiOp op, uint64_t comm, int64_t peer, uint32_t tag) {
  format::ev::MpiCall v;
  v.endpoint = uint8_t(ep);
  v.mpi_op = uint16_t(op);
  v.comm = comm;
  v.peer = peer;
  v.bytes = 16;
  v.tag = tag;
  return v.event(t);
}

// The blocking point-to-point calls kept for the run's late senders and receivers: a Send with
// its destination and tag, a Recv from MPI_ANY_SOURCE with any tag whose end says who sent it and
// with which tag; MPI_COMM_WORLD's handle from Init's end. A Barrier is not one of them.
TEST(MpiTime, PointToPointCallsKeepTheirPeerAndTag) {
  TraceBuilder t;
  t.solo_begin();
  t.event(0, p2p(100, Endpoint::kBegin, MpiOp::kInit, 0, -1, 0));
  t.event(0, p2p(200, Endpoint::kEnd, MpiOp::kInit, 9, -1, 0));
  t.event(0, p2p(1000, Endpoint::kBegin, MpiOp::kSend, 9, 1, format::mpi_tag_field(7)));
  t.event(0, p2p(1010, Endpoint::kEnd, MpiOp::kSend, 9, 1, format::mpi_tag_field(7)));
  t.event(0, p2p(2000, Endpoint::kBegin, MpiOp::kRecv, 9, -1, format::mpi_tag_field(-1)));
  t.event(0, p2p(2500, Endpoint::kEnd, MpiOp::kRecv, 9, 2, format::mpi_tag_field(42)));
  t.event(0, p2p(3000, Endpoint::kBegin, MpiOp::kBarrier, 9, -1, 0));
  t.event(0, p2p(3100, Endpoint::kEnd, MpiOp::kBarrier, 9, -1, 0));
  t.solo_end(4000, 4100);
  MpiTimePass pass;
  ASSERT_TRUE(testing::replay_experiment(t.write(), {&pass}));
  const MpiTime& m = pass.result();
  ASSERT_TRUE(m.world_comm);
  EXPECT_EQ(*m.world_comm, 9u);
  ASSERT_EQ(m.p2p.size(), 2u);
  EXPECT_EQ(m.p2p[0].op, uint16_t(MpiOp::kSend));
  EXPECT_EQ(m.p2p[0].peer, 1);
  EXPECT_EQ(m.p2p[0].tag, 8u);
  EXPECT_EQ(m.p2p[0].begin_ns, 1000u);
  EXPECT_EQ(m.p2p[0].end_ns, 1010u);
  EXPECT_EQ(m.p2p[1].op, uint16_t(MpiOp::kRecv));
  EXPECT_EQ(m.p2p[1].comm, 9u);
  EXPECT_EQ(m.p2p[1].peer, 2);
  EXPECT_EQ(m.p2p[1].tag, 43u);
  EXPECT_EQ(m.p2p[1].begin_ns, 2000u);
  EXPECT_EQ(m.p2p[1].end_ns, 2500u);
  EXPECT_EQ(m.collectives.size(), 1u);
}

// A call still open at the end (the program died in it) counts up to the end of the run.
TEST(MpiTime, ACallOpenAtTheEndCountsToTheEnd) {
  TraceBuilder t;
  t.solo_begin();
  t.event(0, call(1000, Endpoint::kBegin, MpiOp::kAllreduce, -1, 8));
  t.solo_end(1500, 2000);
  MpiTimePass pass;
  ASSERT_TRUE(testing::replay_experiment(t.write(), {&pass}));
  EXPECT_EQ(pass.result().mpi_ns, 1000u);
  EXPECT_EQ(pass.result().calls, 1u);
}

}  // namespace
}  // namespace tasklens::analysis
