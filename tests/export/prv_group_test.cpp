// PrvEventGrouper: the events of one row at one time handed on together, each row's in its
// order, other records at once, none lost, across the intake's blocks.
#include "export/prv_group.h"

#include <gtest/gtest.h>

#include <vector>

namespace tasklens::exports {
namespace {

PrvRecord event(uint64_t t, uint32_t row, int64_t value) {
  return PrvRecord{t, 0, value, 60000001, row, 0, 2};
}
PrvRecord state(uint64_t t, uint32_t row) {
  return PrvRecord{t, t + 5, 1, 0, row, 0, 1};
}

struct Out {
  std::vector<PrvRecord> got;
  void operator()(const PrvRecord& r) { got.push_back(r); }
};

std::vector<std::pair<uint32_t, int64_t>> rows_values(const std::vector<PrvRecord>& v) {
  std::vector<std::pair<uint32_t, int64_t>> out;
  for (const PrvRecord& r : v) out.emplace_back(r.row, r.value);
  return out;
}

TEST(PrvEventGrouper, RowsOfOneTimeComeTogetherInTheirOrder) {
  // At 10: row 1, row 2, row 1, a late state, row 3, row 2; then 20.
  std::vector<PrvRecord> in = {event(10, 1, 1), event(10, 2, 2), event(10, 1, 3), state(4, 1),
                               event(10, 3, 4), event(10, 2, 5), event(20, 1, 6)};
  PrvEventGrouper g;
  Out out;
  for (const PrvRecord& r : in) g.add(r, out);
  g.flush(out);
  ASSERT_EQ(out.got.size(), in.size());
  EXPECT_EQ(out.got[0].kind, 1);  // the state passes at once
  std::vector<PrvRecord> events(out.got.begin() + 1, out.got.end());
  EXPECT_EQ(rows_values(events), (std::vector<std::pair<uint32_t, int64_t>>{
                                     {1, 1}, {1, 3}, {2, 2}, {2, 5}, {3, 4}, {1, 6}}));
}

TEST(PrvEventGrouper, HeldEventsOutliveTheirBlock) {
  PrvEventGrouper g;
  Out out;
  std::vector<PrvRecord> block = {event(10, 1, 1), event(10, 2, 2)};
  for (const PrvRecord& r : block) g.add(r, out);
  g.keep();
  block.assign(2, event(99, 9, 99));  // the block is reused
  std::vector<PrvRecord> next = {event(10, 1, 3), event(11, 2, 4)};
  for (const PrvRecord& r : next) g.add(r, out);
  g.flush(out);
  EXPECT_EQ(rows_values(out.got),
            (std::vector<std::pair<uint32_t, int64_t>>{{1, 1}, {1, 3}, {2, 2}, {2, 4}}));
}

TEST(PrvEventGrouper, ManyRowsAtOneTimeAreAllHandedOn) {
  // More rows than the look-back and more events than it holds: nothing lost, a row's order kept.
  PrvEventGrouper g;
  Out out;
  std::vector<PrvRecord> in;
  for (int round = 0; round < 3; ++round) {
    for (uint32_t row = 0; row < 50; ++row) in.push_back(event(7, row, round));
  }
  for (const PrvRecord& r : in) g.add(r, out);
  g.flush(out);
  ASSERT_EQ(out.got.size(), in.size());
  std::vector<int64_t> last(50, -1);
  for (const PrvRecord& r : out.got) {
    EXPECT_GT(r.value, last[r.row]) << r.row;
    last[r.row] = r.value;
  }
}

}  // namespace
}  // namespace tasklens::exports
