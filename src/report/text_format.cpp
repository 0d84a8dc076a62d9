// Durations, percentages, counts and bars for the text reports.
#include "report/text_format.h"

#include <fmt/format.h>

#include <algorithm>

#include "format/stat.h"

namespace tasklens::report {

std::string mean_duration(double ns) {
  return duration(format::saturated_u64(ns + 0.5));
}

std::string percent(uint64_t part, uint64_t whole) {
  if (whole == 0) return "-";
  return fmt::format("{:.1f}%", 100.0 * double(part) / double(whole));
}

std::string count(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string sparkline(const std::vector<double>& shares) {
  static const char* const kBlocks[] = {" ",      "\u2581", "\u2582", "\u2583", "\u2584",
                                        "\u2585", "\u2586", "\u2587", "\u2588"};
  std::string out;
  for (double s : shares) {
    int level = int(std::clamp(s, 0.0, 1.0) * 8.0 + 0.5);
    out += kBlocks[level];
  }
  return out;
}

}  // namespace tasklens::report
