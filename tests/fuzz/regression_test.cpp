// Every input the fuzzer ever found (tests/fuzz/regressions) and the hand-made seeds
// (tests/fuzz/corpus), run again through every reader: none may crash, hang or throw, and an
// experiment that cannot be opened is refused with a message naming the file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> inputs(const std::string& folder) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(std::string(TASKLENS_FUZZ_DIR) + "/" + folder, ec)) {
    if (e.is_regular_file() && e.path().filename().string()[0] != '.') {
      out.push_back(e.path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The input in `file` unpacked into `*dir` and run through every reader.
fuzz::Outcome run_input(const std::string& file, std::string* dir) {
  std::ifstream in(file, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  *dir = scratch_dir() + "/exp";
  fuzz::unpack(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), *dir);
  return fuzz::exercise(*dir);
}

void run_all(const std::vector<std::string>& files) {
  for (const auto& file : files) {
    SCOPED_TRACE(file);
    std::string dir;
    fuzz::Outcome o = run_input(file, &dir);
    if (!o.error.empty()) {
      EXPECT_EQ(o.error.rfind(dir, 0), 0u) << o.error;  // names the directory or a file in it
      EXPECT_EQ(o.error.find('\n'), std::string::npos) << o.error;
    }
  }
}

TEST(FuzzRegressions, EveryFoundInputIsHandled) {
  std::vector<std::string> files = inputs("regressions");
  ASSERT_FALSE(files.empty());
  run_all(files);
}

TEST(FuzzRegressions, EverySeedIsReadWhole) {
  std::vector<std::string> files = inputs("corpus");
  ASSERT_FALSE(files.empty());
  for (const auto& file : files) {
    SCOPED_TRACE(file);
    std::string dir;
    fuzz::Outcome o = run_input(file, &dir);
    // The seeds are sound recordings: opened, replayed (a profile-mode one: its call tree read),
    // nothing damaged.
    EXPECT_EQ(o.error, "");
    EXPECT_GT(o.events + o.profile_nodes, 0u);
    EXPECT_EQ(o.damage, 0u);
  }
}

}  // namespace
}  // namespace tasklens::testing
