// read_config: the recorder's settings from the environment (docs/RECORDER.md), defaults when
// unset, and a bad TASKLENS_BUFFER_MB kept at the default.
#include "recorder/config.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace tasklens::recorder {
namespace {

const char* const kVars[] = {"TASKLENS_OUTPUT", "TASKLENS_OUTPUT_FD", "TASKLENS_BUFFER_MB",
                             "TASKLENS_OVERFLOW", "TASKLENS_CLOCK", "TASKLENS_QUIET",
                             "TASKLENS_TEST_WRITER_GATE"};

class ConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v : kVars) ::unsetenv(v);
  }
  void TearDown() override { SetUp(); }
};

TEST_F(ConfigTest, DefaultsWithNothingSet) {
  Config c;
  read_config(c, "fib");
  EXPECT_EQ(std::string(c.output_dir).rfind("tasklens-fib-", 0), 0u) << c.output_dir;
  EXPECT_EQ(std::strlen(c.output_dir), std::strlen("tasklens-fib-20261125-211500"));
  EXPECT_EQ(c.output_fd, -1);
  EXPECT_EQ(c.buffer_bytes, size_t(64) << 20);
  EXPECT_EQ(c.overflow, OverflowPolicy::kBlock);
  EXPECT_EQ(c.clock, ClockSource::kTsc);
  EXPECT_FALSE(c.quiet);
  EXPECT_EQ(c.writer_gate[0], 0);
}

TEST_F(ConfigTest, EverySettingFromItsVariable) {
  ::setenv("TASKLENS_OUTPUT", "/tmp/exp", 1);
  ::setenv("TASKLENS_OUTPUT_FD", "7", 1);
  ::setenv("TASKLENS_BUFFER_MB", "16", 1);
  ::setenv("TASKLENS_OVERFLOW", "drop", 1);
  ::setenv("TASKLENS_CLOCK", "monotonic", 1);
  ::setenv("TASKLENS_QUIET", "1", 1);
  Config c;
  read_config(c, "fib");
  EXPECT_STREQ(c.output_dir, "/tmp/exp");
  EXPECT_EQ(c.output_fd, 7);
  EXPECT_EQ(c.buffer_bytes, size_t(16) << 20);
  EXPECT_EQ(c.overflow, OverflowPolicy::kDrop);
  EXPECT_EQ(c.clock, ClockSource::kMonotonic);
  EXPECT_TRUE(c.quiet);
}

TEST_F(ConfigTest, BadValuesKeepTheDefaults) {
  ::setenv("TASKLENS_OUTPUT_FD", "7x", 1);
  ::setenv("TASKLENS_BUFFER_MB", "0", 1);
  ::setenv("TASKLENS_OVERFLOW", "sometimes", 1);
  ::setenv("TASKLENS_QUIET", "0", 1);
  Config c;
  ::testing::internal::CaptureStderr();
  read_config(c, "fib");
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(c.output_fd, -1);
  EXPECT_EQ(c.buffer_bytes, size_t(64) << 20);
  EXPECT_NE(err.find("TASKLENS_BUFFER_MB=0"), std::string::npos) << err;
  EXPECT_EQ(c.overflow, OverflowPolicy::kBlock);
  EXPECT_FALSE(c.quiet);
}

TEST(BufferMb, WholeMebibytesFromOneToTheLimit) {
  long mb = 0;
  EXPECT_TRUE(parse_buffer_mb("1", &mb));
  EXPECT_EQ(mb, 1);
  EXPECT_TRUE(parse_buffer_mb("1048576", &mb));
  for (const char* bad : {"", "0", "-1", "+5", " 5", "5 ", "1.5", "1048577", "64MB", "0x10"}) {
    EXPECT_FALSE(parse_buffer_mb(bad, &mb)) << bad;
  }
  EXPECT_FALSE(parse_buffer_mb(nullptr, &mb));
}

}  // namespace
}  // namespace tasklens::recorder
