// How one event reads in `tasklens dump`: a text line, or a JSON object with named fields.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "format/event.h"
#include "symbols/symbolizer.h"

namespace tasklens::cli {

// "T1#42" for ids made by the recorder (thread 1, 42nd id), the plain number otherwise.
std::string id_text(uint64_t id);
// "explicit|untied" from OMPT task flags.
std::string task_flags_text(uint32_t flags);

// One line (no newline) for event `e` of `thread` (time in ns).
std::string event_text(const format::Event& e, uint32_t thread, symbols::Symbolizer& symbols);
// The JSON object of docs/FORMAT.md ("t", "thread", "kind", named fields).
nlohmann::json event_json(const format::Event& e, uint32_t thread, symbols::Symbolizer& symbols);

}  // namespace tasklens::cli
