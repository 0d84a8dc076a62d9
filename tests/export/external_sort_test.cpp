// The external sort behind the Paraver export: mostly ordered input with late records, spilled to
// files and merged back in time order.
#include "export/external_sort.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <tuple>

#include "export/prv_record.h"
#include "support/trace_builder.h"

namespace tasklens::exports {
namespace {

struct Rec {
  uint64_t time;
  uint64_t seq;  // arrival order
  bool late;
};

std::vector<Rec> drain(ExternalSorter<Rec>& s) {
  std::vector<Rec> out;
  Rec r;
  while (s.next(r)) out.push_back(r);
  return out;
}

TEST(ExternalSorter, MergesInOrderAndLateRecordsAcrossFiles) {
  std::string dir = testing::scratch_dir();
  std::mt19937_64 rng(7);
  std::vector<Rec> in;
  uint64_t now = 0;
  for (uint64_t i = 0; i < 20000; ++i) {
    now += rng() % 3;  // many equal times
    bool late = rng() % 3 == 0 && now > 100;
    uint64_t t = late ? now - 1 - rng() % 100 : now;
    in.push_back(Rec{t, i, late});
  }
  {
    ExternalSorter<Rec> s(dir, 500);  // in-order stream and late runs both spill
    for (const Rec& r : in) s.add(r);
    EXPECT_EQ(s.count(), in.size());
    ASSERT_TRUE(s.seal().ok());
    EXPECT_GT(s.files(), 2u);
    std::vector<Rec> out = drain(s);
    ASSERT_EQ(out.size(), in.size());
    for (size_t i = 1; i < out.size(); ++i) {
      ASSERT_LE(out[i - 1].time, out[i].time) << i;
      // In-order records keep their arrival order, and come before late ones of the same time.
      if (out[i - 1].time == out[i].time && !out[i].late) {
        EXPECT_FALSE(out[i - 1].late) << i;
        EXPECT_LT(out[i - 1].seq, out[i].seq) << i;
      }
    }
    std::vector<uint64_t> seqs;
    for (const Rec& r : out) seqs.push_back(r.seq);
    std::sort(seqs.begin(), seqs.end());
    for (size_t i = 0; i < seqs.size(); ++i) ASSERT_EQ(seqs[i], i);  // nothing lost, nothing twice
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir));  // its files are gone with it
}

// Records taken by the block (the Paraver merge) come in the order of records taken one by one,
// blocks ending anywhere: inside a run's stretch, at a change of run, at the end.
TEST(ExternalSorter, BlocksGiveTheOrderOfOneByOne) {
  std::mt19937_64 rng(5);
  ExternalSorter<Rec> one(testing::scratch_dir(), 300), blocks(testing::scratch_dir(), 300);
  uint64_t now = 1000;
  for (uint64_t i = 0; i < 20000; ++i) {
    now += rng() % 3;
    Rec r{rng() % 4 == 0 ? now - rng() % 500 : now, i, false};
    one.add(r);
    blocks.add(r);
  }
  ASSERT_TRUE(one.seal().ok());
  ASSERT_TRUE(blocks.seal().ok());
  std::vector<Rec> expected = drain(one), got;
  Rec block[97];
  for (size_t n = 1;; n = n % 97 + 1) {
    size_t k = blocks.next(block, n);
    if (k == 0) break;
    ASSERT_LE(k, n);
    got.insert(got.end(), block, block + k);
  }
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i].seq, expected[i].seq) << i;
}

TEST(ExternalSorter, ManyLateRunsAreMergedToBoundOpenFiles) {
  std::string dir = testing::scratch_dir();
  ExternalSorter<Rec> s(dir, 16);
  std::mt19937_64 rng(3);
  const uint64_t n = 16 * 100;  // 100 late runs
  s.add(Rec{1000000, 0, false});
  for (uint64_t i = 0; i < n; ++i) s.add(Rec{rng() % 100000, i + 1, true});
  EXPECT_LE(s.files(), 33u);
  ASSERT_TRUE(s.seal().ok());
  std::vector<Rec> out = drain(s);
  ASSERT_EQ(out.size(), n + 1);
  for (size_t i = 1; i < out.size(); ++i) ASSERT_LE(out[i - 1].time, out[i].time) << i;
}

TEST(ExternalSorter, SmallInputStaysInMemory) {
  std::string dir = testing::scratch_dir();
  ExternalSorter<Rec> s(dir, 1000);
  for (uint64_t t : {5, 7, 3, 7, 9, 1}) s.add(Rec{t, 0, false});
  ASSERT_TRUE(s.seal().ok());
  EXPECT_EQ(s.files(), 0u);
  std::vector<uint64_t> times;
  for (const Rec& r : drain(s)) times.push_back(r.time);
  EXPECT_EQ(times, (std::vector<uint64_t>{1, 3, 5, 7, 7, 9}));
}

// Late records extend the first pile whose last record is no later (patience sorting), else go
// to sorted runs: records of equal time keep their order of arrival, the in-order stream's
// first, then the piles' in order; a sorted run's come last.
TEST(ExternalSorter, LateRecordsOfEqualTimeKeepTheirOrderOfArrival) {
  ExternalSorter<Rec> s(testing::scratch_dir(), 1000);
  uint64_t seq = 0;
  // In order: 10, 20. Pile 1: 5 and five 7s. Pile 2: 6. Pile 3: 5. A sorted run: 4, 4.
  for (uint64_t t : {10, 5, 7, 6, 20, 7, 7, 5, 4, 7, 7, 4}) s.add(Rec{t, seq++, false});
  ASSERT_TRUE(s.seal().ok());
  std::vector<uint64_t> order;
  for (const Rec& r : drain(s)) order.push_back(r.seq);
  EXPECT_EQ(order, (std::vector<uint64_t>{8, 11, 1, 7, 3, 2, 5, 6, 9, 10, 0, 4}));
}

