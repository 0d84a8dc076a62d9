// The text report's numbers: means, percentages, counts and the bars over time (durations are
// format::duration_text's, tested in tests/format/text_test.cpp).
#include "report/text_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace tasklens::report {
namespace {

TEST(TextFormat, MeansAreRoundedAndClamped) {
  EXPECT_EQ(mean_duration(788.6), "789 ns");
  EXPECT_EQ(mean_duration(-5), "0 ns");
  EXPECT_EQ(mean_duration(std::nan("")), "0 ns");
  // A damaged trace's mean beyond 2^64 ns is the largest duration, not undefined behaviour.
  EXPECT_EQ(mean_duration(1e30), duration(UINT64_MAX));
  EXPECT_EQ(mean_duration(std::numeric_limits<double>::infinity()), duration(UINT64_MAX));
}

TEST(TextFormat, PercentOfAWhole) {
  EXPECT_EQ(percent(1, 8), "12.5%");
  EXPECT_EQ(percent(0, 8), "0.0%");
  EXPECT_EQ(percent(3, 0), "-");
}

TEST(TextFormat, CountsWithThousandsSeparators) {
  EXPECT_EQ(count(0), "0");
  EXPECT_EQ(count(999), "999");
  EXPECT_EQ(count(1000), "1,000");
  EXPECT_EQ(count(1234567), "1,234,567");
  EXPECT_EQ(count(UINT64_MAX), "18,446,744,073,709,551,615");
}

TEST(TextFormat, SparklineOneBlockPerShare) {
  EXPECT_EQ(sparkline({}), "");
  EXPECT_EQ(sparkline({0.0, 0.5, 1.0}), " \u2584\u2588");
  // Out of [0, 1]: clamped.
  EXPECT_EQ(sparkline({-1.0, 2.0}), " \u2588");
}

}  // namespace
}  // namespace tasklens::report
