// Durations, ids and quoting in text.
#include "format/text.h"

#include <fmt/format.h>

#include "format/event.h"

namespace tasklens::format {

std::string duration_text(uint64_t ns) {
  double v = double(ns);
  if (ns >= 1000000000ull) return fmt::format("{:.3f} s", v * 1e-9);
  if (ns >= 1000000ull) return fmt::format("{:.3f} ms", v * 1e-6);
  if (ns >= 1000ull) return fmt::format("{:.3f} us", v * 1e-3);
  return fmt::format("{} ns", ns);
}

std::string address_text(uint64_t address) { return fmt::format("{:#x}", address); }

std::string id_text(uint64_t id) {
  if (id == 0) return "none";
  if ((id >> 48) == 0) return std::to_string(id);
  return fmt::format("T{}#{}", id_thread(id), id_counter(id));
}

std::string json_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", unsigned(static_cast<unsigned char>(c)));
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::string dot_quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

std::string xml_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace tasklens::format
