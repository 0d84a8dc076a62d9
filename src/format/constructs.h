// The OpenMP constructs tasklens names: one enum and one table (name, class) that the overheads,
// the profile, the timeline exports, the DOT export and the reports all use, and the mapping from
// the OMPT kinds of the events (sync kind, work type, mutex kind) to a construct.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace tasklens::format {

enum class Construct : uint8_t {
  kInitialTask,
  kImplicitTask,    // a team member's implicit task (keyed by its parallel construct)
  kTask,            // an explicit task construct (the bodies of its tasks)
  kUntiedTask,
  kParallel,        // the parallel construct (its implicit tasks, fork, join, end barrier)
  kNestedParallel,  // a parallel region nested in another, seen from the enclosing one
  kBarrier,         // an explicit (or implementation) barrier
  kImplicitBarrier,
  kTaskwait,
  kTaskgroup,
  kReduction,
  kLoop,
  kSections,
  kSingle,
  kWorkshare,
  kDistribute,
  kTaskloop,
  kScope,
  kMasked,
  kCritical,
  kLock,
  kOrdered,
  kAtomic,
  kUser,  // a user region of the C API (keyed by its string id)
  kMpi,   // an MPI call the PMPI library recorded (keyed by its format::MpiOp; docs/MPI.md)
  kCount  // also "none": what the mapping functions return for kinds that are no construct
};
constexpr size_t kConstructCount = size_t(Construct::kCount);

// What a construct does to the threads that meet it.
enum class ConstructClass : uint8_t {
  kTask,      // a task: the base of a task's frame on a thread
  kParallel,  // creates a team
  kWork,      // shares work among a team (worksharing, masked, taskloop)
  kSync,      // waits: barriers, taskwait, taskgroup, reduction
  kMutex,     // mutual exclusion: critical, locks, ordered, atomic
  kUser,      // a user region
  kMpi,       // an MPI call: the rank communicates or waits for another
};

struct ConstructInfo {
  Construct kind;
  const char* name;  // "task", "implicit barrier", ... (report rows, region names)
  ConstructClass cls;
};

inline constexpr std::array<ConstructInfo, kConstructCount> kConstructs = {{
    {Construct::kInitialTask, "initial task", ConstructClass::kTask},
    {Construct::kImplicitTask, "implicit task", ConstructClass::kTask},
    {Construct::kTask, "task", ConstructClass::kTask},
    {Construct::kUntiedTask, "untied task", ConstructClass::kTask},
    {Construct::kParallel, "parallel", ConstructClass::kParallel},
    {Construct::kNestedParallel, "nested parallel", ConstructClass::kParallel},
    {Construct::kBarrier, "barrier", ConstructClass::kSync},
    {Construct::kImplicitBarrier, "implicit barrier", ConstructClass::kSync},
    {Construct::kTaskwait, "taskwait", ConstructClass::kSync},
    {Construct::kTaskgroup, "taskgroup", ConstructClass::kSync},
    {Construct::kReduction, "reduction", ConstructClass::kSync},
    {Construct::kLoop, "loop", ConstructClass::kWork},
    {Construct::kSections, "sections", ConstructClass::kWork},
    {Construct::kSingle, "single", ConstructClass::kWork},
    {Construct::kWorkshare, "workshare", ConstructClass::kWork},
    {Construct::kDistribute, "distribute", ConstructClass::kWork},
    {Construct::kTaskloop, "taskloop", ConstructClass::kWork},
    {Construct::kScope, "scope", ConstructClass::kWork},
    {Construct::kMasked, "masked", ConstructClass::kWork},
    {Construct::kCritical, "critical", ConstructClass::kMutex},
    {Construct::kLock, "lock", ConstructClass::kMutex},
    {Construct::kOrdered, "ordered", ConstructClass::kMutex},
    {Construct::kAtomic, "atomic", ConstructClass::kMutex},
    {Construct::kUser, "user region", ConstructClass::kUser},
    {Construct::kMpi, "MPI call", ConstructClass::kMpi},
}};

// "parallel", "implicit barrier", ...; "?" for kCount and out of range values.
const char* construct_name(Construct k);
inline ConstructClass construct_class(Construct k) { return kConstructs[size_t(k)].cls; }
inline bool is_task(Construct k) {
  return k != Construct::kCount && construct_class(k) == ConstructClass::kTask;
}

// The construct of an OMPT sync region kind: barrier (explicit, teams, the deprecated plain
// one), implicit barrier (implicit, implementation, the 5.1 implicit kinds), taskwait, taskgroup,
// reduction; kCount for unknown kinds.
Construct sync_construct(uint16_t sync_kind);
// The construct of an OMPT work type (single: both executor and other); kCount for unknown types.
Construct work_construct(uint16_t work_type);
// The construct of an OMPT mutex kind: critical, lock (plain and nestable), ordered, atomic;
// kCount for test_lock and test_nest_lock (a failed test has no release) and unknown kinds.
Construct mutex_construct(uint16_t mutex_kind);

}  // namespace tasklens::format
