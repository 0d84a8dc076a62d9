// Typed views of the event record: one small struct per Kind with the fields that kind uses,
// named as kinds.h names them, so that readers write `ev::TaskCreate::of(e).parent` instead of
// `e.b`. The packed 40-byte Event stays the record on disk and on the hot path; a view is a
// constexpr decoder (`of`) and encoder (`event`) over it, folded away by the compiler.
//
// Each view lists its fields once, in `fields()`: the member, and the slot of the Event that holds
// it (op, sub, flags, a, b or c). `of` and `event` are made from that list, and
// tests/format/event_views_test.cpp checks it against kinds.h's table, kind by kind: the views and
// the codec/dump table cannot disagree. `of` does not check e.kind: dispatch on the kind first.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "format/event.h"

namespace tasklens::format::ev {

// The task an event names, or `current` (the thread's task as its reader tracks it) where it
// names none: libomp passes some callbacks no task data (a null ompt_data_t*, e.g. an implicit
// task's end or a region's end after the implicit task's), which the recorder stores as 0.
constexpr uint64_t task_or(uint64_t named, uint64_t current) {
  return named ? named : current;
}

// The slot of an Event that holds a field.
enum class In : uint8_t { kOp, kSub, kFlags, kA, kB, kC };

constexpr uint64_t slot(const Event& e, In in) {
  switch (in) {
    case In::kOp: return e.op;
    case In::kSub: return e.sub;
    case In::kFlags: return e.flags;
    case In::kA: return e.a;
    case In::kB: return e.b;
    case In::kC: return e.c;
  }
  return 0;
}

// One field of a view: its name (kinds.h's), the slot that holds it and the member.
template <class V, class T>
struct Field {
  std::string_view name;
  In in;
  T V::*member;
};

template <class V, class T>
constexpr Field<V, T> field(std::string_view name, In in, T V::*member) {
  return {name, in, member};
}

// The field `name` of view V in slot `in`: the member and the string cannot differ.
#define TASKLENS_EV_FIELD(V, name, in) ::tasklens::format::ev::field(#name, In::in, &V::name)

// The base of every view: V is the view, Ks the kinds it reads (one, but for the group views).
template <class V, Kind... Ks>
struct View {
  static constexpr std::array<Kind, sizeof...(Ks)> kKinds{Ks...};
  static constexpr Kind kKind = kKinds[0];

  static constexpr bool is(Kind k) { return ((k == Ks) || ...); }

  // The view of `e` (whose kind is one of Ks: not checked).
  static constexpr V of(const Event& e) {
    V v{};
    read(v, e, std::make_index_sequence<std::tuple_size_v<decltype(V::fields())>>());
    return v;
  }

  // The event at `time` that this view describes; the fields the kind does not use are zero.
  constexpr Event event(uint64_t time, Kind kind = kKind) const {
    Event e{};
    e.time = time;
    e.kind = kind;
    write(static_cast<const V&>(*this), e,
          std::make_index_sequence<std::tuple_size_v<decltype(V::fields())>>());
    return e;
  }

 private:
  // Field by field with the slot and member as constants: as cheap as reading e.a by hand.
  template <size_t I>
  static constexpr void read_one(V& v, const Event& e) {
    constexpr auto f = std::get<I>(V::fields());
    using T = std::remove_reference_t<decltype(v.*f.member)>;
    if constexpr (f.in == In::kOp) v.*f.member = T(e.op);
    else if constexpr (f.in == In::kSub) v.*f.member = T(e.sub);
    else if constexpr (f.in == In::kFlags) v.*f.member = T(e.flags);
    else if constexpr (f.in == In::kA) v.*f.member = T(e.a);
    else if constexpr (f.in == In::kB) v.*f.member = T(e.b);
    else v.*f.member = T(e.c);
  }
  template <size_t... I>
  static constexpr void read(V& v, const Event& e, std::index_sequence<I...>) {
    (read_one<I>(v, e), ...);
  }
  template <size_t I>
  static constexpr void write_one(const V& v, Event& e) {
    constexpr auto f = std::get<I>(V::fields());
    if constexpr (f.in == In::kOp) e.op = uint8_t(v.*f.member);
    else if constexpr (f.in == In::kSub) e.sub = uint16_t(v.*f.member);
    else if constexpr (f.in == In::kFlags) e.flags = uint32_t(v.*f.member);
    else if constexpr (f.in == In::kA) e.a = uint64_t(v.*f.member);
    else if constexpr (f.in == In::kB) e.b = uint64_t(v.*f.member);
    else e.c = uint64_t(v.*f.member);
  }
  template <size_t... I>
  static constexpr void write(const V& v, Event& e, std::index_sequence<I...>) {
    (write_one<I>(v, e), ...);
  }
};

// ---- One view per kind, in the order of Kind (kinds.h names each field) ----

struct ThreadBegin : View<ThreadBegin, Kind::kThreadBegin> {
  uint16_t thread_type = 0;
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(ThreadBegin, thread_type, kSub));
  }
};

