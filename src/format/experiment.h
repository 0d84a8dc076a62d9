// An experiment directory as the tools after the run see it: the metadata, the clock that turns
// ticks into nanoseconds since the start of the run, and the thread stream files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "format/result.h"

namespace tasklens::format {

// ticks -> ns since the start of the run: ns = (ticks - start_ticks) * ns_per_tick. The run
// starts when the process started (metadata "process.start_ns"); traces without it start when
// the recorder did.
struct Clock {
  std::string source;  // "tsc" or "monotonic"
  uint64_t start_ticks = 0;
  uint64_t start_monotonic_ns = 0;  // the same instant in CLOCK_MONOTONIC (the recorder's clock)
  uint64_t recorder_start_ns = 0;   // when the recorder started, in ns since the start of the run
  uint64_t exit_ns = 0;  // the recorder's final clock sample (the program's exit), 0 if none
  double ns_per_tick = 1.0;
  bool calibrated = true;  // false: no second sample, the rate is a guess (see docs/FORMAT.md)

  // A CLOCK_MONOTONIC time of the run (off_cpu.bin) in ns since its start.
  uint64_t monotonic_to_ns(uint64_t ns) const {
    return ns > start_monotonic_ns ? ns - start_monotonic_ns : 0;
  }
  uint64_t to_ns(uint64_t ticks) const {
    if (ticks <= start_ticks) return 0;
    uint64_t d = ticks - start_ticks;
    // Below 2^63 the signed conversions give the same values as the unsigned ones and are one
    // instruction each (the replay converts every event).
    double x = (d >> 63 ? double(d) : double(int64_t(d))) * ns_per_tick + 0.5;
    if (__builtin_expect(x < 0x1p63, 1)) return uint64_t(int64_t(x));
    return uint64_t(x);
  }
};

struct Experiment {
  std::string dir;
  nlohmann::json meta;   // experiment.json as written by the recorder
  std::string status;    // running (never finished: killed?), complete, crashed, interrupted
  Clock clock;
  std::vector<std::string> streams;  // stream files, by thread index
  std::vector<std::string> strings;  // user-API names; id i is strings[i - 1]
  std::vector<std::string> warnings;  // things a reader of the results should know
  // Damage found on opening (a field of the wrong type or out of range, a missing stream): one
  // line each naming the file, the field and the problem. Commands say each line, read what is
  // sound and exit non-zero.
  std::vector<std::string> damage;
  // The runtime library's code span [begin, end) (runtime.code); {0, 0} when not recorded.
  uint64_t runtime_code_begin = 0, runtime_code_end = 0;

  // The name of user-API string `id` ("?" when unknown).
  const std::string& string(uint64_t id) const;
  // The program's name (basename of its path) and thread count recorded.
  std::string program_name() const;
};

// A code address as the metadata writes it: a hex string ("0x7f12..."); 0 when it is not one.
uint64_t hex_address(const nlohmann::json& v);

// Opens `dir`. Errors: no such directory, not a tasklens experiment, corrupt metadata, a format
// version this tasklens cannot read.
Result<Experiment> open_experiment(const std::string& dir);

}  // namespace tasklens::format
