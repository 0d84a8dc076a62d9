// The events of the checked-in fixture tests/format/fixtures/v1-two-threads: a two-thread run with
// a parallel region, tasks with and without dependences, an untied task that is suspended and
// resumed, a taskwait, a barrier, a critical section, user regions and parameters, an overflow
// marker, and code addresses near and far apart, so that every kind and every slot encoding of
// version 1 is on disk. format_fixture_writer wrote the files from this list; fixture_test reads
// them back and expects exactly this list. Never edit it for a format change: add a new fixture.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "format/event.h"

namespace tasklens::format::fixture {

struct ThreadEvent {
  uint32_t thread;
  Event event;
};

inline std::vector<ThreadEvent> events() {
  auto id = [](uint32_t thread, uint64_t n) { return make_id(thread, n); };
  const uint64_t init = id(0, 1), region = id(0, 2), imp0 = id(0, 3), imp1 = id(1, 1);
  const uint64_t t1 = id(0, 4), t2 = id(0, 5), child = id(1, 2);
  const uint64_t code = 0x55d0c0de1000, far_code = 0x7f3a12345678, addr = 0x7ffd00001000;
  using K = Kind;
  const uint8_t begin = uint8_t(Endpoint::kBegin), end = uint8_t(Endpoint::kEnd);
  const uint8_t sw = uint8_t(TaskStatus::kSwitch), done = uint8_t(TaskStatus::kComplete);
  const uint8_t yield = uint8_t(TaskStatus::kYield);
  const uint16_t taskwait = uint16_t(SyncKind::kTaskwait);
  const uint16_t barrier = uint16_t(SyncKind::kBarrierImplicit);
  const uint16_t critical = uint16_t(MutexKind::kCritical);
  return {
      {0, {100, K::kThreadBegin, 0, 1, 0, 0, 0, 0}},
      {0, {110, K::kImplicitTask, begin, 1, task_flag::kInitial, init, 0, 1}},
      {0, {200, K::kParallelBegin, 0, 2, 0x80000001u, region, init, code + 0x10}},
      {0, {210, K::kImplicitTask, begin, 0, task_flag::kImplicit, imp0, region, 2}},
      {1, {215, K::kThreadBegin, 0, 2, 0, 0, 0, 0}},
      {1, {220, K::kImplicitTask, begin, 1, task_flag::kImplicit, imp1, region, 2}},
      {0, {230, K::kWork, begin, uint16_t(WorkType::kSingleExecutor), 1, region, imp0, code + 0x20}},
      {0, {240, K::kTaskCreate, 1, 0, task_flag::kExplicit, t1, imp0, code + 0x30}},
      {0, {241, K::kDependence, uint8_t(DependenceType::kInout), 0, 0, t1, addr, 2}},
      {0, {241, K::kDependence, uint8_t(DependenceType::kIn), 0, 1, t1, addr + 64, 2}},
      {0, {250, K::kTaskCreate, 1, 0, task_flag::kExplicit | task_flag::kUntied, t2, imp0,
           far_code}},
      {0, {251, K::kDependence, uint8_t(DependenceType::kInout), 0, 0, t2, addr, 1}},
      {0, {252, K::kTaskDependence, 0, 0, 0, t1, t2, 0}},
      {1, {260, K::kTaskSchedule, sw, 0, 0, imp1, t1, 0}},
      {1, {270, K::kUserRegion, begin, 0, 0, 1, 0, 0}},
      {1, {271, K::kUserParam, 0, 0, 0, 2, uint64_t(int64_t(-7)), 0}},
      {1, {272, K::kUserRegion, end, 0, 0, 1, 0, 0}},
      {1, {280, K::kTaskSchedule, done, 0, 0, t1, imp1, 0}},
      {0, {290, K::kWork, end, uint16_t(WorkType::kSingleExecutor), 1, region, imp0, code + 0x20}},
      {1, {300, K::kTaskSchedule, sw, 0, 0, imp1, t2, 0}},
      {1, {310, K::kTaskCreate, 0, 0, task_flag::kExplicit | task_flag::kUndeferred, child, t2,
           far_code + 0x40}},
      {1, {320, K::kTaskSchedule, yield, 0, 0, t2, imp1, 0}},
      {0, {330, K::kSyncRegion, begin, barrier, 0, region, imp0, code + 0x50}},
      {0, {331, K::kSyncRegionWait, begin, barrier, 0, region, imp0, code + 0x50}},
      {0, {340, K::kTaskSchedule, sw, 0, 0, imp0, t2, 0}},
      {0, {341, K::kSyncRegion, begin, taskwait, 0, region, t2, far_code + 0x60}},
      {0, {342, K::kTaskSchedule, sw, 0, 0, t2, child, 0}},
      {0, {350, K::kMutexAcquire, 1, critical, 0, 0x601040, 0, far_code + 0x70}},
      {0, {351, K::kMutexAcquired, 0, critical, 0, 0x601040, 0, far_code + 0x70}},
      {0, {352, K::kMutexReleased, 0, critical, 0, 0x601040, 0, far_code + 0x70}},
      {0, {360, K::kTaskSchedule, done, 0, 0, child, t2, 0}},
      {0, {361, K::kSyncRegion, end, taskwait, 0, region, t2, far_code + 0x60}},
      {0, {370, K::kTaskSchedule, done, 0, 0, t2, imp0, 0}},
      {1, {375, K::kLost, 0, 0, 12, 0, 0, 0}},
      {1, {380, K::kToolStall, begin, 0, 0, 0, 0, 0}},
      {1, {390, K::kToolStall, end, 0, 0, 0, 0, 0}},
      {1, {400, K::kSyncRegion, begin, barrier, 0, region, imp1, 0}},
      {1, {401, K::kSyncRegionWait, begin, barrier, 0, region, imp1, 0}},
      {0, {410, K::kSyncRegionWait, end, barrier, 0, 0, imp0, code + 0x50}},
      {0, {411, K::kSyncRegion, end, barrier, 0, 0, imp0, code + 0x50}},
      {1, {412, K::kSyncRegionWait, end, barrier, 0, 0, imp1, 0}},
      {1, {413, K::kSyncRegion, end, barrier, 0, 0, imp1, 0}},
      {0, {420, K::kImplicitTask, end, 0, task_flag::kImplicit, imp0, 0, 2}},
      {1, {421, K::kImplicitTask, end, 1, task_flag::kImplicit, imp1, 0, 2}},
      {0, {430, K::kParallelEnd, 0, 0, 0x80000001u, region, init, code + 0x10}},
      {0, {440, K::kMasked, begin, 0, 0, region, init, code + 0x80}},
      {0, {441, K::kMasked, end, 0, 0, region, init, code + 0x80}},
      {0, {450, K::kLockInit, 1, uint16_t(MutexKind::kLock), 0, 0x602000, 0, code + 0x90}},
      {0, {451, K::kNestLock, begin, 0, 0, 0x602000, 0, code + 0x94}},
      {0, {452, K::kLockDestroy, 0, uint16_t(MutexKind::kLock), 0, 0x602000, 0, code + 0x98}},
      {0, {460, K::kFlush, 0, 0, 0, 0, 0, code + 0xa0}},
      {0, {470, K::kCancel, 0, 0, 0x2, init, 0, code + 0xb0}},
      {0, {480, K::kReduction, begin, uint16_t(SyncKind::kReduction), 0, region, init, code}},
      {0, {481, K::kReduction, end, uint16_t(SyncKind::kReduction), 0, region, init, code}},
      {0, {490, K::kDispatch, 1, 0, 0, region, init, 5}},
      {0, {495, K::kError, 1, 0, 0, 0, 0, code + 0xc0}},
      {1, {500, K::kThreadEnd, 0, 0, 0, 0, 0, 0}},
      {0, {1000000000000ull, K::kThreadEnd, 0, 0, 0, 0, 0, 0}},
  };
}

// User-API names: id 1 and 2 above.
inline std::vector<std::string> strings() { return {"phase", "depth"}; }

// Events per chunk in the fixture: small, so that both streams have several chunks.
constexpr size_t kChunkEvents = 7;

}  // namespace tasklens::format::fixture
