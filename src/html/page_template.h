// The HTML report's page template: web/page.html with web/'s styles and scripts inlined, made by
// the build (cmake/embed_web.cmake) into page_template.cpp. Its data slot is "__TASKLENS_DATA__".
#pragma once

#include <string_view>

namespace tasklens::html {

std::string_view page_template();

}  // namespace tasklens::html
