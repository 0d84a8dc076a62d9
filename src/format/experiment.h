// An experiment directory as the tools after the run see it: the metadata, the clock that turns
// ticks into nanoseconds since the start of the run, and the thread stream files.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "format/code_span.h"
#include "format/metadata.h"
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
    // A damaged time (a chunk's first_time near 2^64 ticks) at >= 1 ns per tick went past 2^64
    // ns, where the conversion is undefined (UBSan: float-cast-overflow). 292 years is no run's:
    // such times saturate at 2^63 - 1, which leaves the readers' sums of times and the
    // UINT64_MAX they use as "never" (BreakdownPass's last slice boundary) headroom.
    return uint64_t(INT64_MAX);
  }
  // A duration of `ticks` in ns, saturating as to_ns (profile.json's times).
  uint64_t duration_ns(uint64_t ticks) const {
    double x = double(ticks) * ns_per_tick + 0.5;
    return x < 0x1p63 ? uint64_t(int64_t(x)) : uint64_t(INT64_MAX);
  }
};

// One stream file as open_experiment found it, from one pass over its chunk headers (no event
// decoded): the inventory the commands read instead of opening the streams again.
struct StreamInfo {
  std::string path;
  std::string error;  // why it cannot be opened at all ("" when it can): not ours, a newer version
  uint32_t thread = 0;      // its thread index (from its header, when it opens)
  uint64_t last_ticks = 0;  // the latest event time of its chunks
  // Its latest clock sample (by ns; {0, 0} when none).
  uint64_t calib_ticks = 0, calib_ns = 0;
};

struct OffCpu;

struct Experiment {
  std::string dir;
  // experiment.json as parsed, members of the wrong type dropped: for tests. The tools read
  // `metadata`.
  nlohmann::json meta;
  Metadata metadata;     // experiment.json, typed
  std::string status;    // running (never finished: killed?), complete, crashed, interrupted
  Clock clock;
  std::vector<std::string> streams;  // stream files, by thread index
  std::vector<StreamInfo> inventory;  // the same files, what their headers say
  // The end of the run in ns: the latest event time of any chunk, or the program's exit (the
  // final clock sample) when later.
  uint64_t end_ns = 0;
  std::vector<std::string> strings;  // user-API names; id i is strings[i - 1]
  std::vector<std::string> warnings;  // things a reader of the results should know
  // Damage found on opening (a field of the wrong type or out of range, a missing stream): one
  // line each naming the file, the field and the problem. Commands say each line, read what is
  // sound and exit non-zero.
  std::vector<std::string> damage;
  // The runtime library's code span (runtime.code); empty when not recorded.
  CodeSpan runtime_code;
  // off_cpu.bin as read once by format::off_cpu() (off_cpu.h), shared by every reader of it.
  mutable std::shared_ptr<const OffCpu> off_cpu_cache;

  // The name of user-API string `id` ("?" when unknown).
  const std::string& string(uint64_t id) const;
  // The program's name (basename of its path).
  std::string program_name() const { return metadata.program_name(); }
  // The thread indices of the streams that open, ascending, each once.
  std::vector<uint32_t> thread_ids() const;
  // The error of the first stream that cannot be opened at all, if any. The commands that derive
  // whole artifacts (compare, export) refuse such a run; dump, check and report read the other
  // threads and report the stream as lost.
  const std::string* first_unreadable_stream() const;
};

// Opens `dir`. Errors: no such directory, not a tasklens experiment, corrupt metadata, a format
// version this tasklens cannot read.
Result<Experiment> open_experiment(const std::string& dir);

}  // namespace tasklens::format
