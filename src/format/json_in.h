// Reading the JSON files a run wrote (experiment.json, profile.json, an MPI run's mpi-run.json):
// they may be damaged or hostile, so nesting is limited before nlohmann builds the value, and
// members are read leniently (a member of the wrong type is absent, never an exception). Its
// parser does not recurse, but copying or comparing a parsed value does, once per level: an
// array nested 10^6 deep (2 MB) overflowed the stack of the code that read it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
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

// Members of a parsed file, read leniently: a missing member, a member of another type and a
// parent that is no object all read as absent; `read` then leaves *out as it was. Integers only
// as integers (a float such as 1e300 is absent: its conversion would be undefined).
namespace lenient {
const nlohmann::json* member(const nlohmann::json& j, const char* key);
const nlohmann::json& object(const nlohmann::json& j, const char* key);  // {} when absent
const nlohmann::json& array(const nlohmann::json& j, const char* key);   // [] when absent
void read(const nlohmann::json& j, const char* key, uint64_t* out);      // non-negative integers
void read(const nlohmann::json& j, const char* key, int64_t* out);       // integers in range
void read(const nlohmann::json& j, const char* key, std::string* out);
void read(const nlohmann::json& j, const char* key, bool* out);
void read(const nlohmann::json& j, const char* key, std::optional<uint64_t>* out);
}  // namespace lenient

}  // namespace tasklens::format
