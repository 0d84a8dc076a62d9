// predict() on a hand-made task graph: the cut-off search finds the depth that simulating every
// depth finds, and thread counts beyond kMaxWorkers are simulated with kMaxWorkers.
#include "simulate/what_if.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "simulate/what_if_recordings.h"

namespace tasklens::simulate {
namespace {

// A balanced binary tree of one recursive construct under one parallel region: each inner task
// works 100 ns, creates two children, waits for them; each leaf works `leaf_ns`.
class Tree {
 public:
  Tree(uint32_t levels, uint64_t leaf_ns) : leaf_ns_(leaf_ns) {
    add(kNone, 0);                      // the root
    uint32_t implicit = add(kNone, 0);  // the region's implicit task
    items_[0].push_back({DagItem::kRegion, 0});
    dag_.regions.push_back({{implicit}, false, 1});
    uint32_t top = add(implicit, 1);
    items_[implicit].push_back({DagItem::kCreate, top});
    items_[implicit].push_back({DagItem::kBarrier, 0});
    grow(top, levels);
    dag_.constructs.push_back({0x1000, 0, true, levels + 1, uint32_t(dag_.tasks.size() - 2)});
    for (size_t t = 0; t < dag_.tasks.size(); ++t) {
      dag_.tasks[t].first_item = uint32_t(dag_.items.size());
      dag_.tasks[t].items = uint32_t(items_[t].size());
      for (const DagItem& i : items_[t]) dag_.items.push_back(i);
    }
  }
  TaskDag& dag() { return dag_; }

 private:
  uint32_t add(uint32_t parent, uint32_t depth) {
    auto t = uint32_t(dag_.tasks.size());
    DagTask& task = dag_.tasks.emplace_back();
    task.parent = parent;
    task.depth = depth;
    task.is_explicit = depth > 0;
    task.construct = depth > 0 ? 0 : kNone;
    items_.emplace_back();
    return t;
  }
  void grow(uint32_t t, uint32_t levels) {
    if (levels == 0) {
      items_[t].push_back({DagItem::kWork, leaf_ns_});
      return;
    }
    items_[t].push_back({DagItem::kWork, 100});
    for (int i = 0; i < 2; ++i) {
      uint32_t c = add(t, dag_.tasks[t].depth + 1);
      items_[t].push_back({DagItem::kCreate, c});
      grow(c, levels - 1);
    }
    items_[t].push_back({DagItem::kTaskwait, 0});
  }