// Late records are sorted in chunks as they come and the chunks merged at the end (or at a
// spill): the result is one stable sort, whatever the chunks' boundaries (sizes that are not a
// multiple of the chunk, spilled runs or not).
TEST(ExternalSorter, ManyLateRecordsComeOutAsOneStableSort) {
  for (size_t run_size : {size_t(1) << 20, size_t(20000)}) {
    ExternalSorter<Rec> s(testing::scratch_dir(), run_size);
    constexpr uint64_t kHigh = uint64_t(1) << 40;
    uint64_t seq = 0;
    // The in-order stream and the three piles end high: every later record below is late.
    for (uint64_t t : {kHigh, kHigh - 1, kHigh - 2, kHigh - 3}) s.add(Rec{t, seq++, false});
    std::mt19937_64 rng(5);
    std::vector<Rec> late;
    for (int i = 0; i < 70001; ++i) late.push_back(Rec{rng() % 1000, seq++, true});  // ties
    for (const Rec& r : late) s.add(r);
    ASSERT_TRUE(s.seal().ok());
    std::vector<Rec> expected = late;
    std::stable_sort(expected.begin(), expected.end(),
                     [](const Rec& a, const Rec& b) { return a.time < b.time; });
    std::vector<Rec> out = drain(s);
    ASSERT_EQ(out.size(), late.size() + 4);
    for (size_t i = 0; i < late.size(); ++i) {
      ASSERT_EQ(out[i].seq, expected[i].seq) << "run size " << run_size << ", record " << i;
    }
    EXPECT_EQ(out.back().time, kHigh);
  }
}

TEST(ExternalSorter, EmptyInput) {
  ExternalSorter<Rec> s(testing::scratch_dir(), 16);
  ASSERT_TRUE(s.seal().ok());
  Rec r;
  EXPECT_FALSE(s.next(r));
}

// The Paraver records' compact form (time deltas and varints) gives back every field, in the
// same order as the records stored whole, through files and the merge of many late runs.
TEST(ExternalSorter, PrvCodecKeepsEveryFieldAndTheOrder) {
  std::string dir = testing::scratch_dir();
  std::mt19937_64 rng(11);
  std::vector<PrvRecord> in;
  uint64_t now = uint64_t(1) << 40;
  for (uint32_t i = 0; i < 30000; ++i) {
    now += rng() % 4;
    uint8_t kind = uint8_t(1 + rng() % 3);
    uint64_t t = rng() % 4 == 0 ? now - rng() % 5000 : now;
    int64_t value = rng() % 5 == 0 ? -int64_t(rng() >> 1) : int64_t(rng() % 1000);
    PrvRecord r{t, 0, value, 0, uint32_t(rng() % 7) | (rng() % 2 ? 0x80000000u : 0), 0, kind};
    // tasklens' types (6000000x) and Extrae's MPI ones (5000000x), below the codec's base.
    if (kind == 2) r.type = uint32_t((rng() % 4 ? 60000000 : 50000000) + rng() % 9);
    // Durations of one varint byte too (the decoder reads those records as one word).
    uint64_t span = rng() % 2 ? 60 : 100000;
    if (kind != 2) r.time2 = kind == 3 && rng() % 9 == 0 ? t - rng() % 100 : t + rng() % span;
    if (kind == 3) r.row2 = uint32_t(rng() % 5);
    r.type = kind == 2 ? r.type : 0;
    in.push_back(r);
  }
  ExternalSorter<PrvRecord> whole(testing::scratch_dir(), 64);
  ExternalSorter<PrvRecord, PrvCodec> compact(dir, 64);  // 100s of late runs, merged on disk
  for (const PrvRecord& r : in) {
    whole.add(r);
    compact.add(r);
  }
  ASSERT_TRUE(whole.seal().ok());
  ASSERT_TRUE(compact.seal().ok());
  EXPECT_GT(compact.files(), 2u);
  PrvRecord a{}, b{};
  size_t n = 0;
  while (whole.next(a)) {
    ASSERT_TRUE(compact.next(b)) << n;
    ASSERT_EQ(std::tie(a.time, a.time2, a.value, a.type, a.row, a.row2, a.kind),
              std::tie(b.time, b.time2, b.value, b.type, b.row, b.row2, b.kind))
        << n;
    ++n;
  }
  EXPECT_FALSE(compact.next(b));
  EXPECT_EQ(n, in.size());
}

TEST(ExternalSorter, UnwritableDirectoryIsAnError) {
  ExternalSorter<Rec> s("/nonexistent/dir", 16);
  for (uint64_t i = 0; i < 100; ++i) s.add(Rec{100 - i, i, true});
  auto sealed = s.seal();
  ASSERT_FALSE(sealed.ok());
  EXPECT_NE(sealed.error().message.find("/nonexistent/dir/run-"), std::string::npos)
      << sealed.error().message;
}

}  // namespace
}  // namespace tasklens::exports
