// tasklens_param_int set twice by one task instance: the instance counts under the first value
// it set, in the profile's parameter split and in the graph's grains alike, and the split counts
// the instances that set it again (docs/USER_API.md).
#include <gtest/gtest.h>

#include "analysis/profile.h"
#include "analysis/task_graph.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {
namespace {

using testing::Status;
using testing::TraceBuilder;

// One thread: task 5 sets depth=1 then depth=7 (10 us), task 6 sets depth=2 once (20 us).
std::string write_trace() {
  TraceBuilder t;
  t.solo_begin();
  t.create(0, 1000, 5, 2, 0x2000);
  t.create(0, 2000, 6, 2, 0x2000);
  t.schedule(0, 4000, 2, Status::kSwitch, 5);
  t.user_param(0, 4000, "depth", 1);
  t.user_param(0, 9000, "depth", 7);
  t.schedule(0, 14000, 5, Status::kComplete, 2);
  t.schedule(0, 15000, 2, Status::kSwitch, 6);
  t.user_param(0, 15000, "depth", 2);
  t.schedule(0, 35000, 6, Status::kComplete, 2);
  t.solo_end(40000, 50000);
  return t.write();
}

TEST(ParamRule, AnInstanceCountsUnderTheFirstValueItSet) {
  ProfilePass profile;
  TaskGraphPass graph;
  ASSERT_TRUE(testing::replay_experiment(write_trace(), {&profile, &graph}));
  ASSERT_EQ(profile.result().tasks.size(), 1u);
  const TaskConstruct& c = profile.result().tasks[0];
  ASSERT_EQ(c.params.size(), 1u);
  const ParamSplit& split = c.params[0];
  EXPECT_EQ(split.name, "depth");
  EXPECT_EQ(split.set_again, 1u);
  ASSERT_EQ(split.values.size(), 2u);  // 1 and 2; never 7
  EXPECT_EQ(split.values[0].value, 1);
  EXPECT_EQ(split.values[0].time.count, 1u);
  EXPECT_EQ(split.values[0].time.sum, 10000u);
  EXPECT_EQ(split.values[1].value, 2);
  EXPECT_EQ(split.values[1].time.sum, 20000u);

  ASSERT_EQ(graph.result().grains.size(), 1u);
  const auto& by_value = graph.result().grains[0].by_value;
  ASSERT_EQ(by_value.size(), 2u);
  EXPECT_EQ(by_value.count(1), 1u);
  EXPECT_EQ(by_value.count(2), 1u);
  EXPECT_EQ(by_value.count(7), 0u);
}

}  // namespace
}  // namespace tasklens::analysis
