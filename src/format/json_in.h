// Reading the JSON files a run wrote (experiment.json, profile.json, an MPI run's mpi_run.json):
// they may be damaged or hostile, so nesting is limited before nlohmann builds the value. Its
// parser does not recurse, but copying or comparing a parsed value does, once per level: an
// array nested 10^6 deep (2 MB) overflowed the stack of the code that read it.
#pragma once

#include <cstddef>
#include <istream>
#include <nlohmann/json.hpp>
#include <string_view>

#include "format/result.h"

namespace tasklens::format {

// Far deeper than tasklens writes (profile.json: 6 levels, experiment.json: 4).
inline constexpr size_t kMaxJsonDepth = 100;

// The deepest nesting of arrays and objects in `text` (strings skipped), counting at most to
// limit + 1.
size_t json_depth(std::string_view text, size_t limit = kMaxJsonDepth);

// The whole of `in` parsed. The error says what is wrong without naming the file (the caller
// does): "not valid JSON" or "nested deeper than N levels" (N: `limit`).
Result<nlohmann::json> parse_json(std::istream& in, size_t limit = kMaxJsonDepth);

}  // namespace tasklens::format
