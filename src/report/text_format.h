// Small formatting helpers shared by every text report: durations, percentages, counts, bars.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "format/text.h"

namespace tasklens::report {

// "1.234 s", "12.345 ms", "45.600 us", "789 ns" (format::duration_text).
inline std::string duration(uint64_t ns) { return format::duration_text(ns); }
// The same for a mean or other computed time, rounded; out-of-range values (NaN, negative, beyond
// 2^64 ns: a damaged trace) are clamped rather than converted with undefined behaviour.
std::string mean_duration(double ns);
// "12.3%" of part in whole ("-" when whole is 0).
std::string percent(uint64_t part, uint64_t whole);
// 1234567 -> "1,234,567".
std::string count(uint64_t n);
// One character per value in [0, 1]: " .:-=+*#%@"-style block characters ▁..█.
std::string sparkline(const std::vector<double>& shares);

}  // namespace tasklens::report
