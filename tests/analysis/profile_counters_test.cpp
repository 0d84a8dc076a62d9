// Golden tests of perf_event counters per task in a trace (`tasklens run --counters`): the
// `counters` events (running totals, recorded just before each task_schedule) become per-instance
// deltas and per-construct statistics (src/analysis/profile_counters.cpp). Every expected number
// is derived by hand in the comments.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/profile.h"
#include "analysis/profile_dump.h"
#include "format/event_views.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {
namespace {

using format::Endpoint;
using testing::Status;
using testing::SyncKind;
using testing::TraceBuilder;

// One thread: the initial task 1, parallel 100, implicit task 2; the metadata names `counters`.
void open_one(TraceBuilder& t, std::vector<std::string> counters) {
  t.writer().metadata().counters = std::move(counters);
  t.initial_task(0, 0, 1);
  t.parallel_begin(0, 0, 100, 1, 1, kParallelCode);
  t.implicit_begin(0, 0, 2, 100, 1, 0);
}

void close_one(TraceBuilder& t) {
  t.implicit_end(0, 100, 2);
  t.parallel_end(0, 100, 100, 1, kParallelCode);
  t.implicit_end(0, 110, 1);
}

void sample(TraceBuilder& t, uint32_t th, uint64_t at, uint16_t first, uint32_t count,
            uint64_t v0, uint64_t v1 = 0, uint64_t v2 = 0) {
  t.event(th, format::ev::Counters{{}, first, count, v0, v1, v2}.event(at));
}

// One thread (implicit task 2), counters page-faults (0) and task-clock (1):
//   10 create 5 (A), 11 create 6 (B), 12 barrier
//   14 sample (100, 1000), 2 -> 5
//   64 sample (1100, 1500), 5 completes     5: 1000 faults, 500 ns
//   65 sample (1101, 1510), 2 -> 6          the implicit task: 1, 10 (not a construct)
//   90 sample (1105, 2510), 6 completes     6: 4 faults, 1000 ns
// `with_counters` false: the same trace without the samples.
TraceBuilder two_tasks(bool with_counters) {
  TraceBuilder t;
  open_one(t, {"page-faults", "task-clock"});
  t.create(0, 10, 5, 2, kTaskA);
  t.create(0, 11, 6, 2, kTaskB);
  t.sync(0, 12, SyncKind::kBarrierExplicit, Endpoint::kBegin, 100, 2, kBarrierCode);
  if (with_counters) sample(t, 0, 14, 0, 2, 100, 1000);
  t.schedule(0, 14, 2, Status::kSwitch, 5);
  if (with_counters) sample(t, 0, 64, 0, 2, 1100, 1500);
  t.schedule(0, 64, 5, Status::kComplete, 2);
  if (with_counters) sample(t, 0, 65, 0, 2, 1101, 1510);
  t.schedule(0, 65, 2, Status::kSwitch, 6);
  if (with_counters) sample(t, 0, 90, 0, 2, 1105, 2510);
  t.schedule(0, 90, 6, Status::kComplete, 2);
  t.sync(0, 95, SyncKind::kBarrierExplicit, Endpoint::kEnd, 100, 2, kBarrierCode);
  close_one(t);
  return t;
}

TEST(ProfileCounters, DeltasGoToTheTaskThatRanBetweenTwoSamples) {
  TraceBuilder t = two_tasks(true);
  Profile p = profile_of(t);
  const TaskConstruct& a = construct(p, kTaskA);
  const TaskConstruct& b = construct(p, kTaskB);
  ASSERT_EQ(a.counters.size(), 2u);
  EXPECT_EQ(a.counters[0].first, "page-faults");
  EXPECT_EQ(a.counters[1].first, "task-clock");
  EXPECT_EQ(a.counters[0].second.count, 1u);
  EXPECT_EQ(a.counters[0].second.sum, 1000u);
  EXPECT_EQ(a.counters[1].second.sum, 500u);
  ASSERT_EQ(b.counters.size(), 2u);
  EXPECT_EQ(b.counters[0].second.sum, 4u);
  EXPECT_EQ(b.counters[1].second.sum, 1000u);
}

// The samples are no program events: the trees (creation ends at the creator's next event, the
// barrier's stubs) are the same with and without them.
TEST(ProfileCounters, SamplesDoNotChangeTheProfile) {
  TraceBuilder with = two_tasks(true), without = two_tasks(false);
  EXPECT_EQ(dump(profile_of(with)), dump(profile_of(without)));
}

// An instance's fragments add up: 5 runs 14..30 and 50..64 (a taskwait in between, where 6 runs).
//   14 (0), 2 -> 5; 30 (70), 5 -> 6; 40 (75), 6 completes -> 5; 64 (100), 5 completes
//   5: 70 + 25 = 95 over 2 fragments; 6: 5
TEST(ProfileCounters, FragmentsOfAnInstanceAddUp) {
  TraceBuilder t;
  open_one(t, {"page-faults"});
  t.create(0, 10, 5, 2, kTaskA);
  sample(t, 0, 14, 0, 1, 0);
  t.schedule(0, 14, 2, Status::kSwitch, 5);
  t.create(0, 20, 6, 5, kTaskB);
  t.sync(0, 25, SyncKind::kTaskwait, Endpoint::kBegin, 100, 5, kTaskwaitCode);
  sample(t, 0, 30, 0, 1, 70);
  t.schedule(0, 30, 5, Status::kSwitch, 6);
  sample(t, 0, 40, 0, 1, 75);
  t.schedule(0, 40, 6, Status::kComplete, 5);
  t.sync(0, 50, SyncKind::kTaskwait, Endpoint::kEnd, 100, 5, kTaskwaitCode);
  sample(t, 0, 64, 0, 1, 100);
  t.schedule(0, 64, 5, Status::kComplete, 2);
  close_one(t);
  Profile p = profile_of(t);
  EXPECT_EQ(construct(p, kTaskA).counters.at(0).second.sum, 95u);
  EXPECT_EQ(construct(p, kTaskB).counters.at(0).second.sum, 5u);
}

// Damaged samples (the fuzzer's kind of input): a counter index beyond the metadata's counters
// or beyond kMaxCounters, a count beyond 3, a running total that goes down. None is an index;
// the good values around them still count.
//   14 (0), 2 -> 5
//   20 first 7 (no such counter), first 65535, count 0: ignored, counted as bad
//   30 first 0 count 0xffffffff: read as 3 values, index 0 = 40, indices 1, 2 beyond: bad
//   40 (10): lower than 40: starts over, no delta
//   64 (30), 5 completes: 5 gets 40 + 20 = 60
TEST(ProfileCounters, DamagedSamplesAreBoundedAndIgnored) {
  TraceBuilder t;
  open_one(t, {"page-faults"});
  t.create(0, 10, 5, 2, kTaskA);
  sample(t, 0, 14, 0, 1, 0);
  t.schedule(0, 14, 2, Status::kSwitch, 5);
  sample(t, 0, 20, 7, 1, 1ull << 60);
  sample(t, 0, 21, 65535, 3, 1, 2, 3);
  sample(t, 0, 22, 0, 0, 5);
  sample(t, 0, 30, 0, 0xffffffffu, 40, 1ull << 62, 7);
  sample(t, 0, 40, 0, 1, 10);
  sample(t, 0, 64, 0, 1, 30);
  t.schedule(0, 64, 5, Status::kComplete, 2);
  close_one(t);
  ProfilePass pass;
  testing::replay_experiment(t.write(), {&pass});
  const Profile& p = pass.result();
  EXPECT_EQ(construct(p, kTaskA).counters.at(0).second.sum, 60u);
  EXPECT_EQ(pass.bad_counter_samples(), 4u);
  EXPECT_EQ(p.bad_counter_samples, 4u);  // what the report shows (profile.bad_counter_samples)
}

// A trace with samples but no counter names (metadata damaged or cut): nothing is attributed.
TEST(ProfileCounters, SamplesWithoutNamesAreIgnored) {
  TraceBuilder t = two_tasks(true);
  t.writer().metadata().counters.clear();
  ProfilePass pass;
  testing::replay_experiment(t.write(), {&pass});
  EXPECT_TRUE(construct(pass.result(), kTaskA).counters.empty());
  EXPECT_EQ(pass.bad_counter_samples(), 4u);
}

}  // namespace
}  // namespace tasklens::analysis