struct ThreadEnd : View<ThreadEnd, Kind::kThreadEnd> {
  static constexpr auto fields() { return std::tuple<>(); }
};

struct ParallelBegin : View<ParallelBegin, Kind::kParallelBegin> {
  uint16_t requested = 0;
  uint32_t flags = 0;
  uint64_t region = 0, task = 0, codeptr = 0;
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(ParallelBegin, requested, kSub),
                           TASKLENS_EV_FIELD(ParallelBegin, flags, kFlags),
                           TASKLENS_EV_FIELD(ParallelBegin, region, kA),
                           TASKLENS_EV_FIELD(ParallelBegin, task, kB),
                           TASKLENS_EV_FIELD(ParallelBegin, codeptr, kC));
  }
};

struct ParallelEnd : View<ParallelEnd, Kind::kParallelEnd> {
  uint32_t flags = 0;
  uint64_t region = 0, task = 0, codeptr = 0;
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(ParallelEnd, flags, kFlags),
                           TASKLENS_EV_FIELD(ParallelEnd, region, kA),
                           TASKLENS_EV_FIELD(ParallelEnd, task, kB),
                           TASKLENS_EV_FIELD(ParallelEnd, codeptr, kC));
  }
};

struct ImplicitTask : View<ImplicitTask, Kind::kImplicitTask> {
  uint8_t endpoint = 0;
  uint16_t index = 0;
  uint32_t flags = 0;
  uint64_t task = 0, region = 0, team_size = 0;
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(ImplicitTask, endpoint, kOp),
                           TASKLENS_EV_FIELD(ImplicitTask, index, kSub),
                           TASKLENS_EV_FIELD(ImplicitTask, flags, kFlags),
                           TASKLENS_EV_FIELD(ImplicitTask, task, kA),
                           TASKLENS_EV_FIELD(ImplicitTask, region, kB),
                           TASKLENS_EV_FIELD(ImplicitTask, team_size, kC));
  }
};

struct TaskCreate : View<TaskCreate, Kind::kTaskCreate> {
  uint8_t has_deps = 0;
  uint32_t flags = 0;
  uint64_t task = 0, parent = 0, codeptr = 0;
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(TaskCreate, has_deps, kOp),
                           TASKLENS_EV_FIELD(TaskCreate, flags, kFlags),
                           TASKLENS_EV_FIELD(TaskCreate, task, kA),
                           TASKLENS_EV_FIELD(TaskCreate, parent, kB),
                           TASKLENS_EV_FIELD(TaskCreate, codeptr, kC));
  }
};

struct TaskSchedule : View<TaskSchedule, Kind::kTaskSchedule> {
  uint8_t status = 0;  // a TaskStatus
  uint64_t prior = 0, next = 0;
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(TaskSchedule, status, kOp),
                           TASKLENS_EV_FIELD(TaskSchedule, prior, kA),
                           TASKLENS_EV_FIELD(TaskSchedule, next, kB));
  }
};

