// The event-kind table of docs/FORMAT.md, made from the format's own layout table (kinds.cpp), so
// that the document names every kind and field exactly as the reader and `tasklens dump` do.
// format_kind_table prints it; format_doc_test checks that docs/FORMAT.md holds it verbatim.
#pragma once

#include <string>

#include "format/event.h"
#include "format/kinds.h"

namespace tasklens::format {

inline const char* slot_name(Slot s) {
  switch (s) {
    case Slot::kNone: return "";
    case Slot::kRaw: return "raw";
    case Slot::kSigned: return "signed";
    case Slot::kTask: return "task id";
    case Slot::kParallel: return "region id";
    case Slot::kAddr: return "address";
    case Slot::kCode: return "code address";
  }
  return "?";
}

inline std::string kind_table() {
  std::string out =
      "| # | kind | op (1 byte) | sub (varint) | flags (varint) | a | b | c |\n"
      "|---|---|---|---|---|---|---|---|\n";
  auto cell = [](std::string_view s) { return s.empty() ? std::string("") : "`" + std::string(s) + "`"; };
  auto wide = [&](std::string_view name, Slot s) {
    return s == Slot::kNone ? std::string("") : cell(name) + " (" + slot_name(s) + ")";
  };
  for (size_t k = 1; k < size_t(Kind::kCount); ++k) {
    const KindLayout& l = layout(Kind(k));
    out += "| " + std::to_string(k) + " | `" + std::string(l.name) + "` | " + cell(l.op) + " | " +
           cell(l.sub) + " | " + cell(l.flags) + " | " + wide(l.a_name, l.a) + " | " +
           wide(l.b_name, l.b) + " | " + wide(l.c_name, l.c) + " |\n";
  }
  return out;
}

}  // namespace tasklens::format
