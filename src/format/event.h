// The event record: one fixed-size POD per OMPT callback (or user API call), shared by the
// recorder (which fills it with plain stores on the hot path) and the reader (which hands decoded
// events to the replay). Field meanings per kind are in kinds.cpp and docs/FORMAT.md.
#pragma once

#include <cstdint>
#include <type_traits>

namespace tasklens::format {

// Stable numbers: they are written to disk. Append only; never renumber.
enum class Kind : uint8_t {
  kInvalid = 0,
  kThreadBegin = 1,
  kThreadEnd = 2,
  kParallelBegin = 3,
  kParallelEnd = 4,
  kImplicitTask = 5,
  kTaskCreate = 6,
  kTaskSchedule = 7,
  kDependence = 8,
  kTaskDependence = 9,
  kSyncRegion = 10,
  kSyncRegionWait = 11,
  kReduction = 12,
  kWork = 13,
  kDispatch = 14,
  kMasked = 15,
  kMutexAcquire = 16,
  kMutexAcquired = 17,
  kMutexReleased = 18,
  kLockInit = 19,
  kLockDestroy = 20,
  kNestLock = 21,
  kFlush = 22,
  kCancel = 23,
  kError = 24,
  kUserRegion = 25,  // tasklens_region_begin/end (include/tasklens/tasklens.h)
  kUserParam = 26,   // tasklens_param_int
  kLost = 27,        // the recorder dropped events here (overflow policy "drop")
  kToolStall = 28,   // the recorder made this thread wait for a free chunk (policy "block")
  kMpiCall = 29,     // an MPI call's begin or end (the PMPI library, docs/MPI.md)
  kMpiClock = 30,    // the MPI clock sample of Init or Finalize (docs/MPI.md)
  kCounters = 31,    // perf_event counter values at a task switch (format version 2)
  kCount             // one past the last kind
};

// OMPT's scope endpoints, kept with OMPT's values.
enum class Endpoint : uint8_t { kBegin = 1, kEnd = 2, kBeginEnd = 3 };

// A recorded event. `time` is in ticks while in the recorder and in a stream; the reader
// converts it to nanoseconds since the start of the run. The meaning of op/sub/flags/a/b/c
// depends on `kind` (see kinds.cpp).
struct Event {
  uint64_t time;
  Kind kind;
  uint8_t op;      // endpoint, task status, dependence type, has_dependences, ...
  uint16_t sub;    // sync region kind, work type, mutex kind, thread type, ...
  uint32_t flags;  // task flags, parallel flags, counts, ...
  uint64_t a;      // mostly ids: task, parallel region, wait id
  uint64_t b;      // mostly ids: the other task, an address
  uint64_t c;      // mostly a code address (codeptr_ra)
};
static_assert(sizeof(Event) == 40, "Event is a fixed 40-byte record");
static_assert(std::is_trivially_copyable_v<Event>);

// Ids: 16 bits of (thread index + 1) and 48 bits of a per-thread counter. Zero means "none".
constexpr uint64_t make_id(uint32_t thread, uint64_t counter) {
  return (uint64_t(thread + 1) << 48) | (counter & ((uint64_t(1) << 48) - 1));
}
constexpr uint32_t id_thread(uint64_t id) { return uint32_t(id >> 48) - 1; }
constexpr uint64_t id_counter(uint64_t id) { return id & ((uint64_t(1) << 48) - 1); }

// The most perf_event counters one run reads (`tasklens run --counters`): a `counters` event's
// counter index is below this (readers check it, and against the metadata's `counters`).
constexpr uint32_t kMaxCounters = 8;
// A `counters` event holds the values of up to this many counters (its a, b and c).
constexpr uint32_t kCountersPerEvent = 3;

// OMPT task flags (omp-tools.h), repeated here so readers need no OMPT header.
namespace task_flag {
constexpr uint32_t kInitial = 0x1;
constexpr uint32_t kImplicit = 0x2;
constexpr uint32_t kExplicit = 0x4;
constexpr uint32_t kTarget = 0x8;
constexpr uint32_t kTaskwait = 0x10;
constexpr uint32_t kUndeferred = 0x08000000;
constexpr uint32_t kUntied = 0x10000000;
constexpr uint32_t kFinal = 0x20000000;
constexpr uint32_t kMergeable = 0x40000000;
constexpr uint32_t kMerged = 0x80000000;
}  // namespace task_flag

// The task libomp creates for `taskwait depend(...)` (flagged taskwait): it never runs and ends
// with taskwait_complete once the tasks it names have completed. It stands for a taskwait of its
// creator, not for a task (docs/LIBOMP.md). At its creation every reader asks this of the event's
// flags (profile mode's callbacks too); later, the task model's record
// (TaskRecord::is_taskwait_depend) asks it of the same flags.
constexpr bool is_taskwait_depend(uint32_t flags) {
  return (flags & task_flag::kTaskwait) != 0;
}

// Whether `e` creates an explicit task: what every count of explicit tasks counts (the recorder's
// metadata explicit_tasks through the codec, the run summary, check and the task graph).
constexpr bool creates_explicit_task(const Event& e) {
  return e.kind == Kind::kTaskCreate && (e.flags & task_flag::kExplicit) != 0;
}

// OMPT task statuses (the `op` of kTaskSchedule).
enum class TaskStatus : uint8_t {
  kComplete = 1,
  kYield = 2,
  kCancel = 3,
  kDetach = 4,
  kEarlyFulfill = 5,
  kLateFulfill = 6,
  kSwitch = 7,
  kTaskwaitComplete = 8,
};

// OMPT sync region kinds (the `sub` of kSyncRegion, kSyncRegionWait, kReduction).
enum class SyncKind : uint16_t {
  kBarrier = 1,  // deprecated in 5.1
  kBarrierImplicit = 2,  // deprecated in 5.1; what libomp 14 reports for implicit barriers
  kBarrierExplicit = 3,
  kBarrierImplementation = 4,
  kTaskwait = 5,
  kTaskgroup = 6,
  kReduction = 7,
  kBarrierImplicitWorkshare = 8,
  kBarrierImplicitParallel = 9,
  kBarrierTeams = 10,
};

// OMPT work types (the `sub` of kWork).
enum class WorkType : uint16_t {
  kLoop = 1,
  kSections = 2,
  kSingleExecutor = 3,
  kSingleOther = 4,
  kWorkshare = 5,
  kDistribute = 6,
  kTaskloop = 7,
  kScope = 8,
};

// OMPT mutex kinds (the `sub` of the mutex and lock events).
enum class MutexKind : uint16_t {
  kLock = 1,
  kTestLock = 2,
  kNestLock = 3,
  kTestNestLock = 4,
  kCritical = 5,
  kAtomic = 6,
  kOrdered = 7,
};

// OMPT dependence types (the `op` of kDependence).
enum class DependenceType : uint8_t {
  kIn = 1,
  kOut = 2,
  kInout = 3,
  kMutexinoutset = 4,
  kSource = 5,
  kSink = 6,
  kInoutset = 7,
};

}  // namespace tasklens::format
