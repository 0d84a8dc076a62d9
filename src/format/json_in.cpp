// parse_json: a nesting limit in front of nlohmann's parser (json_in.h).
#include "format/json_in.h"

#include <algorithm>
#include <iterator>
#include <string>

namespace tasklens::format {

size_t json_depth(std::string_view text, size_t limit) {
  size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

Result<nlohmann::json> parse_json(std::istream& in, size_t limit) {
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (json_depth(text, limit) > limit) {
    return Error{"nested deeper than " + std::to_string(limit) + " levels"};
  }
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Error{"not valid JSON"};
  return j;
}

namespace lenient {
using nlohmann::json;

const json* member(const json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}
const json& object(const json& j, const char* key) {
  static const json empty = json::object();
  const json* v = member(j, key);
  return v && v->is_object() ? *v : empty;
}
const json& array(const json& j, const char* key) {
  static const json empty = json::array();
  const json* v = member(j, key);
  return v && v->is_array() ? *v : empty;
}
void read(const json& j, const char* key, uint64_t* out) {
  const json* v = member(j, key);
  if (v && v->is_number_unsigned()) *out = v->get<uint64_t>();
}
void read(const json& j, const char* key, int64_t* out) {
  const json* v = member(j, key);
  if (!v || !v->is_number_integer()) return;
  // An unsigned value past INT64_MAX is not an int64_t.
  if (v->is_number_unsigned() && v->get<uint64_t>() > uint64_t(INT64_MAX)) return;
  *out = v->get<int64_t>();
}
void read(const json& j, const char* key, std::string* out) {
  const json* v = member(j, key);
  if (v && v->is_string()) *out = v->get<std::string>();
}
void read(const json& j, const char* key, bool* out) {
  const json* v = member(j, key);
  if (v && v->is_boolean()) *out = v->get<bool>();
}
void read(const json& j, const char* key, std::optional<uint64_t>* out) {
  const json* v = member(j, key);
  if (v && v->is_number_unsigned()) *out = v->get<uint64_t>();
}

}  // namespace lenient
}  // namespace tasklens::format
