// What the golden tests of the formats share: an experiment exported through the library (no
// symbols: constructs named by address), and a line looked up in a format's lines.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "export/export.h"
#include "format/experiment.h"

namespace tasklens::testing {

inline exports::ExportSummary export_to(const std::string& dir, const exports::ExportFormat& f,
                                        const std::string& out, exports::ExportOptions o = {}) {
  auto x = format::open_experiment(dir);
  EXPECT_TRUE(x.ok());
  o.symbols = false;
  auto s = exports::export_experiment(*x, f, out, o);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return s.ok() ? *s : exports::ExportSummary{};
}

inline bool has_line(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

}  // namespace tasklens::testing
