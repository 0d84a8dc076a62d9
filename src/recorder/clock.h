// The recorder's clock: the invariant TSC where the CPU has one (one rdtsc per event), else
// CLOCK_MONOTONIC in nanoseconds. The reader turns ticks into nanoseconds with the calibration
// samples (ticks, CLOCK_MONOTONIC) the recorder writes at start, in every chunk, and at the end.
#pragma once

#include <x86intrin.h>
#include <time.h>

#include <cstdint>

namespace tasklens::recorder {

enum class ClockSource : uint8_t { kTsc, kMonotonic };

// True when CPUID says the TSC runs at a constant rate in every power state.
bool tsc_is_invariant();

inline uint64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

// Set once at start-up, before any event is recorded.
extern ClockSource g_clock_source;

inline uint64_t now_ticks() {
  if (__builtin_expect(g_clock_source == ClockSource::kTsc, 1)) return __rdtsc();
  return monotonic_ns();
}

struct ClockSample {
  uint64_t ticks = 0;
  uint64_t ns = 0;
};

// A (ticks, CLOCK_MONOTONIC) pair taken as close together as the two reads allow.
inline ClockSample sample_clock() {
  ClockSample s;
  uint64_t t0 = now_ticks();
  s.ns = monotonic_ns();
  uint64_t t1 = now_ticks();
  s.ticks = t0 + (t1 - t0) / 2;
  return s;
}

}  // namespace tasklens::recorder
