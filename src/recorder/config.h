// The recorder's settings, read once from the environment at start-up (docs/RECORDER.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "recorder/clock.h"

namespace tasklens::recorder {

// What a thread does when every chunk of the pool is full and the writer has not caught up.
enum class OverflowPolicy : uint8_t {
  kBlock,  // wait for the writer (recorded as a tool_stall), dropping only after a timeout
  kDrop,   // drop events at once and count them (recorded as a `lost` event)
};

struct Config {
  char output_dir[4096] = {};       // TASKLENS_OUTPUT, else tasklens-<app>-<timestamp>
  int output_fd = -1;  // TASKLENS_OUTPUT_FD: the directory, opened and locked by `tasklens run`
  size_t buffer_bytes = 64u << 20;  // TASKLENS_BUFFER_MB
  OverflowPolicy overflow = OverflowPolicy::kBlock;  // TASKLENS_OVERFLOW=block|drop
  ClockSource clock = ClockSource::kTsc;             // TASKLENS_CLOCK=tsc|monotonic
  uint32_t block_timeout_ms = 1000;  // how long kBlock waits before it drops
  bool quiet = false;                // TASKLENS_QUIET=1: no warning lines on stderr
  // TASKLENS_MODE=profile: aggregate in memory, write profile.json, no trace (PROFILE-MODE.md).
  bool profile = false;
  char counters[512] = {};  // TASKLENS_COUNTERS: perf_event counters per task, comma-separated
  // TASKLENS_TEST_WRITER_GATE: a named pipe the writer thread reads to its end before it starts
  // (tests make the writer fall behind with it, without timing).
  char writer_gate[512] = {};
};

// TASKLENS_BUFFER_MB's values: a whole number of MiB in [1, kMaxBufferMb], nothing else.
constexpr long kMaxBufferMb = 1l << 20;
inline bool parse_buffer_mb(const char* text, long* mb) {
  if (!text || *text < '0' || *text > '9') return false;
  char* end = nullptr;
  long v = std::strtol(text, &end, 10);
  if (*end != 0 || v < 1 || v > kMaxBufferMb) return false;
  *mb = v;
  return true;
}

// Fills `config` from the environment; `app_name` names the default output directory. An
// invalid TASKLENS_BUFFER_MB keeps the default and says so on stderr once (`tasklens run`
// refuses it before the program starts).
void read_config(Config& config, const char* app_name);

}  // namespace tasklens::recorder
