// One construct, one row: a task construct the compiler copied (an unrolled loop, an inlined
// function) reports one code address per copy; with the symbolizer, the replay's task model
// makes the copies one construct (Symbolizer::construct), and every analysis shows one row.
// The symbolizer here answers from a fixed table: 0x2000 and 0x2100 are the same source location
// (loop.c:7:3), 0x2200 another (loop.c:9:5).
#include <gtest/gtest.h>

#include <vector>

#include "analysis/overheads.h"
#include "analysis/profile.h"
#include "analysis/task_graph.h"
#include "analysis/two_thread_team.h"
#include "replay/replay.h"
#include "symbols/symbolizer.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {
namespace {

using testing::Status;
using testing::TraceBuilder;

symbols::Location at(int line, int column) {
  symbols::Location l;
  l.function = "run";
  l.file = "loop.c";
  l.path = "/src/loop.c";
  l.line = line;
  l.column = column;
  l.object = "/bin/loop";
  return l;
}

// Thread 0 creates tasks 10, 11, 12 at the three addresses; it runs 10 and 12 and thread 1 runs
// 11 (100 ns each) in the closing barrier.
std::string three_copies() {
  TraceBuilder t;
  team(t, 5);
  t.create(0, 10, 10, kI0, 0x2000);
  t.create(0, 20, 11, kI0, 0x2100);
  t.create(0, 30, 12, kI0, 0x2200);
  arrive(t, 0, 40);
  t.schedule(0, 40, kI0, Status::kSwitch, 10);
  t.schedule(0, 140, 10, Status::kComplete, kI0);
  t.schedule(1, 50, kI1, Status::kSwitch, 11);
  t.schedule(1, 150, 11, Status::kComplete, kI1);
  t.schedule(0, 145, kI0, Status::kSwitch, 12);
  t.schedule(0, 245, 12, Status::kComplete, kI0);
  team_end(t, 250, 260);
  return t.write();
}

struct Results {
  Profile profile;
  TaskGraph graph;
  Overheads overheads;
};

Results replay_with(const std::string& dir, symbols::Symbolizer* symbols) {
  ProfilePass profile;
  TaskGraphPass graph;
  OverheadsPass overheads;
  auto x = format::open_experiment(dir);
  EXPECT_TRUE(bool(x));
  if (!x) return {};
  EXPECT_TRUE(bool(replay::run_replay(*x, {&profile, &graph, &overheads}, nullptr, symbols)));
  return {profile.result(), graph.result(), overheads.result()};
}

std::vector<uint64_t> task_constructs(const Overheads& o) {
  std::vector<uint64_t> out;
  for (const auto& r : o.regions) {
    for (const auto& c : r.constructs) {
      if (c.kind == Construct::kTask) out.push_back(c.codeptr);
    }
  }
  return out;
}

TEST(Constructs, CopiesOfOneLocationAreOneConstructInEveryAnalysis) {
  std::string dir = three_copies();
  symbols::Symbolizer symbols({{0x2000, at(7, 3)}, {0x2100, at(7, 3)}, {0x2200, at(9, 5)}});
  Results r = replay_with(dir, &symbols);

  ASSERT_EQ(r.profile.tasks.size(), 2u);
  const TaskConstruct& loop = r.profile.tasks[0].codeptr == 0x2000 ? r.profile.tasks[0]
                                                                    : r.profile.tasks[1];
  const TaskConstruct& other = &loop == &r.profile.tasks[0] ? r.profile.tasks[1]
                                                             : r.profile.tasks[0];
  EXPECT_EQ(loop.codeptr, 0x2000u);  // the first address met
  EXPECT_EQ(loop.created, 2u);
  EXPECT_EQ(loop.instances, 2u);
  EXPECT_EQ(loop.time.sum, 200u);
  EXPECT_EQ(other.codeptr, 0x2200u);
  EXPECT_EQ(other.created, 1u);

  ASSERT_EQ(r.graph.grains.size(), 2u);
  for (const auto& g : r.graph.grains) {
    EXPECT_EQ(g.tasks, g.codeptr == 0x2000 ? 2u : 1u) << std::hex << g.codeptr;
    EXPECT_NE(g.codeptr, 0x2100u);
  }
  std::vector<uint64_t> tasks = task_constructs(r.overheads);
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_NE(tasks[0], 0x2100u);
  EXPECT_NE(tasks[1], 0x2100u);

  EXPECT_EQ(symbols.codeptrs(0x2000), (std::vector<uint64_t>{0x2000, 0x2100}));
  EXPECT_EQ(symbols.codeptrs(0x2200), (std::vector<uint64_t>{0x2200}));
  EXPECT_TRUE(symbols.codeptrs(0x2100).empty());  // not a construct of its own
}

// The same trace without the symbolizer: three constructs, as the addresses say.
TEST(Constructs, WithoutTheSymbolizerEveryAddressIsAConstruct) {
  Results r = replay_with(three_copies(), nullptr);
  EXPECT_EQ(r.profile.tasks.size(), 3u);
  EXPECT_EQ(r.graph.grains.size(), 3u);
  EXPECT_EQ(task_constructs(r.overheads).size(), 3u);
}

// Without a line (no debug info) nothing tells the copies apart from other constructs: each
// address stays its own; same line, another column: another construct.
TEST(Constructs, NoLineOrAnotherColumnIsAnotherConstruct) {
  symbols::Location no_line = at(0, 0);
  no_line.file.clear();
  no_line.path.clear();
  symbols::Symbolizer symbols(
      {{0x2000, no_line}, {0x2100, no_line}, {0x2200, at(7, 3)}, {0x2300, at(7, 9)}});
  EXPECT_EQ(symbols.construct(0x2000), 0x2000u);
  EXPECT_EQ(symbols.construct(0x2100), 0x2100u);
  EXPECT_EQ(symbols.construct(0x2200), 0x2200u);
  EXPECT_EQ(symbols.construct(0x2300), 0x2300u);
  EXPECT_EQ(symbols.construct(0x2000), 0x2000u);
  EXPECT_EQ(symbols.construct(0), 0u);
}

// The short names: file:line; else function+offset (no -g); else object+offset (stripped).
TEST(Constructs, ShortNamesWithoutDebugInfoNameTheFunctionAndOffset) {
  symbols::Location no_line = at(0, 0);
  no_line.file.clear();
  no_line.path.clear();
  no_line.has_function_start = true;
  no_line.function_offset = 0x1f;
  symbols::Location stripped;
  stripped.object = "/bin/loop";
  stripped.offset = 0x1234;
  symbols::Symbolizer symbols({{0x2000, at(7, 3)}, {0x2100, no_line}, {0x2200, stripped}});
  EXPECT_EQ(symbols.short_name(0x2000), "loop.c:7");
  EXPECT_EQ(symbols.short_name(0x2100), "run+0x1f");
  EXPECT_EQ(symbols.short_name(0x2200), "loop+0x1234");
  EXPECT_EQ(symbols.short_name(0x2300), "0x2300");
  EXPECT_EQ(symbols.describe(0x2000), "run (loop.c:7)");
  EXPECT_EQ(symbols.describe(0x2100), "run+0x1f");
}

}  // namespace
}  // namespace tasklens::analysis
