// PreemptedTime (analysis/preempted_time.h): the preempted part of a thread's intervals.
#include "analysis/preempted_time.h"

#include <gtest/gtest.h>

namespace tasklens::analysis {
namespace {

// Thread 0 preempted 100..200 and 300..400, thread 1 never: the time left out of consecutive
// work intervals of thread 0 is their overlap with those, each interval passed once.
TEST(PreemptedTime, OverlapsOfConsecutiveIntervals) {
  PreemptedTime p;
  p.load({{{100, 200}, {300, 400}}, {}});
  EXPECT_EQ(p.within(0, 0, 50), 0u);
  EXPECT_EQ(p.within(0, 50, 150), 50u);
  EXPECT_EQ(p.within(0, 150, 350), 100u);  // 150..200 and 300..350
  EXPECT_EQ(p.within(0, 350, 1000), 50u);
  EXPECT_EQ(p.within(0, 1000, 2000), 0u);
  EXPECT_EQ(p.within(1, 0, 1000), 0u);
  EXPECT_EQ(p.within(7, 0, 1000), 0u);  // a thread it has no intervals for
  EXPECT_EQ(p.total_ns(), 200u);
}

}  // namespace
}  // namespace tasklens::analysis