  uint64_t leaf_ns_;
  TaskDag dag_;
  std::vector<std::vector<DagItem>> items_;
};

// 2^13 leaves of 500 ns on 4 threads, 400 ns of scheduling per task: shallow cut-offs leave
// threads idle, deep ones pay for thousands of tasks. The search simulates fewer depths and
// finds the same best one.
TEST(WhatIf, TheCutOffSearchFindsTheFastestDepth) {
  Tree tree(13, 500);
  tree.dag().recorded_threads = 4;
  SimCosts costs;
  costs.schedule_ns = 400;
  costs.creation_ns = {50};
  WhatIfOptions every;
  every.threads = {4};
  every.every_cutoff_depth = true;
  WhatIf all = predict(tree.dag(), analysis::TaskGraph{}, costs, every);
  WhatIfOptions search = every;
  search.every_cutoff_depth = false;
  WhatIf found = predict(tree.dag(), analysis::TaskGraph{}, costs, search);
  ASSERT_EQ(all.cutoffs.size(), 13u);  // depths 1..13: the deepest (14) would inline nothing
  ASSERT_EQ(all.best_cutoffs.size(), 1u);
  ASSERT_EQ(found.best_cutoffs.size(), 1u);
  const CutoffBest& a = all.best_cutoffs[0];
  const CutoffBest& b = found.best_cutoffs[0];
  // Neither end is best: the curve has an inner minimum.
  EXPECT_GT(a.depth, 1u);
  EXPECT_LT(a.depth, 13u);
  EXPECT_EQ(b.depth, a.depth);
  EXPECT_EQ(b.wall_ns, a.wall_ns);
  EXPECT_EQ(b.tasks, (1ull << a.depth) - 1);  // one task at depth 1, two at depth 2, ...
  EXPECT_LT(found.cutoffs.size(), 10u);
  for (size_t i = 1; i < found.cutoffs.size(); ++i) {
    EXPECT_LT(found.cutoffs[i - 1].depth, found.cutoffs[i].depth);
  }
}

// A recorded count no machine has (a damaged trace): simulated with kMaxWorkers, and said so.
TEST(WhatIf, ThreadCountsBeyondTheLimitAreClamped) {
  Tree tree(6, 1000);
  tree.dag().recorded_threads = 3000000;
  WhatIfOptions options;
  options.threads = {2, 100000};
  WhatIf w = predict(tree.dag(), analysis::TaskGraph{}, SimCosts{}, options);
  ASSERT_EQ(w.predictions.size(), 2u);
  EXPECT_EQ(w.predictions[1].threads, kMaxWorkers);
  EXPECT_EQ(w.predictions[1].sim.threads, kMaxWorkers);
  EXPECT_EQ(w.threads_clamped_from, 3000000u);
  // 126 tasks on 4096 workers: the span, 6 levels of 100 ns and a leaf.
  EXPECT_EQ(w.predictions[1].sim.wall_ns, 6 * 100 + 1000u);
}

// Three recordings of one tree (2^3 leaves on 1 thread, 100 ns per inner task) whose leaves
// took 1000, 3000 and 2000 ns, scheduling 10, 50, 30 ns per task: one shape, so the prediction
// is the tree with the median leaf (2000) and the median cost (30), and each recording's own
// prediction is the spread. A recording of another shape (2^4 leaves) makes it the median
// prediction instead, and each cut-off the median of the recordings' own.
TEST(WhatIf, SeveralRecordingsPredictFromTheMedianCosts) {
  auto measured = [](uint32_t levels, uint64_t leaf_ns, uint64_t schedule_ns) {
    Tree tree(levels, leaf_ns);
    tree.dag().recorded_threads = 1;
    MeasuredRecording r{tree.dag(), SimCosts{}, analysis::TaskGraph{}};
    // Its graph: the tree's work and span (all of its work, none outside the graph).
    const uint64_t leaves = uint64_t(1) << levels;
    r.graph.work_ns = r.dag.work_ns = (leaves - 1) * 100 + leaves * leaf_ns;
    r.graph.span_ns = levels * 100 + leaf_ns;
    r.costs.schedule_ns = schedule_ns;
    r.costs.schedule_by_construct = {schedule_ns};
    r.costs.creation_ns = {5};
    return r;
  };
  WhatIfOptions options;
  options.threads = {1, 2};
  auto alone = [&](const MeasuredRecording& r) {
    return predict(r.dag, r.graph, r.costs, options);
  };
  const MeasuredRecording a = measured(3, 1000, 10), b = measured(3, 3000, 50),
                          c = measured(3, 2000, 30), d = measured(4, 2000, 30);
  const WhatIf mid = alone(c);
  // 1 thread: 7 inner tasks of 100, 8 leaves of 2000, 15 task starts of 30.
  EXPECT_EQ(mid.predictions[0].sim.wall_ns, 7 * 100 + 8 * 2000 + 15 * 30u);
  WhatIf w = alone(a);
  combine_recordings(w, a, {b, c}, options);
  EXPECT_EQ(w.recordings, 3u);
  EXPECT_EQ(w.combination, Combination::kMedianWork);
  EXPECT_EQ(w.schedule_ns, 30u);
  ASSERT_EQ(w.predictions.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(w.predictions[i].sim.wall_ns, mid.predictions[i].sim.wall_ns) << i;
    const std::vector<uint64_t> own = {alone(a).predictions[i].sim.wall_ns,
                                       alone(b).predictions[i].sim.wall_ns,
                                       mid.predictions[i].sim.wall_ns};
    EXPECT_EQ(w.predictions[i].wall_by_recording_ns, own) << i;
  }
  EXPECT_TRUE(same_shape(a.dag, b.dag));
  EXPECT_FALSE(same_shape(a.dag, d.dag));
  WhatIf v = alone(a);
  combine_recordings(v, a, {b, d}, options);
  EXPECT_EQ(v.combination, Combination::kMedianPrediction);
  for (size_t i = 0; i < 2; ++i) {
    std::vector<uint64_t> own = {alone(a).predictions[i].sim.wall_ns,
                                 alone(b).predictions[i].sim.wall_ns,
                                 alone(d).predictions[i].sim.wall_ns};
    EXPECT_EQ(v.predictions[i].wall_by_recording_ns, own);
    std::sort(own.begin(), own.end());
    EXPECT_EQ(v.predictions[i].sim.wall_ns, own[1]);
    // With that recording's own Brent bounds (b's, whose leaves take 3 times a's), not the
    // first's: a's bounds say nothing of b's prediction.
    const Prediction median = alone(b).predictions[i];
    EXPECT_EQ(v.predictions[i].sim.wall_ns, median.sim.wall_ns);
    EXPECT_EQ(v.predictions[i].brent_lower_ns, median.brent_lower_ns) << i;
    EXPECT_EQ(v.predictions[i].brent_upper_ns, median.brent_upper_ns) << i;
    EXPECT_LT(alone(a).predictions[i].brent_lower_ns, median.brent_lower_ns) << i;  // the old
  }
  // Each cut-off: the median of the three recordings' own times with that cut-off (once the
  // first recording's alone), and the best depth the fastest of those.
  auto cut = [](const MeasuredRecording& r, uint32_t depth) {
    SimConfig config;
    config.threads = 1;
    config.cutoff_construct = 0;
    config.cutoff_depth = depth;
    return simulate(r.dag, r.costs, config).wall_ns;
  };
  ASSERT_FALSE(v.cutoffs.empty());
  ASSERT_EQ(v.best_cutoffs.size(), 1u);
  const CutoffPrediction* fastest = nullptr;
  for (const CutoffPrediction& cp : v.cutoffs) {
    std::vector<uint64_t> own = {cut(a, cp.depth), cut(b, cp.depth), cut(d, cp.depth)};
    std::sort(own.begin(), own.end());
    EXPECT_EQ(cp.wall_ns, own[1]) << "depth " << cp.depth;
    if (!fastest || cp.wall_ns < fastest->wall_ns) fastest = &cp;
  }
  std::vector<uint64_t> now = {alone(a).predictions[0].sim.wall_ns,
                               alone(b).predictions[0].sim.wall_ns,
                               alone(d).predictions[0].sim.wall_ns};
  std::sort(now.begin(), now.end());
  EXPECT_EQ(v.best_cutoffs[0].wall_now_ns, now[1]);
  ASSERT_LT(fastest->wall_ns, now[1]);  // inlining saves the 5 ns creations and the starts
  EXPECT_EQ(v.best_cutoffs[0].depth, fastest->depth);
  EXPECT_EQ(v.best_cutoffs[0].wall_ns, fastest->wall_ns);
}

}  // namespace
}  // namespace tasklens::simulate
