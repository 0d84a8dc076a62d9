// How tasklens writes times, ids, addresses and strings in text, for every layer above format/
// (reports, exports, dumps): one duration text, one task id text, one address text, and the
// quoting of the output syntaxes (JSON, DOT, XML).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tasklens::format {

// "1.234 s", "12.345 ms", "3.400 us", "120 ns".
std::string duration_text(uint64_t ns);

// A code or data address as tasklens prints it: "0x401a2b" ("0x0" for 0).
std::string address_text(uint64_t address);

// An id as tasklens prints it: "T<thread>#<counter>" for ids made by the recorder (thread 1, its
// 42nd id: "T1#42"), the plain number otherwise, "none" for 0.
std::string id_text(uint64_t id);

// `s` as a JSON string literal, with quotes.
std::string json_quote(std::string_view s);
// `s` as a DOT string literal, with quotes (newlines become spaces; labels that want a line break
// write \n themselves and are not quoted through this).
std::string dot_quote(std::string_view s);
// `s` with &, <, >, " and ' escaped for XML.
std::string xml_escape(std::string_view s);

}  // namespace tasklens::format
