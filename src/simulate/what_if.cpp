// What-if predictions: the measured costs, then the simulator at each thread count and cut-off.
#include "simulate/what_if.h"

#include <algorithm>

#include "format/stat.h"
#include "replay/replay.h"
#include "simulate/what_if_recordings.h"

namespace tasklens::simulate {
namespace {

// The counts to simulate, ascending, each at most kMaxWorkers; *clamped: the largest count
// asked for (or recorded) beyond it, 0 if none.
std::vector<uint32_t> thread_counts(const WhatIfOptions& options, uint32_t recorded,
                                    uint32_t* clamped) {
  std::vector<uint32_t> counts = options.threads;
  if (counts.empty()) {
    for (uint32_t p = 1; p <= 64; p *= 2) counts.push_back(p);
    counts.push_back(recorded);
  }
  counts.erase(std::remove(counts.begin(), counts.end(), 0u), counts.end());
  *clamped = 0;
  for (uint32_t& p : counts) {
    if (p <= kMaxWorkers) continue;
    *clamped = std::max(*clamped, p);
    p = kMaxWorkers;
  }
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

bool path_has_dependences(const analysis::TaskGraph& g) {
  uint64_t chained_ns = 0;
  for (const analysis::PathRun& run : g.path_runs) {
    if (run.chained) chained_ns += run.ns;
  }
  return 2 * chained_ns >= g.span_ns;
}

Flattening why_flat(const Prediction& p, const analysis::TaskGraph& g, uint64_t serial_ns) {
  if (2 * serial_ns >= p.sim.wall_ns) return Flattening::kSerial;
  if (g.creation_bound.found) return Flattening::kCreation;
  if (4 * p.sim.overhead_ns >= p.sim.work_ns) return Flattening::kOverhead;
  if (2 * p.sim.wall_ns <= 3 * g.span_ns) {
    return path_has_dependences(g) ? Flattening::kDependences : Flattening::kSpan;
  }
  return Flattening::kIdle;
}

}  // namespace

BrentBounds brent_bounds(const TaskDag& dag, const analysis::TaskGraph& graph,
                         const SimResult& one) {
  BrentBounds b;
  // The graph counts the runtime's time inside task creation apart from work (runtime weight,
  // also on its span); the simulated tasks keep it inside their creators' measured work.
  // Both leave out the time threads were preempted (task_dag.h, task_graph.h).
  const uint64_t recorded_work = graph.work_ns + graph.creation_ns;
  // A team of one's dispatch time (task_dag.h) is not simulated work: the bounds leave it out,
  // or the simulation could beat the lower bound (seen under load); the lower bound takes it off
  // the span too (the span's share of it is unknown: at most all of it).
  const uint64_t not_simulated = dag.dispatch_ns;
  b.work_ns = recorded_work - std::min(recorded_work, not_simulated);
  // The simulated work the graph has not: the serial time before the recorder's start.
  b.outside_graph_ns = dag.work_ns > b.work_ns ? dag.work_ns - b.work_ns : 0;
  // The forks on the path are in the span (runtime time) and in outside_graph_ns (the
  // encountering task's work here): counted once.
  const uint64_t path_forks =
      graph.path_runtime_ns - std::min(graph.path_runtime_ns, graph.path_creation_ns);
  const uint64_t span = graph.span_ns - std::min(graph.span_ns, path_forks);
  b.span_high_ns = std::min(span, b.work_ns);
  // The lower bound's work is at most what the simulation itself charges on one thread: it
  // charges each construct's trimmed mean creation and start costs, which under load lie below
  // the recorded means, and a prediction must not beat its own bound.
  const uint64_t one_busy = one.work_ns + one.overhead_ns;
  b.low_work_ns = std::min(b.work_ns, one_busy - std::min(one_busy, b.outside_graph_ns));
  b.span_low_ns = std::min(span - std::min(span, not_simulated), b.low_work_ns);
  return b;
}

uint64_t BrentBounds::lower(uint32_t threads) const {
  return analysis::fastest_schedule_ns(low_work_ns, span_low_ns, threads) + outside_graph_ns;
}

uint64_t BrentBounds::upper(uint32_t threads) const {
  return analysis::greedy_schedule_ns(work_ns, span_high_ns, threads) + outside_graph_ns;
}

WhatIf predict(const TaskDag& dag, const analysis::TaskGraph& graph, const SimCosts& costs,
               const WhatIfOptions& options) {
  WhatIf w;
  w.recorded_threads = dag.recorded_threads;
  w.recorded_run_ns = dag.run_ns;
  w.work_ns = graph.work_ns;
  w.span_ns = graph.span_ns;
  w.schedule_ns = costs.schedule_ns;
  w.fragments = dag.fragments;
  for (const DagTask& t : dag.tasks) w.tasks += t.is_explicit;
  if (!dag.tasks.empty()) {
    const DagTask& root = dag.tasks[0];
    for (uint32_t i = 0; i < root.items; ++i) {
      const DagItem& item = dag.items[root.first_item + i];
      if (item.kind == DagItem::kWork) w.serial_ns += item.value;
    }
  }
  w.preempted_ns = dag.preempted_ns;
  for (size_t c = 0; c < dag.constructs.size(); ++c) {
    w.creation.push_back(
        {dag.constructs[c].codeptr, c < costs.creation_ns.size() ? costs.creation_ns[c] : 0});
  }
  auto run = [&](uint32_t threads, uint32_t construct, uint32_t depth) {
    SimConfig config;
    config.threads = threads;
    config.cutoff_construct = construct;
    config.cutoff_depth = depth;
    return simulate(dag, costs, config);
  };
  const uint32_t recorded = std::clamp<uint32_t>(dag.recorded_threads, 1, kMaxWorkers);
  if (dag.recorded_threads > kMaxWorkers) w.threads_clamped_from = dag.recorded_threads;
  uint32_t clamped = 0;
  for (uint32_t p : thread_counts(options, dag.recorded_threads, &clamped)) {
    Prediction& pr = w.predictions.emplace_back();
    pr.threads = p;
    pr.sim = run(p, kNone, 0);
  }
  w.threads_clamped_from = std::max(w.threads_clamped_from, clamped);
  const SimResult one = !w.predictions.empty() && w.predictions.front().threads == 1
                            ? w.predictions.front().sim
                            : run(1, kNone, 0);
  w.one_thread_ns = one.wall_ns;
  const BrentBounds brent = brent_bounds(dag, graph, one);
  w.outside_graph_ns = brent.outside_graph_ns;
  for (Prediction& pr : w.predictions) {
    pr.brent_lower_ns = brent.lower(pr.threads);
    pr.brent_upper_ns = brent.upper(pr.threads);
  }
  // The curve flattens where doubling (or the next count) gains less than 10 %.
  for (size_t i = 0; i + 1 < w.predictions.size(); ++i) {
    const Prediction& a = w.predictions[i];
    const Prediction& b = w.predictions[i + 1];
    if (10 * b.sim.wall_ns >= 9 * a.sim.wall_ns) {
      w.flattens_at = a.threads;
      w.flattening = why_flat(b, graph, w.serial_ns);
      break;
    }
  }
  // Cut-offs of the recursive constructs at the recorded thread count.
  uint64_t now_ns = 0;
  for (const Prediction& p : w.predictions) {
    if (p.threads == recorded) now_ns = p.sim.wall_ns;
  }
  for (uint32_t c = 0; c < dag.constructs.size(); ++c) {
    const DagConstruct& k = dag.constructs[c];
    if (k.group != c || !k.recursive || k.max_depth < 2) continue;
    if (!now_ns) now_ns = std::max<uint64_t>(run(recorded, kNone, 0).wall_ns, 1);
    CutoffBest best;
    best.codeptr = k.codeptr;
    for (const DagConstruct& other : dag.constructs) {
      if (other.group == c) best.constructs.push_back(other.codeptr);
    }
    best.tasks_now = k.tasks;
    best.wall_now_ns = now_ns;
    best.wall_ns = now_ns;
    best.tasks = k.tasks;
    uint32_t deepest = std::min(k.max_depth - 1, options.max_cutoff_depths);
    if (deepest == 0) {
      w.best_cutoffs.push_back(best);
      continue;
    }
    // Tasks of the recursion that stay tasks at each depth, without simulating: those at or
    // above it and deeper ones with dependences (never inlined). A depth that keeps all of
    // them is the run without cut-off.
    std::vector<uint64_t> at_depth(size_t(deepest) + 2, 0);
    uint64_t deep_with_deps = 0;
    for (const DagTask& t : dag.tasks) {
      if (t.construct == kNone || dag.constructs[t.construct].group != c) continue;
      if (t.depth <= deepest) {
        ++at_depth[t.depth];
      } else if (t.preds || t.succs) {
        ++deep_with_deps;
      }
    }
    std::vector<uint64_t> kept(size_t(deepest) + 1, deep_with_deps);
    for (uint32_t d = 1; d <= deepest; ++d) kept[d] = kept[d - 1] + at_depth[d];
    std::vector<uint64_t> wall(size_t(deepest) + 1, 0);  // 0: not simulated yet
    const size_t first_cut = w.cutoffs.size();
    auto at = [&](uint32_t d) {
      if (!wall[d]) {
        if (kept[d] >= k.tasks) {
          wall[d] = now_ns;  // nothing inlined: the run as recorded
        } else {
          SimResult r = run(recorded, c, d);
          wall[d] = std::max<uint64_t>(r.wall_ns, 1);
          kept[d] = r.kept;
          w.cutoffs.push_back({k.codeptr, d, r.kept, r.wall_ns, best.constructs});
        }
      }
      return wall[d];
    };
    // The predicted time over depth falls while more tasks feed the threads and rises once
    // their costs outweigh it: a golden-section search for its minimum, then every depth of
    // the last bracket (O(log depths) simulations instead of one per depth).
    uint32_t lo = 1, hi = deepest;
    while (!options.every_cutoff_depth && hi - lo > 3) {
      uint32_t m1 = lo + uint32_t(0.382 * (hi - lo) + 0.5);
      uint32_t m2 = lo + uint32_t(0.618 * (hi - lo) + 0.5);
      if (m2 <= m1) m2 = m1 + 1;
      if (at(m1) <= at(m2)) {
        hi = m2;
      } else {
        lo = m1;
      }
    }
    for (uint32_t d = lo; d <= hi && d >= 1; ++d) at(d);
    for (uint32_t d : options.cutoff_depths) {
      if (d >= 1 && d <= deepest) at(d);
    }
    std::sort(
        w.cutoffs.begin() + std::ptrdiff_t(first_cut), w.cutoffs.end(),
        [](const CutoffPrediction& a, const CutoffPrediction& b) { return a.depth < b.depth; });
    for (uint32_t d = 1; d <= deepest; ++d) {
      if (!wall[d] || wall[d] >= best.wall_ns || kept[d] >= k.tasks) continue;
      best.depth = d;
      best.tasks = kept[d];
      best.wall_ns = wall[d];
    }
    w.best_cutoffs.push_back(best);
  }
  return w;
}

const char* estimate_key(Estimate e) {
  switch (e) {
    case Estimate::kTaskStarts:
      return "task_starts";
    case Estimate::kAllTaskStarts:
      return "all_task_starts";
    case Estimate::kOverheadPerTask:
      return "overhead_per_task";
    case Estimate::kCreateCalls:
      return "create_calls";
    case Estimate::kProfileMean:
      return "profile_mean";
  }
  return "";
}

void WhatIfPass::end(const replay::ReplayInfo& info, const replay::TaskModel& m) {
  group_.end(info, m);
  const TaskDag& dag = dag_.result();
  const TaskCosts& measured = task_costs_.result();
  SimCosts costs;
  // The old estimate, kept where no task start was seen (a trace without task_schedule
  // records): the breakdown's overhead (POT: threads in the runtime while a task is ready) less
  // the runtime's time inside task creation (the creators' work holds it), per explicit task.
  // It counts every wait while a task is ready as scheduling: in a 2-thread run of an
  // imbalanced loop, the wait for the tail too.
  uint64_t started = 0;
  for (const DagTask& t : dag.tasks) started += t.is_explicit;
  const analysis::TimeSplit& total = breakdown_.result().total;
  uint64_t tm = total.overhead_ns - std::min(total.overhead_ns, total.creation_ns);
  const bool from_starts = measured.schedule.samples > 0;
  costs.schedule_ns = from_starts ? measured.schedule.ns : started ? tm / started : 0;
  std::vector<WhatIf::Creation> per(dag.constructs.size());
  for (size_t c = 0; c < dag.constructs.size(); ++c) {
    WhatIf::Creation& k = per[c];
    k.codeptr = dag.constructs[c].codeptr;
    const ConstructCosts* own = measured.find(k.codeptr);
    if (own && own->schedule.samples) {
      k.schedule_ns = own->schedule.ns;
      k.schedule_estimate = Estimate::kTaskStarts;
      k.schedule_samples = own->schedule.samples;
    } else {
      k.schedule_ns = costs.schedule_ns;
      k.schedule_estimate = from_starts ? Estimate::kAllTaskStarts : Estimate::kOverheadPerTask;
    }
    costs.schedule_by_construct.push_back(k.schedule_ns);
    if (own && own->creation.samples) {
      k.ns = own->creation.ns;
      k.estimate = Estimate::kCreateCalls;
      k.samples = own->creation.samples;
    } else {
      // The profile's mean creation time (saturated: a damaged trace's can pass 2^64 ns).
      for (const analysis::TaskConstruct& t : profile_.result().tasks) {
        if (t.codeptr != k.codeptr) continue;
        double mean = t.creation.mean();
        k.ns = format::saturated_u64(mean);
      }
    }
    costs.creation_ns.push_back(k.ns);
  }
  costs.taskwait_ns = measured.taskwait.ns;
  result_ = predict(dag, graph_.result(), costs, options_);
  costs_ = costs;
  result_.creation = std::move(per);
  result_.schedule_estimate = from_starts ? Estimate::kTaskStarts : Estimate::kOverheadPerTask;
  result_.schedule_samples = measured.schedule.samples;
  result_.taskwait_ns = measured.taskwait.ns;
  result_.taskwait_samples = measured.taskwait.samples;
  result_.overhead_ns = tm;
  result_.tasks_started = started;
  result_.ran_immediately = measured.ran_immediately;
  result_.ran_immediately_team_of_one = measured.ran_immediately_team_of_one;
  // Further recordings of the program: each replayed and measured as this one.
  std::vector<MeasuredRecording> others;
  // Measured only: combine_recordings simulates them at the counts asked for.
  WhatIfOptions alone;
  alone.threads = {1};
  alone.max_cutoff_depths = 0;
  for (const std::string& dir : options_.also) {
    auto x = format::open_experiment(dir);
    if (!x.ok()) {
      result_.recording_errors.push_back(x.error().message);
      continue;
    }
    WhatIfPass pass(alone);
    auto stats = replay::run_replay(*x, {&pass});
    if (!stats.ok()) {
      result_.recording_errors.push_back(stats.error().message);  // it names the directory
      continue;
    }
    others.push_back({pass.dag(), pass.costs(), pass.graph()});
  }
  if (!others.empty()) {
    combine_recordings(result_, {dag, costs, graph_.result()}, others, options_);
  }
}

}  // namespace tasklens::simulate
