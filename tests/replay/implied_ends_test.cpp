// ImpliedEnds: the end of a `single` that the runtime does not report (GCC's entry points) is
// supplied where its task next enters a barrier or a worksharing construct, or ends.
#include "replay/implied_ends.h"

#include <gtest/gtest.h>

namespace tasklens::replay {
namespace {

using format::Endpoint;
using format::Event;
using format::Kind;
using format::SyncKind;
using format::WorkType;

Record rec(uint32_t thread, uint64_t time, Kind k, Endpoint op, uint16_t sub, uint64_t a,
           uint64_t b, uint64_t c = 0) {
  return Record{Event{time, k, uint8_t(op), sub, 0, a, b, c}, thread};
}
Record single(uint32_t thread, uint64_t time, Endpoint op, uint64_t task, uint64_t code = 0x40) {
  return rec(thread, time, Kind::kWork, op, uint16_t(WorkType::kSingleExecutor), 7, task, code);
}
Record barrier(uint32_t thread, uint64_t time, uint64_t task, SyncKind k = SyncKind::kBarrierImplicit) {
  return rec(thread, time, Kind::kSyncRegion, Endpoint::kBegin, uint16_t(k), 7, task, 0x90);
}

TEST(ImpliedEnds, SingleWithoutEndEndsAtItsTasksBarrier) {
  ImpliedEnds ends(2);
  EXPECT_EQ(ends.before(single(0, 10, Endpoint::kBegin, 3)), nullptr);
  // Inside the single: a taskwait and another thread's barrier do not end it.
  EXPECT_EQ(ends.before(rec(0, 20, Kind::kSyncRegion, Endpoint::kBegin,
                            uint16_t(SyncKind::kTaskwait), 7, 3)),
            nullptr);
  EXPECT_EQ(ends.before(barrier(1, 25, 4)), nullptr);
  const Record* end = ends.before(barrier(0, 30, 3, SyncKind::kBarrierImplementation));
  ASSERT_NE(end, nullptr);
  EXPECT_EQ(end->thread, 0u);
  EXPECT_EQ(end->ev.time, 30u);
  EXPECT_EQ(end->ev.kind, Kind::kWork);
  EXPECT_EQ(end->ev.op, uint8_t(Endpoint::kEnd));
  EXPECT_EQ(end->ev.sub, uint16_t(WorkType::kSingleExecutor));
  EXPECT_EQ(end->ev.a, 7u);
  EXPECT_EQ(end->ev.b, 3u);
  EXPECT_EQ(end->ev.c, 0x40u);
  // Once only.
  EXPECT_EQ(ends.before(barrier(0, 40, 3)), nullptr);
}

TEST(ImpliedEnds, ReportedEndNeedsNothing) {
  ImpliedEnds ends(1);
  EXPECT_EQ(ends.before(single(0, 10, Endpoint::kBegin, 3)), nullptr);
  EXPECT_EQ(ends.before(single(0, 20, Endpoint::kEnd, 3, 0x48)), nullptr);
  EXPECT_EQ(ends.before(barrier(0, 30, 3)), nullptr);
}

TEST(ImpliedEnds, NowaitSingleEndsAtTheNextConstructOrTheTasksEnd) {
  ImpliedEnds ends(1);
  ends.before(single(0, 10, Endpoint::kBegin, 3, 0x40));
  // The next single of the same task (nowait) ends the first, then opens itself.
  const Record* end = ends.before(single(0, 20, Endpoint::kBegin, 3, 0x50));
  ASSERT_NE(end, nullptr);
  EXPECT_EQ(end->ev.c, 0x40u);
  EXPECT_EQ(end->ev.time, 20u);
  end = ends.before(rec(0, 30, Kind::kImplicitTask, Endpoint::kEnd, 0, 3, 7));
  ASSERT_NE(end, nullptr);
  EXPECT_EQ(end->ev.c, 0x50u);
  EXPECT_EQ(end->ev.time, 30u);
}

// A taskloop is no worksharing construct: a single holds one (clang reports the single's end
// after it; a GCC single's end is still implied at its barrier).
TEST(ImpliedEnds, ATaskloopInsideTheSingleDoesNotEndIt) {
  ImpliedEnds ends(1);
  ends.before(single(0, 10, Endpoint::kBegin, 3));
  EXPECT_EQ(ends.before(rec(0, 20, Kind::kWork, Endpoint::kBegin, uint16_t(WorkType::kTaskloop), 7,
                            3, 0x60)),
            nullptr);
  EXPECT_EQ(ends.before(
                rec(0, 30, Kind::kWork, Endpoint::kEnd, uint16_t(WorkType::kTaskloop), 7, 3, 0x60)),
            nullptr);
  const Record* end = ends.before(barrier(0, 40, 3));
  ASSERT_NE(end, nullptr);
  EXPECT_EQ(end->ev.time, 40u);
  EXPECT_EQ(end->ev.c, 0x40u);
}

TEST(ImpliedEnds, ThreadsOutsideTheStreamsCountAreIgnored) {
  ImpliedEnds ends(1);
  EXPECT_EQ(ends.before(single(5, 10, Endpoint::kBegin, 3)), nullptr);
  EXPECT_EQ(ends.before(barrier(5, 20, 3)), nullptr);
}

}  // namespace
}  // namespace tasklens::replay
