// A statistic of a series of samples (durations, counter deltas): count, sum, min, max. One home
// for the recorder's profile mode (recorder/profile_tables.h) and the analyses (analysis/
// profile.h), which merge them the same way. Header only: the recorder links nothing for it.
#pragma once

#include <cstdint>

namespace tasklens::format {

// A non-negative double (a mean, a scaled time) as uint64_t: 0 for negative or NaN, UINT64_MAX
// from 2^64 on, where the plain conversion is undefined (a damaged trace's mean can lie there;
// UBSan: float-cast-overflow, found by the fuzzer).
inline uint64_t saturated_u64(double x) {
  if (!(x > 0)) return 0;
  if (x >= 0x1p64) return UINT64_MAX;
  return uint64_t(x);
}

struct Stat {
  uint64_t count = 0;
  uint64_t sum = 0;
  uint64_t min = 0;
  uint64_t max = 0;
  void add(uint64_t v) {
    min = count == 0 || v < min ? v : min;
    max = v > max ? v : max;
    sum += v;
    ++count;
  }
  // Becomes the statistic of both series of samples.
  void merge(const Stat& s) {
    if (s.count == 0) return;
    min = count == 0 || s.min < min ? s.min : min;
    max = s.max > max ? s.max : max;
    sum += s.sum;
    count += s.count;
  }
  double mean() const { return count ? double(sum) / double(count) : 0.0; }
};

}  // namespace tasklens::format
