// The layout table of every event kind: what op, sub, flags and the three slots mean.
#include "format/kinds.h"

#include <array>

namespace tasklens::format {
namespace {


std::string_view pick(std::string_view const* names, size_t n, size_t i) {
  return i < n && !names[i].empty() ? names[i] : std::string_view("?");
}

}  // namespace

const KindLayout& layout(Kind kind) {
  auto i = size_t(kind);
  return i < kKindLayouts.size() ? kKindLayouts[i] : kKindLayouts[0];
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