struct Dependence : View<Dependence, Kind::kDependence> {
  uint8_t type = 0;  // a DependenceType
  uint32_t index = 0;
  uint64_t task = 0, address = 0, ndeps = 0;
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(Dependence, type, kOp),
                           TASKLENS_EV_FIELD(Dependence, index, kFlags),
                           TASKLENS_EV_FIELD(Dependence, task, kA),
                           TASKLENS_EV_FIELD(Dependence, address, kB),
                           TASKLENS_EV_FIELD(Dependence, ndeps, kC));
  }
};

struct TaskDependence : View<TaskDependence, Kind::kTaskDependence> {
  uint64_t dep_task = 0, task = 0;  // dep_task must finish before task starts
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(TaskDependence, dep_task, kA),
                           TASKLENS_EV_FIELD(TaskDependence, task, kB));
  }
};

// sync_region, sync_region_wait and reduction share one layout; SyncAny reads any of the three.
template <Kind... Ks>
struct SyncT : View<SyncT<Ks...>, Ks...> {
  uint8_t endpoint = 0;
  uint16_t sync_kind = 0;  // a SyncKind
  uint64_t region = 0, task = 0, codeptr = 0;
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(SyncT, endpoint, kOp),
                           TASKLENS_EV_FIELD(SyncT, sync_kind, kSub),
                           TASKLENS_EV_FIELD(SyncT, region, kA), TASKLENS_EV_FIELD(SyncT, task, kB),
                           TASKLENS_EV_FIELD(SyncT, codeptr, kC));
  }
};
using SyncRegion = SyncT<Kind::kSyncRegion>;
using SyncRegionWait = SyncT<Kind::kSyncRegionWait>;
using Reduction = SyncT<Kind::kReduction>;
using SyncAny = SyncT<Kind::kSyncRegion, Kind::kSyncRegionWait, Kind::kReduction>;

struct Work : View<Work, Kind::kWork> {
  uint8_t endpoint = 0;
  uint16_t work_type = 0;  // a WorkType
  uint32_t count = 0;
  uint64_t region = 0, task = 0, codeptr = 0;
  static constexpr auto fields() {
    return std::make_tuple(
        TASKLENS_EV_FIELD(Work, endpoint, kOp), TASKLENS_EV_FIELD(Work, work_type, kSub),
        TASKLENS_EV_FIELD(Work, count, kFlags), TASKLENS_EV_FIELD(Work, region, kA),
        TASKLENS_EV_FIELD(Work, task, kB), TASKLENS_EV_FIELD(Work, codeptr, kC));
  }
};

struct Dispatch : View<Dispatch, Kind::kDispatch> {
  uint8_t dispatch_kind = 0;
  uint64_t region = 0, task = 0, instance = 0;
  static constexpr auto fields() {
    return std::make_tuple(
        TASKLENS_EV_FIELD(Dispatch, dispatch_kind, kOp), TASKLENS_EV_FIELD(Dispatch, region, kA),
        TASKLENS_EV_FIELD(Dispatch, task, kB), TASKLENS_EV_FIELD(Dispatch, instance, kC));
  }
};

// masked has only these; ConstructAny reads them from any begin/end of a construct in a region
// (sync_region, sync_region_wait, reduction, work, masked).
template <Kind... Ks>
struct ScopeT : View<ScopeT<Ks...>, Ks...> {
  uint8_t endpoint = 0;
  uint64_t region = 0, task = 0, codeptr = 0;
  static constexpr auto fields() {
    return std::make_tuple(
        TASKLENS_EV_FIELD(ScopeT, endpoint, kOp), TASKLENS_EV_FIELD(ScopeT, region, kA),
        TASKLENS_EV_FIELD(ScopeT, task, kB), TASKLENS_EV_FIELD(ScopeT, codeptr, kC));
  }
};
using Masked = ScopeT<Kind::kMasked>;
using ConstructAny = ScopeT<Kind::kSyncRegion, Kind::kSyncRegionWait, Kind::kReduction,
                            Kind::kWork, Kind::kMasked>;

