// "1 thread", "2 threads": every count a person reads (reports, exports, the CLI) names its noun
// through plural(), singular exactly when the count is 1. Header only, no dependencies.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tasklens::format {

// `one` when n is 1, else `many` (default: `one` + "s").
inline std::string noun(uint64_t n, std::string_view one, std::string_view many = {}) {
  if (n == 1) return std::string(one);
  return many.empty() ? std::string(one) + "s" : std::string(many);
}

// "<n> <noun>": `shown` is how n is printed (e.g. with thousands separators), n itself when
// empty.
inline std::string plural(uint64_t n, std::string_view one, std::string_view many = {},
                          std::string_view shown = {}) {
  return (shown.empty() ? std::to_string(n) : std::string(shown)) + " " + noun(n, one, many);
}

}  // namespace tasklens::format
