// The perf_event counters `tasklens run --counters LIST` can read per task (docs/PROFILE-MODE.md):
// one table for the recorder, which opens them, and the command line, which refuses a name not
// in it before the program runs and lists them in its help.
#pragma once

#include <linux/perf_event.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tasklens::format {

struct CounterKind {
  const char* name;
  uint32_t perf_type;  // PERF_TYPE_SOFTWARE work in a VM; PERF_TYPE_HARDWARE need a PMU
  uint64_t perf_config;
};

inline constexpr CounterKind kCounterKinds[] = {
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
};

// The counter called `name`; nullptr when there is none.
inline const CounterKind* find_counter(std::string_view name) {
  for (const CounterKind& k : kCounterKinds) {
    if (name == k.name) return &k;
  }
  return nullptr;
}

// The first name of the comma-separated `list` that is no counter (an empty one included);
// nullopt when every name is one. Both command-line parsers of `run --counters` ask this.
inline std::optional<std::string_view> unknown_counter(std::string_view list) {
  while (true) {
    const size_t comma = list.find(',');
    const std::string_view name = list.substr(0, comma);
    if (!find_counter(name)) return name;
    if (comma == std::string_view::npos) return std::nullopt;
    list.remove_prefix(comma + 1);
  }
}

// The names, comma-separated, those of `perf_type` only ("task-clock, page-faults, ...").
inline std::string counter_names(uint32_t perf_type) {
  std::string out;
  for (const CounterKind& k : kCounterKinds) {
    if (k.perf_type != perf_type) continue;
    if (!out.empty()) out += ", ";
    out += k.name;
  }
  return out;
}

}  // namespace tasklens::format