// mutex_acquire and lock_init: the request (implementation, kind, hint).
template <Kind... Ks>
struct MutexRequestT : View<MutexRequestT<Ks...>, Ks...> {
  uint8_t impl = 0;
  uint16_t mutex_kind = 0;  // a MutexKind
  uint32_t hint = 0;
  uint64_t wait_id = 0, codeptr = 0;
  static constexpr auto fields() {
    return std::make_tuple(
        TASKLENS_EV_FIELD(MutexRequestT, impl, kOp), TASKLENS_EV_FIELD(MutexRequestT, mutex_kind, kSub),
        TASKLENS_EV_FIELD(MutexRequestT, hint, kFlags),
        TASKLENS_EV_FIELD(MutexRequestT, wait_id, kA),
        TASKLENS_EV_FIELD(MutexRequestT, codeptr, kC));
  }
};
using MutexAcquire = MutexRequestT<Kind::kMutexAcquire>;
using LockInit = MutexRequestT<Kind::kLockInit>;

// The kind, wait id and code address of any of the five mutex and lock events (MutexAny), or of
// mutex_acquired, mutex_released and lock_destroy, which have only these.
template <Kind... Ks>
struct MutexT : View<MutexT<Ks...>, Ks...> {
  uint16_t mutex_kind = 0;  // a MutexKind
  uint64_t wait_id = 0, codeptr = 0;
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(MutexT, mutex_kind, kSub),
                           TASKLENS_EV_FIELD(MutexT, wait_id, kA),
                           TASKLENS_EV_FIELD(MutexT, codeptr, kC));
  }
};
using MutexAcquired = MutexT<Kind::kMutexAcquired>;
using MutexReleased = MutexT<Kind::kMutexReleased>;
using LockDestroy = MutexT<Kind::kLockDestroy>;
using MutexAny = MutexT<Kind::kMutexAcquire, Kind::kMutexAcquired, Kind::kMutexReleased,
                        Kind::kLockInit, Kind::kLockDestroy>;

struct NestLock : View<NestLock, Kind::kNestLock> {
  uint8_t endpoint = 0;
  uint64_t wait_id = 0, codeptr = 0;
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(NestLock, endpoint, kOp),
                           TASKLENS_EV_FIELD(NestLock, wait_id, kA),
                           TASKLENS_EV_FIELD(NestLock, codeptr, kC));
  }
};

struct Flush : View<Flush, Kind::kFlush> {
  uint64_t codeptr = 0;
  static constexpr auto fields() { return std::make_tuple(TASKLENS_EV_FIELD(Flush, codeptr, kC)); }
};

struct Cancel : View<Cancel, Kind::kCancel> {
  uint32_t flags = 0;
  uint64_t task = 0, codeptr = 0;
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(Cancel, flags, kFlags),
                           TASKLENS_EV_FIELD(Cancel, task, kA),
                           TASKLENS_EV_FIELD(Cancel, codeptr, kC));
  }
};

struct Error : View<Error, Kind::kError> {
  uint8_t severity = 0;
  uint64_t codeptr = 0;
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(Error, severity, kOp),
                           TASKLENS_EV_FIELD(Error, codeptr, kC));
  }
};

struct UserRegion : View<UserRegion, Kind::kUserRegion> {
  uint8_t endpoint = 0;
  uint64_t name = 0;  // a string id (strings.txt)
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(UserRegion, endpoint, kOp),
                           TASKLENS_EV_FIELD(UserRegion, name, kA));
  }
};

struct UserParam : View<UserParam, Kind::kUserParam> {
  uint64_t name = 0;  // a string id (strings.txt)
  int64_t value = 0;
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(UserParam, name, kA),
                           TASKLENS_EV_FIELD(UserParam, value, kB));
  }
};

struct Lost : View<Lost, Kind::kLost> {
  uint32_t count = 0;
  static constexpr auto fields() { return std::make_tuple(TASKLENS_EV_FIELD(Lost, count, kFlags)); }
};

struct ToolStall : View<ToolStall, Kind::kToolStall> {
  uint8_t endpoint = 0;
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(ToolStall, endpoint, kOp));
  }
};

