// How one event reads in `tasklens dump`: a text line, or a JSON object with named fields.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "format/event.h"
#include "format/text.h"
#include "replay/symbolizer.h"

namespace tasklens::cli {

using format::id_text;  // "T1#42" (format/text.h)
// "explicit|untied" from OMPT task flags.
std::string task_flags_text(uint32_t flags);

// One line (no newline) for event `e` of `thread` (time in ns).
std::string event_text(const format::Event& e, uint32_t thread, replay::Symbolizer& symbols);
// The JSON object of docs/FORMAT.md ("t", "thread", "kind", named fields).
nlohmann::json event_json(const format::Event& e, uint32_t thread, replay::Symbolizer& symbols);

}  // namespace tasklens::cli
