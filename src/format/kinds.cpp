#include "format/kinds.h"

#include <array>

namespace tasklens::format {
namespace {

using S = Slot;

// Kept in the order of Kind; a static_assert below checks the count.
constexpr std::array<KindLayout, size_t(Kind::kCount)> kLayouts = {{
    {"invalid", "", "", "", S::kNone, S::kNone, S::kNone, "", "", ""},
    {"thread_begin", "", "thread_type", "", S::kNone, S::kNone, S::kNone, "", "", ""},
    {"thread_end", "", "", "", S::kNone, S::kNone, S::kNone, "", "", ""},
    {"parallel_begin", "", "requested", "flags", S::kParallel, S::kTask, S::kCode, "region",
     "task", "codeptr"},
    {"parallel_end", "", "", "flags", S::kParallel, S::kTask, S::kCode, "region", "task",
     "codeptr"},
    {"implicit_task", "endpoint", "index", "flags", S::kTask, S::kParallel, S::kRaw, "task",
     "region", "team_size"},
    {"task_create", "has_deps", "", "flags", S::kTask, S::kTask, S::kCode, "task", "parent",
     "codeptr"},
    {"task_schedule", "status", "", "", S::kTask, S::kTask, S::kNone, "prior", "next", ""},
    {"dependence", "type", "", "index", S::kTask, S::kAddr, S::kRaw, "task", "address",
     "ndeps"},
    {"task_dependence", "", "", "", S::kTask, S::kTask, S::kNone, "dep_task", "task", ""},
    {"sync_region", "endpoint", "sync_kind", "", S::kParallel, S::kTask, S::kCode, "region",
     "task", "codeptr"},
    {"sync_region_wait", "endpoint", "sync_kind", "", S::kParallel, S::kTask, S::kCode, "region",
     "task", "codeptr"},
    {"reduction", "endpoint", "sync_kind", "", S::kParallel, S::kTask, S::kCode, "region", "task",
     "codeptr"},
    {"work", "endpoint", "work_type", "count", S::kParallel, S::kTask, S::kCode, "region", "task",
     "codeptr"},
    {"dispatch", "dispatch_kind", "", "", S::kParallel, S::kTask, S::kRaw, "region", "task",
     "instance"},
    {"masked", "endpoint", "", "", S::kParallel, S::kTask, S::kCode, "region", "task", "codeptr"},
    {"mutex_acquire", "impl", "mutex_kind", "hint", S::kAddr, S::kNone, S::kCode, "wait_id", "",
     "codeptr"},
    {"mutex_acquired", "", "mutex_kind", "", S::kAddr, S::kNone, S::kCode, "wait_id", "",
     "codeptr"},
    {"mutex_released", "", "mutex_kind", "", S::kAddr, S::kNone, S::kCode, "wait_id", "",
     "codeptr"},
    {"lock_init", "impl", "mutex_kind", "hint", S::kAddr, S::kNone, S::kCode, "wait_id", "",
     "codeptr"},
    {"lock_destroy", "", "mutex_kind", "", S::kAddr, S::kNone, S::kCode, "wait_id", "",
     "codeptr"},
    {"nest_lock", "endpoint", "", "", S::kAddr, S::kNone, S::kCode, "wait_id", "", "codeptr"},
    {"flush", "", "", "", S::kNone, S::kNone, S::kCode, "", "", "codeptr"},
    {"cancel", "", "", "flags", S::kTask, S::kNone, S::kCode, "task", "", "codeptr"},
    {"error", "severity", "", "", S::kNone, S::kNone, S::kCode, "", "", "codeptr"},
    {"user_region", "endpoint", "", "", S::kRaw, S::kNone, S::kNone, "name", "", ""},
    {"user_param", "", "", "", S::kRaw, S::kSigned, S::kNone, "name", "value", ""},
    {"lost", "", "", "count", S::kNone, S::kNone, S::kNone, "", "", ""},
    {"tool_stall", "endpoint", "", "", S::kNone, S::kNone, S::kNone, "", "", ""},
}};

std::string_view pick(std::string_view const* names, size_t n, size_t i) {
  return i < n && !names[i].empty() ? names[i] : std::string_view("?");
}

}  // namespace

const KindLayout& layout(Kind kind) {
  auto i = size_t(kind);
  return i < kLayouts.size() ? kLayouts[i] : kLayouts[0];
}

std::string_view task_status_name(uint8_t status) {
  static constexpr std::string_view k[] = {"",       "complete",      "yield",
                                           "cancel", "detach",        "early_fulfill",
                                           "late_fulfill", "switch",  "taskwait_complete"};
  return pick(k, std::size(k), status);
}

std::string_view sync_kind_name(uint16_t kind) {
  static constexpr std::string_view k[] = {"",
                                           "barrier",
                                           "barrier_implicit",
                                           "barrier_explicit",
                                           "barrier_implementation",
                                           "taskwait",
                                           "taskgroup",
                                           "reduction",
                                           "barrier_implicit_workshare",
                                           "barrier_implicit_parallel",
                                           "barrier_teams"};
  return pick(k, std::size(k), kind);
}

std::string_view work_type_name(uint16_t type) {
  static constexpr std::string_view k[] = {
      "", "loop", "sections", "single_executor", "single_other", "workshare", "distribute",
      "taskloop", "scope"};
  return pick(k, std::size(k), type);
}

std::string_view mutex_kind_name(uint16_t kind) {
  static constexpr std::string_view k[] = {
      "", "lock", "test_lock", "nest_lock", "test_nest_lock", "critical", "atomic", "ordered"};
  return pick(k, std::size(k), kind);
}

std::string_view dependence_type_name(uint8_t type) {
  static constexpr std::string_view k[] = {
      "", "in", "out", "inout", "mutexinoutset", "source", "sink", "inoutset"};
  return pick(k, std::size(k), type);
}

std::string_view endpoint_name(uint8_t endpoint) {
  static constexpr std::string_view k[] = {"", "begin", "end", "beginend"};
  return pick(k, std::size(k), endpoint);
}

std::string_view thread_type_name(uint16_t type) {
  static constexpr std::string_view k[] = {"", "initial", "worker", "other", "unknown"};
  return pick(k, std::size(k), type);
}

}  // namespace tasklens::format
