// What each field of an Event means for each Kind: the codec uses the slot classes to choose an
// encoding, `tasklens dump` uses the names. docs/FORMAT.md is written from this table.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "format/event.h"

namespace tasklens::format {

// How a 64-bit field is predicted and encoded on disk.
enum class Slot : uint8_t {
  kNone,      // unused for this kind
  kRaw,       // unsigned varint
  kSigned,    // zigzag varint
  kTask,      // task id, predicted from recent task ids
  kParallel,  // parallel region id, predicted from the previous one
  kAddr,      // data address or wait id, predicted from the previous one
  kCode,      // code address, predicted from recent code addresses
};

struct KindLayout {
  std::string_view name;  // the event name in dumps, e.g. "task_create"
  // Names of the small fields in dumps; empty when the kind does not use the field.
  std::string_view op, sub, flags;
  Slot a, b, c;
  std::string_view a_name, b_name, c_name;
};

// The layout of every kind, in the order of Kind (constexpr: the codec specializes on it).
inline constexpr std::array<KindLayout, size_t(Kind::kCount)> kKindLayouts = {{
    {"invalid", "", "", "", Slot::kNone, Slot::kNone, Slot::kNone, "", "", ""},
    {"thread_begin", "", "thread_type", "", Slot::kNone, Slot::kNone, Slot::kNone, "", "", ""},
    {"thread_end", "", "", "", Slot::kNone, Slot::kNone, Slot::kNone, "", "", ""},
    {"parallel_begin", "", "requested", "flags", Slot::kParallel, Slot::kTask, Slot::kCode, "region",
     "task", "codeptr"},
    {"parallel_end", "", "", "flags", Slot::kParallel, Slot::kTask, Slot::kCode, "region", "task",
     "codeptr"},
    {"implicit_task", "endpoint", "index", "flags", Slot::kTask, Slot::kParallel, Slot::kRaw, "task",
     "region", "team_size"},
    {"task_create", "has_deps", "", "flags", Slot::kTask, Slot::kTask, Slot::kCode, "task", "parent",
     "codeptr"},
    {"task_schedule", "status", "", "", Slot::kTask, Slot::kTask, Slot::kNone, "prior", "next", ""},
    {"dependence", "type", "", "index", Slot::kTask, Slot::kAddr, Slot::kRaw, "task", "address",
     "ndeps"},
    {"task_dependence", "", "", "", Slot::kTask, Slot::kTask, Slot::kNone, "dep_task", "task", ""},
    {"sync_region", "endpoint", "sync_kind", "", Slot::kParallel, Slot::kTask, Slot::kCode, "region",
     "task", "codeptr"},
    {"sync_region_wait", "endpoint", "sync_kind", "", Slot::kParallel, Slot::kTask, Slot::kCode, "region",
     "task", "codeptr"},
    {"reduction", "endpoint", "sync_kind", "", Slot::kParallel, Slot::kTask, Slot::kCode, "region", "task",
     "codeptr"},
    {"work", "endpoint", "work_type", "count", Slot::kParallel, Slot::kTask, Slot::kCode, "region", "task",
     "codeptr"},
    {"dispatch", "dispatch_kind", "", "", Slot::kParallel, Slot::kTask, Slot::kRaw, "region", "task",
     "instance"},
    {"masked", "endpoint", "", "", Slot::kParallel, Slot::kTask, Slot::kCode, "region", "task", "codeptr"},
    {"mutex_acquire", "impl", "mutex_kind", "hint", Slot::kAddr, Slot::kNone, Slot::kCode, "wait_id", "",
     "codeptr"},
    {"mutex_acquired", "", "mutex_kind", "", Slot::kAddr, Slot::kNone, Slot::kCode, "wait_id", "",
     "codeptr"},
    {"mutex_released", "", "mutex_kind", "", Slot::kAddr, Slot::kNone, Slot::kCode, "wait_id", "",
     "codeptr"},
    {"lock_init", "impl", "mutex_kind", "hint", Slot::kAddr, Slot::kNone, Slot::kCode, "wait_id", "",
     "codeptr"},
    {"lock_destroy", "", "mutex_kind", "", Slot::kAddr, Slot::kNone, Slot::kCode, "wait_id", "",
     "codeptr"},
    {"nest_lock", "endpoint", "", "", Slot::kAddr, Slot::kNone, Slot::kCode, "wait_id", "", "codeptr"},
    {"flush", "", "", "", Slot::kNone, Slot::kNone, Slot::kCode, "", "", "codeptr"},
    {"cancel", "", "", "flags", Slot::kTask, Slot::kNone, Slot::kCode, "task", "", "codeptr"},
    {"error", "severity", "", "", Slot::kNone, Slot::kNone, Slot::kCode, "", "", "codeptr"},
    {"user_region", "endpoint", "", "", Slot::kRaw, Slot::kNone, Slot::kNone, "name", "", ""},
    {"user_param", "", "", "", Slot::kRaw, Slot::kSigned, Slot::kNone, "name", "value", ""},
    {"lost", "", "", "count", Slot::kNone, Slot::kNone, Slot::kNone, "", "", ""},
    {"tool_stall", "endpoint", "", "", Slot::kNone, Slot::kNone, Slot::kNone, "", "", ""},
    {"mpi_call", "endpoint", "mpi_op", "tag", Slot::kRaw, Slot::kSigned, Slot::kRaw, "comm", "peer",
     "bytes"},
    {"mpi_clock", "", "which", "", Slot::kRaw, Slot::kRaw, Slot::kNone, "local_ns", "root_ns", ""},
    {"counters", "", "first", "count", Slot::kRaw, Slot::kRaw, Slot::kRaw, "value0", "value1",
     "value2"},
}};

// The layout of `kind`; kInvalid's layout for numbers out of range.
const KindLayout& layout(Kind kind);

// Names of enumerated values, for dumps and reports ("?" when unknown).
std::string_view task_status_name(uint8_t status);
std::string_view sync_kind_name(uint16_t kind);
// Every OMPT sync region kind but taskwait, taskgroup and reduction is a barrier of some sort.
inline bool is_barrier(uint16_t sync_kind) {
  return sync_kind >= uint16_t(SyncKind::kBarrier) &&
         sync_kind <= uint16_t(SyncKind::kBarrierTeams) &&
         sync_kind != uint16_t(SyncKind::kTaskwait) &&
         sync_kind != uint16_t(SyncKind::kTaskgroup) &&
         sync_kind != uint16_t(SyncKind::kReduction);
}
// An implicit barrier: at the end of a worksharing construct or of a parallel region (libomp 14
// reports both as barrier_implicit; OpenMP 5.1's runtimes tell them apart).
inline bool is_implicit_barrier(uint16_t sync_kind) {
  return sync_kind == uint16_t(SyncKind::kBarrierImplicit) ||
         sync_kind == uint16_t(SyncKind::kBarrierImplicitWorkshare) ||
         sync_kind == uint16_t(SyncKind::kBarrierImplicitParallel);
}
// An implicit barrier that may end a worksharing construct (not only a parallel region).
inline bool is_workshare_barrier(uint16_t sync_kind) {
  return sync_kind == uint16_t(SyncKind::kBarrierImplicit) ||
         sync_kind == uint16_t(SyncKind::kBarrierImplicitWorkshare);
}
std::string_view work_type_name(uint16_t type);
// A worksharing construct (loop, sections, single, workshare, scope): it ends in a barrier unless
// nowait, and its task cannot begin another inside it. A taskloop is none (a single may hold one,
// and its end is a taskgroup's), nor is a distribute (a league's).
inline bool is_worksharing(uint16_t work_type) {
  return work_type != uint16_t(WorkType::kTaskloop) && work_type != uint16_t(WorkType::kDistribute);
}
std::string_view mutex_kind_name(uint16_t kind);
std::string_view dependence_type_name(uint8_t type);
std::string_view endpoint_name(uint8_t endpoint);
std::string_view thread_type_name(uint16_t type);

}  // namespace tasklens::format
