// The HTML report's page: the template the build assembled from web/ (page_template.h), its data
// slot filled with the report's JSON.
#include "html/page.h"

#include <string_view>

#include "export/output.h"
#include "html/page_template.h"

namespace tasklens::html {

namespace {

constexpr std::string_view kDataSlot = "__TASKLENS_DATA__";

// JSON inside a <script> element: no "</script" or "<!--" may appear in it. '<' only occurs in
// strings in JSON, where \u003c is the same character: the parsed values stay equal.
std::string script_safe(const std::string& json) {
  std::string out;
  out.reserve(json.size() + json.size() / 64);
  for (char c : json) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string render_page(const nlohmann::json& data) {
  std::string_view page = page_template();
  size_t slot = page.find(kDataSlot);
  std::string out(page.substr(0, slot));
  if (slot == std::string_view::npos) return out;  // the build checks the slot is there
  out += script_safe(data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  out += page.substr(slot + kDataSlot.size());
  return out;
}

Result<bool> write_page(const std::string& path, const nlohmann::json& data) {
  if (auto made = exports::make_parent_dirs(path); !made) return made.error();
  exports::TextOut out;
  if (auto opened = out.open(path); !opened) return opened.error();
  out.write(render_page(data));
  return out.close();
}

}  // namespace tasklens::html
