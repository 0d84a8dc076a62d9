// What `tasklens diff` prints of two runs (report/diff_report.h), from hand-made runs.
#include "report/diff_report.h"

#include <gtest/gtest.h>

namespace tasklens::report {
namespace {

analysis::Stat times(std::initializer_list<uint64_t> samples) {
  analysis::Stat s;
  for (uint64_t v : samples) s.add(v);
  return s;
}

// One construct at two code addresses (a profile-mode run of BOTS nqueens had 15,712 tasks at one
// and 8 at the other, both nqueens.c:350): diff showed the last address's 8 against the other
// run's 15,720.
TEST(DiffReport, ConstructsOfOneLocationAreAddedUp) {
  DiffRun before, after;
  add_construct(before, "nqueens.c:350", 3, times({10, 20, 30}));
  add_construct(after, "nqueens.c:350", 2, times({10, 50}));
  add_construct(after, "nqueens.c:350", 1, times({5}));
  add_construct(after, "nqueens.c:400", 1, times({7}));
  ASSERT_EQ(after.constructs.size(), 2u);
  EXPECT_EQ(after.constructs[0].instances, 3u);
  EXPECT_EQ(after.constructs[0].time.count, 3u);
  EXPECT_EQ(after.constructs[0].time.sum, 65u);
  EXPECT_EQ(after.constructs[0].time.min, 5u);
  EXPECT_EQ(after.constructs[0].time.max, 50u);
  nlohmann::json j = diff_json(before, after);
  ASSERT_EQ(j["constructs"].size(), 2u);
  for (const nlohmann::json& c : j["constructs"]) {
    if (c["location"] != "nqueens.c:350") continue;
    EXPECT_EQ(c["before"]["instances"], 3);
    EXPECT_EQ(c["after"]["instances"], 3);
  }
  EXPECT_TRUE(j["critical_path"]["before_ns"].is_null());  // none given: no graph
}

}  // namespace
}  // namespace tasklens::report
