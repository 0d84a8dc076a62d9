// The HTML report: one self-contained page (web/ assembled by the build into a template) with the
// report's data in a <script type="application/json" id="tasklens-data"> element.
// docs/HTML-REPORT.md states the page's contract.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "format/result.h"

namespace tasklens::html {

// The page with `data` (the `tasklens report --all --json` document plus its `timeline`) filled in.
std::string render_page(const nlohmann::json& data);

// render_page written to `path`.
Result<bool> write_page(const std::string& path, const nlohmann::json& data);

}  // namespace tasklens::html
