// MutexCallSites: a mutex event whose code address is inside the runtime (libomp's own, when its
// stashed return address was empty) gets the program's call site of the same lock.
#include "replay/mutex_call_sites.h"

#include <gtest/gtest.h>

namespace tasklens::replay {
namespace {

using format::Kind;

constexpr format::CodeSpan kRuntime{0x7000, 0x8000};
constexpr uint64_t kInRuntime = 0x7123;

Record mutex(Kind kind, uint32_t thread, uint64_t wait_id, uint64_t code) {
  Record r{};
  r.ev.kind = kind;
  r.ev.a = wait_id;
  r.ev.c = code;
  r.thread = thread;
  return r;
}

TEST(MutexCallSites, ARuntimeAddressGetsTheLocksLastCallSite) {
  MutexCallSites sites(2, kRuntime);
  Record a = mutex(Kind::kMutexAcquire, 0, 0xa0, 0x1000);  // critical A at 0x1000
  EXPECT_EQ(sites.fix(a), &a);
  Record b = mutex(Kind::kMutexAcquire, 0, 0xb0, 0x2000);  // critical B at 0x2000
  EXPECT_EQ(sites.fix(b), &b);
  for (Kind k : {Kind::kMutexAcquire, Kind::kMutexAcquired, Kind::kMutexReleased}) {
    Record lost = mutex(k, 0, 0xa0, kInRuntime);
    const Record* f = sites.fix(lost);
    EXPECT_EQ(f->ev.c, 0x1000u);  // A's, not B's, the thread's latest
    EXPECT_EQ(f->ev.kind, k);
    EXPECT_EQ(f->ev.a, 0xa0u);
  }
  // Another thread that never acquired A itself: A's site from any thread.
  Record other = mutex(Kind::kMutexAcquire, 1, 0xa0, kInRuntime);
  EXPECT_EQ(sites.fix(other)->ev.c, 0x1000u);
}

TEST(MutexCallSites, OtherEventsAndUnknownLocksAreLeftAlone) {
  MutexCallSites sites(1, kRuntime);
  Record unknown = mutex(Kind::kMutexAcquire, 0, 0xc0, kInRuntime);  // no site seen yet
  EXPECT_EQ(sites.fix(unknown), &unknown);
  Record task = mutex(Kind::kTaskCreate, 0, 0xa0, kInRuntime);  // not a mutex event
  EXPECT_EQ(sites.fix(task), &task);
  // The released event's own site (the end of the critical) is not remembered as the lock's.
  Record rel = mutex(Kind::kMutexReleased, 0, 0xa0, 0x1040);
  EXPECT_EQ(sites.fix(rel), &rel);
  Record lost = mutex(Kind::kMutexAcquire, 0, 0xa0, kInRuntime);
  EXPECT_EQ(sites.fix(lost), &lost);
}

TEST(MutexCallSites, NoRuntimeSpanChangesNothing) {
  MutexCallSites sites(1, format::CodeSpan{});  // an old trace without the runtime's code span
  Record a = mutex(Kind::kMutexAcquire, 0, 0xa0, 0x1000);
  EXPECT_EQ(sites.fix(a), &a);
  Record b = mutex(Kind::kMutexAcquire, 0, 0xa0, kInRuntime);
  EXPECT_EQ(sites.fix(b), &b);
}

}  // namespace
}  // namespace tasklens::replay