// An MPI call (the PMPI library, docs/MPI.md): begin and end on the calling thread.
struct MpiCall : View<MpiCall, Kind::kMpiCall> {
  uint8_t endpoint = 0;
  uint16_t mpi_op = 0;   // a format::MpiOp (mpi_ops.h)
  uint64_t comm = 0;     // the communicator's Fortran handle (MPI_Comm_c2f); 0: none
  int64_t peer = 0;      // the peer rank, or the root; -1: none (kMpiNoPeer)
  uint64_t bytes = 0;    // this rank's bytes (a receive's end: the bytes received)
  uint32_t tag = 0;      // the message tag + 1; 0: none or unknown (format::mpi_tag_field)
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(MpiCall, endpoint, kOp),
                           TASKLENS_EV_FIELD(MpiCall, mpi_op, kSub),
                           TASKLENS_EV_FIELD(MpiCall, tag, kFlags),
                           TASKLENS_EV_FIELD(MpiCall, comm, kA),
                           TASKLENS_EV_FIELD(MpiCall, peer, kB),
                           TASKLENS_EV_FIELD(MpiCall, bytes, kC));
  }
};

// The clocks of the ranks compared at MPI_Init (which 0) and MPI_Finalize (which 1).
struct MpiClock : View<MpiClock, Kind::kMpiClock> {
  uint16_t which = 0;
  uint64_t local_ns = 0;  // this rank's CLOCK_MONOTONIC after the barrier
  uint64_t root_ns = 0;   // rank 0's, broadcast
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(MpiClock, which, kSub),
                           TASKLENS_EV_FIELD(MpiClock, local_ns, kA),
                           TASKLENS_EV_FIELD(MpiClock, root_ns, kB));
  }
};

// perf_event counter values read at a task switch (`tasklens run --counters`, format version 2):
// recorded just before the task_schedule event, on its thread. `count` (1 to 3) values of the
// counters `first`, `first + 1`, ... (their names: the metadata's `counters`), each the counter's
// running total on this thread since its group was opened. A reader bounds `first + i` by the
// metadata's counters and kMaxCounters (a damaged file may hold anything).
struct Counters : View<Counters, Kind::kCounters> {
  uint16_t first = 0;
  uint32_t count = 0;
  uint64_t value0 = 0;
  uint64_t value1 = 0;
  uint64_t value2 = 0;
  static constexpr auto fields() {
    return std::make_tuple(TASKLENS_EV_FIELD(Counters, first, kSub),
                           TASKLENS_EV_FIELD(Counters, count, kFlags),
                           TASKLENS_EV_FIELD(Counters, value0, kA),
                           TASKLENS_EV_FIELD(Counters, value1, kB),
                           TASKLENS_EV_FIELD(Counters, value2, kC));
  }
  // The i-th value (i < kCountersPerEvent; 0 beyond).
  constexpr uint64_t value(uint32_t i) const {
    return i == 0 ? value0 : i == 1 ? value1 : i == 2 ? value2 : 0;
  }
};

// The endpoint (begin or end) of any event that has one.
template <Kind... Ks>
struct EndpointT : View<EndpointT<Ks...>, Ks...> {
  uint8_t endpoint = 0;  // an Endpoint
  static constexpr auto fields() { return std::make_tuple(TASKLENS_EV_FIELD(EndpointT, endpoint, kOp)); }
};
using EndpointAny =
    EndpointT<Kind::kImplicitTask, Kind::kSyncRegion, Kind::kSyncRegionWait, Kind::kReduction,
              Kind::kWork, Kind::kMasked, Kind::kNestLock, Kind::kUserRegion, Kind::kToolStall,
              Kind::kMpiCall>;

// Every per-kind view, in the order of Kind from kThreadBegin (the test walks this list).
using PerKind =
    std::tuple<ThreadBegin, ThreadEnd, ParallelBegin, ParallelEnd, ImplicitTask, TaskCreate,
               TaskSchedule, Dependence, TaskDependence, SyncRegion, SyncRegionWait, Reduction,
               Work, Dispatch, Masked, MutexAcquire, MutexAcquired, MutexReleased, LockInit,
               LockDestroy, NestLock, Flush, Cancel, Error, UserRegion, UserParam, Lost,
               ToolStall, MpiCall, MpiClock, Counters>;
static_assert(std::tuple_size_v<PerKind> + 1 == size_t(Kind::kCount), "one view per kind");

}  // namespace tasklens::format::ev
