// docs/FORMAT.md must describe the format this code writes: its kind table is the one made from
// kinds.cpp (print it with format_kind_table), and its version is kFormatVersion.
#include <gtest/gtest.h>

#include <string>

#include "format/chunk.h"
#include "support/test_paths.h"
#include "tests/format/kind_table.h"

namespace tasklens::format {
namespace {

std::string format_md() { return testing::read_file(testing::source_dir() + "/docs/FORMAT.md"); }

TEST(FormatDoc, KindTableMatchesKindsCpp) {
  std::string doc = format_md();
  ASSERT_FALSE(doc.empty()) << "docs/FORMAT.md is missing";
  EXPECT_NE(doc.find(kind_table()), std::string::npos)
      << "docs/FORMAT.md's kind table is out of date; replace it with the output of "
         "format_kind_table:\n"
      << kind_table();
}

TEST(FormatDoc, NamesTheCurrentVersion) {
  EXPECT_NE(format_md().find("Current version: " + std::to_string(kFormatVersion) + "."),
            std::string::npos);
}

}  // namespace
}  // namespace tasklens::format
