// profile.json: what `tasklens run --mode profile` writes instead of the thread streams (docs/
// PROFILE-MODE.md). The recorder writes it with JsonOut at the end of the run (recorder/
// profiler.cpp); the analyses read it into their own results (analysis/profile_file.cpp). The
// node kinds of the task-aware call-path profile live here because both sides name them.
// Plain constants: the recorder includes this header without linking anything.
#pragma once

#include <cstdint>

namespace tasklens::format {

inline constexpr char kProfileFile[] = "profile.json";
// The value of the metadata's "mode" in a profile-mode experiment ("trace" otherwise, or absent).
inline constexpr char kModeProfile[] = "profile";
inline constexpr char kModeTrace[] = "trace";

// The kinds of the call-path profile's nodes (analysis/profile.h explains each).
enum class ProfileNodeKind : uint8_t {
  kProgram,    // the initial task
  kParallel,   // a parallel construct: the root frame of each team member's implicit task
  kTask,       // the root of a task construct's tree
  kStub,       // a task construct's instances running at an implicit task's node
  kCreate,     // task creation (code = the created construct)
  kBarrier,    // sub = OMPT sync kind (explicit, implicit, ...)
  kTaskwait,
  kTaskgroup,
  kReduction,  // sub = OMPT sync kind
  kWork,       // sub = OMPT work type (loop, sections, single, taskloop, ...)
  kMasked,
  kMutexWait,  // waiting to acquire a critical section, lock, ordered or atomic; sub = kind
  kTaskyield,  // a task switched out at a taskyield
  kUser,       // a user region; code = string id
  kParam,      // a user parameter; code = string id, value = its value
  kCount
};

inline const char* profile_node_kind_name(ProfileNodeKind k) {
  switch (k) {
    case ProfileNodeKind::kProgram: return "program";
    case ProfileNodeKind::kParallel: return "parallel";
    case ProfileNodeKind::kTask: return "task";
    case ProfileNodeKind::kStub: return "stub";
    case ProfileNodeKind::kCreate: return "create_task";
    case ProfileNodeKind::kBarrier: return "barrier";
    case ProfileNodeKind::kTaskwait: return "taskwait";
    case ProfileNodeKind::kTaskgroup: return "taskgroup";
    case ProfileNodeKind::kReduction: return "reduction";
    case ProfileNodeKind::kWork: return "work";
    case ProfileNodeKind::kMasked: return "masked";
    case ProfileNodeKind::kMutexWait: return "mutex_wait";
    case ProfileNodeKind::kTaskyield: return "taskyield";
    case ProfileNodeKind::kUser: return "user_region";
    case ProfileNodeKind::kParam: return "parameter";
    case ProfileNodeKind::kCount: break;
  }
  return "?";
}

// The members of profile.json. Times are in the recorder's clock ticks (experiment.json's
// "clock" turns them into ns): durations as tick counts, instants as tick values.
namespace pkey {
inline constexpr char kVersion[] = "profile_version";
inline constexpr char kThreads[] = "threads";      // [{index, begin, end, initial, work, ...}]
inline constexpr char kNodes[] = "nodes";          // [{id, parent, kind, sub, code, threads}]
inline constexpr char kConstructs[] = "constructs";  // [{code, created, instances, ...}]
inline constexpr char kCounters[] = "counters";    // the perf_event counters' names, in order
// [{code, name, value, again, time}]: per task construct, parameter name (a string id of
// experiment.json) and first value, its instances' times and how many set it again. Absent in
// files of recorders before user parameters were profiled.
inline constexpr char kParams[] = "params";
inline constexpr char kApproximate[] = "approximate";  // what the online figures approximate
inline constexpr char kOverflow[] = "overflow";    // nodes or constructs that did not fit
}  // namespace pkey

}  // namespace tasklens::format
