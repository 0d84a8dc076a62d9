// format::switched_out: which task a task_schedule switches out, the one rule the task model,
// `check`, the trace's profile and profile mode (on its own task records) share.
#include "format/task_switch.h"

#include <gtest/gtest.h>

namespace tasklens::format {
namespace {

constexpr uint8_t kSwitch = uint8_t(TaskStatus::kSwitch), kYield = uint8_t(TaskStatus::kYield),
                  kComplete = uint8_t(TaskStatus::kComplete);

TEST(TaskSwitch, AnUntiedPartResumedOnTopSwitchesTheCurrentTaskOut) {
  // switch(T, T) while the thread runs R: R goes out, T comes in on top of it.
  EXPECT_EQ(switched_out<uint64_t>(kSwitch, 7, 7, 3), 3u);
  EXPECT_EQ(switched_out<uint64_t>(kYield, 7, 7, 3), 3u);
  // T already current, or no current task: T itself (nothing to switch out but T).
  EXPECT_EQ(switched_out<uint64_t>(kSwitch, 7, 7, 7), 7u);
  EXPECT_EQ(switched_out<uint64_t>(kSwitch, 7, 7, 0), 7u);
  // Any other schedule names what it switches out.
  EXPECT_EQ(switched_out<uint64_t>(kSwitch, 7, 8, 3), 7u);
  EXPECT_EQ(switched_out<uint64_t>(kComplete, 7, 7, 3), 7u);
}

// Profile mode passes its task records: the same answers on pointers (null: none).
TEST(TaskSwitch, TheSameRuleOnTaskRecords) {
  int r = 0, t = 0;
  EXPECT_EQ(switched_out<int*>(kSwitch, &t, &t, &r), &r);
  EXPECT_EQ(switched_out<int*>(kSwitch, &t, &t, &t), &t);
  EXPECT_EQ(switched_out<int*>(kSwitch, &t, &t, nullptr), &t);
  EXPECT_EQ(switched_out<int*>(kSwitch, nullptr, nullptr, &r), nullptr);
  // Through an event, as the replay reads it.
  ev::TaskSchedule s;
  s.status = kSwitch;
  s.prior = s.next = 7;
  EXPECT_EQ(switched_out(s.event(10), 3), 3u);
}

}  // namespace
}  // namespace tasklens::format
