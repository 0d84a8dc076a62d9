// combine_recordings: the what-if from several recordings of one program (what_if_recordings.h).
#include "simulate/what_if_recordings.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "simulate/task_costs.h"
#include "simulate/what_if.h"

namespace tasklens::simulate {
namespace {

// The median of the i-th entry over the recordings.
uint64_t median_at(const std::vector<const std::vector<uint64_t>*>& all, size_t i) {
  std::vector<uint64_t> v;
  for (const std::vector<uint64_t>* r : all) {
    if (i < r->size()) v.push_back((*r)[i]);
  }
  return median_of(v);
}

// Recording r simulated at `threads` with the recursion of the construct at `codeptr` cut below
// `depth` (0: no cut-off); the construct found by its address, as graphs number them apart.
// Whether r has that construct.
bool simulate_cut(const MeasuredRecording& r, uint32_t threads, uint64_t codeptr, uint32_t depth,
                  uint64_t* wall_ns) {
  SimConfig config;
  config.threads = threads;
  if (depth) {
    const std::vector<DagConstruct>& ks = r.dag.constructs;
    auto k = std::find_if(ks.begin(), ks.end(),
                          [&](const DagConstruct& c) { return c.codeptr == codeptr; });
    if (k == ks.end()) return false;
    config.cutoff_construct = k->group;
    config.cutoff_depth = depth;
  }
  *wall_ns = simulate(r.dag, r.costs, config).wall_ns;
  return true;
}

// Graphs of other shapes: each cut-off's time the median of the recordings' own (each with its
// own graph and costs), and the best depth of each recursion chosen again from those.
void median_cutoffs(WhatIf& w, const MeasuredRecording& first,
                    const std::vector<MeasuredRecording>& others) {
  const uint32_t threads = std::clamp<uint32_t>(first.dag.recorded_threads, 1, kMaxWorkers);
  auto median_wall = [&](uint64_t first_wall, uint64_t codeptr, uint32_t depth) {
    std::vector<uint64_t> v{first_wall};
    uint64_t wall = 0;
    for (const MeasuredRecording& o : others) {
      if (simulate_cut(o, threads, codeptr, depth, &wall)) v.push_back(wall);
    }
    return median_of(v);
  };
  for (CutoffPrediction& c : w.cutoffs) c.wall_ns = median_wall(c.wall_ns, c.codeptr, c.depth);
  for (CutoffBest& best : w.best_cutoffs) {
    best.wall_now_ns = median_wall(best.wall_now_ns, best.codeptr, 0);
    best.depth = 0;
    best.tasks = best.tasks_now;
    best.wall_ns = best.wall_now_ns;
    for (const CutoffPrediction& c : w.cutoffs) {
      if (c.codeptr != best.codeptr || c.wall_ns >= best.wall_ns || c.tasks >= best.tasks_now) {
        continue;
      }
      best.depth = c.depth;
      best.tasks = c.tasks;
      best.wall_ns = c.wall_ns;
    }
  }
}

}  // namespace

bool same_shape(const TaskDag& a, const TaskDag& b) {
  if (a.tasks.size() != b.tasks.size() || a.items.size() != b.items.size() ||
      a.constructs.size() != b.constructs.size() || a.regions.size() != b.regions.size() ||
      a.successors != b.successors) {
    return false;
  }
  for (size_t t = 0; t < a.tasks.size(); ++t) {
    const DagTask& x = a.tasks[t];
    const DagTask& y = b.tasks[t];
    if (x.first_item != y.first_item || x.items != y.items || x.parent != y.parent ||
        x.construct != y.construct || x.preds != y.preds || x.succs != y.succs ||
        x.undeferred != y.undeferred || x.depth != y.depth) {
      return false;
    }
  }
  for (size_t i = 0; i < a.items.size(); ++i) {
    const DagItem& x = a.items[i];
    const DagItem& y = b.items[i];
    if (x.kind != y.kind || (x.kind != DagItem::kWork && x.value != y.value)) return false;
  }
  for (size_t r = 0; r < a.regions.size(); ++r) {
    if (a.regions[r].members != b.regions[r].members) return false;
  }
  return true;
}

void combine_recordings(WhatIf& w, const MeasuredRecording& first,
                        const std::vector<MeasuredRecording>& others,
                        const WhatIfOptions& options) {
  w.recordings = uint32_t(1 + others.size());
  if (others.empty()) return;
  // Each recording's own prediction at each count, the first's from w.
  std::vector<std::vector<SimResult>> by_count(w.predictions.size());
  for (size_t i = 0; i < w.predictions.size(); ++i) {
    by_count[i].push_back(w.predictions[i].sim);
    for (const MeasuredRecording& o : others) {
      SimConfig config;
      config.threads = w.predictions[i].threads;
      by_count[i].push_back(simulate(o.dag, o.costs, config));
    }
  }
  bool same = true;
  for (const MeasuredRecording& o : others) same = same && same_shape(first.dag, o.dag);
  if (same) {
    // One graph with each work item's median, and each cost's median.
    MeasuredRecording med = first;
    std::vector<uint64_t> v;
    med.dag.work_ns = 0;
    for (size_t k = 0; k < med.dag.items.size(); ++k) {
      DagItem& item = med.dag.items[k];
      if (item.kind != DagItem::kWork) continue;
      v.assign(1, item.value);
      for (const MeasuredRecording& o : others) v.push_back(o.dag.items[k].value);
      item.value = median_of(v);
      med.dag.work_ns += item.value;
    }
    // The DAG's times left out of its work: each the median over the recordings.
    for (uint64_t TaskDag::*field : {&TaskDag::preempted_ns, &TaskDag::dispatch_ns}) {
      v.assign(1, first.dag.*field);
      for (const MeasuredRecording& o : others) v.push_back(o.dag.*field);
      med.dag.*field = median_of(v);
    }
    std::vector<const std::vector<uint64_t>*> schedule{&first.costs.schedule_by_construct};
    std::vector<const std::vector<uint64_t>*> creation{&first.costs.creation_ns};
    v.assign(1, first.costs.taskwait_ns);
    for (const MeasuredRecording& o : others) v.push_back(o.costs.taskwait_ns);
    med.costs.taskwait_ns = median_of(v);
    v.assign(1, first.costs.schedule_ns);
    for (const MeasuredRecording& o : others) {
      schedule.push_back(&o.costs.schedule_by_construct);
      creation.push_back(&o.costs.creation_ns);
      v.push_back(o.costs.schedule_ns);
    }
    med.costs.schedule_ns = median_of(v);
    for (size_t c = 0; c < med.costs.schedule_by_construct.size(); ++c) {
      med.costs.schedule_by_construct[c] = median_at(schedule, c);
    }
    for (size_t c = 0; c < med.costs.creation_ns.size(); ++c) {
      med.costs.creation_ns[c] = median_at(creation, c);
    }
    WhatIf m = predict(med.dag, first.graph, med.costs, options);
    w.predictions = std::move(m.predictions);
    w.cutoffs = std::move(m.cutoffs);
    w.best_cutoffs = std::move(m.best_cutoffs);
    w.one_thread_ns = m.one_thread_ns;
    w.flattens_at = m.flattens_at;
    w.flattening = m.flattening;
    w.outside_graph_ns = m.outside_graph_ns;
    w.preempted_ns = m.preempted_ns;
    w.schedule_ns = med.costs.schedule_ns;
    w.taskwait_ns = med.costs.taskwait_ns;
    for (size_t c = 0; c < w.creation.size(); ++c) {
      if (c < med.costs.schedule_by_construct.size()) {
        w.creation[c].schedule_ns = med.costs.schedule_by_construct[c];
      }
      if (c < med.costs.creation_ns.size()) w.creation[c].ns = med.costs.creation_ns[c];
    }
    w.combination = Combination::kMedianWork;
  } else {
    // Each count: the recording whose own prediction is the median, with its own Brent bounds:
    // the first's bounds need not hold for another recording's prediction (a 2-thread and a
    // 4-thread recording of BOTS alignment showed 97.7 ms predicted against a 121.7 ms "lower
    // bound" that was the first's).
    std::vector<std::optional<BrentBounds>> bounds(others.size());  // made on first use
    for (size_t i = 0; i < w.predictions.size(); ++i) {
      std::vector<size_t> order(by_count[i].size());
      std::iota(order.begin(), order.end(), size_t(0));
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return by_count[i][a].wall_ns < by_count[i][b].wall_ns;
      });
      const size_t k = order[(order.size() - 1) / 2];  // 0: the first recording
      Prediction& pr = w.predictions[i];
      pr.sim = by_count[i][k];
      if (k == 0) continue;  // predict() gave it the first's bounds
      const MeasuredRecording& o = others[k - 1];
      std::optional<BrentBounds>& b = bounds[k - 1];
      if (!b) {
        // Its one-thread simulation: done above when 1 is among the counts.
        const bool have_one = w.predictions.front().threads == 1;
        SimConfig one;
        one.threads = 1;
        b = brent_bounds(o.dag, o.graph, have_one ? by_count[0][k] : simulate(o.dag, o.costs, one));
      }
      pr.brent_lower_ns = b->lower(pr.threads);
      pr.brent_upper_ns = b->upper(pr.threads);
    }
    if (!w.predictions.empty() && w.predictions.front().threads == 1) {
      w.one_thread_ns = w.predictions.front().sim.wall_ns;
    }
    median_cutoffs(w, first, others);
    w.combination = Combination::kMedianPrediction;
  }
  for (size_t i = 0; i < w.predictions.size(); ++i) {
    for (const SimResult& r : by_count[i])
      w.predictions[i].wall_by_recording_ns.push_back(r.wall_ns);
  }
}

}  // namespace tasklens::simulate
