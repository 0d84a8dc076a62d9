// TaskGraphPass: work and span of the run's DAG of strands, measured online.
#include "analysis/task_graph.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "format/kinds.h"

namespace tasklens::analysis {

using format::Endpoint;
using format::Kind;
using format::SyncKind;
using format::is_barrier;

double TaskGrain::tasks_below(uint64_t ns) const {
  double below = 0;
  for (size_t w = 0; w < by_log2.size(); ++w) {
    // Bucket w holds [2^(w-1), 2^w) (w = 0: exactly 0 ns).
    double lo = w == 0 ? 0 : std::ldexp(1.0, int(w) - 1), hi = w == 0 ? 1 : std::ldexp(1.0, int(w));
    if (double(ns) >= hi) {
      below += double(by_log2[w]);
    } else if (double(ns) > lo) {
      below += double(by_log2[w]) * (double(ns) - lo) / (hi - lo);
    }
  }
  return below;
}

GrainAdvice advise_grain(const TaskGrain& g, uint64_t threshold_ns) {
  GrainAdvice a;
  if (g.tasks == 0) return a;
  a.below = g.tasks_below(threshold_ns) / double(g.tasks);
  if (g.by_value.size() < 2) return a;
  // Small: the values' mean subtree work is below the threshold. A cut-off needs the small
  // values all on one side of the large ones.
  std::vector<bool> small;
  for (const auto& [value, v] : g.by_value) small.push_back(v.subtree_ns < threshold_ns * v.tasks);
  auto split = [&](bool first_small) {
    size_t i = 0;
    while (i < small.size() && small[i] == first_small) ++i;
    size_t boundary = i;
    while (i < small.size() && small[i] != first_small) ++i;
    return i == small.size() && boundary > 0 && boundary < small.size() ? boundary : 0;
  };
  size_t boundary = split(true);
  a.inline_below = boundary != 0;
  if (!boundary) boundary = split(false);
  if (!boundary) return a;
  a.cut_off = true;
  size_t i = 0;
  for (const auto& [value, v] : g.by_value) {
    bool inlined = (i < boundary) == a.inline_below;
    (inlined ? a.tasks_inlined : a.tasks_kept) += v.tasks;
    if (a.inline_below ? i + 1 == boundary : i == boundary) a.value = value;
    ++i;
  }
  return a;
}

void TaskGraphPass::begin(const replay::ReplayInfo& info) {
  result_ = TaskGraph{};
  running_.assign(info.threads, Running{});
  nodes_ = replay::StableIdMap<Node>();
  regions_ = replay::IdMap<Region>();
  ended_with_deps_ = replay::IdMap<Longest>();
  grain_index_ = replay::IdMap<uint32_t>();
  paths_ = PathArena();
  best_ = Longest{};
}

uint32_t TaskGraphPass::grain_of(uint64_t codeptr) {
  uint32_t& index = grain_index_[codeptr ? codeptr : 1];
  if (!index) {
    result_.grains.emplace_back().codeptr = codeptr;
    index = uint32_t(result_.grains.size());
  }
  return index;
}

void TaskGraphPass::flush(uint32_t thread, uint64_t t) {
  Running& r = running_[thread];
  if (r.task && t > r.since) {
    if (Node* n = nodes_.find(r.task)) {
      n->span += t - r.since;
      n->pending += t - r.since;
      n->subtree += t - r.since;
    }
    result_.work_ns += t - r.since;
  }
  r.since = t;
}

TaskGraphPass::Longest TaskGraphPass::longest(Node& n) {
  if (n.pending) {
    n.path = paths_.extend(n.path, n.id, n.grain, n.pending);
    n.pending = 0;
  }
  return {n.span, n.path};
}

TaskGraphPass::Longest TaskGraphPass::longest(uint64_t id) {
  Node* n = nodes_.find(id);
  return n ? longest(*n) : Longest{};
}

void TaskGraphPass::raise(Node& n, const Longest& l) {
  if (n.span >= l.ns) return;
  // A longer path reaches this point: the task's own time since its path's end is not on it.
  n.span = l.ns;
  paths_.assign(&n.path, l.path);
  n.pending = 0;
}

void TaskGraphPass::raise(uint64_t id, const Longest& l) {
  if (Node* n = nodes_.find(id)) raise(*n, l);
}

void TaskGraphPass::take(Longest& dst, const Longest& l) {
  if (l.ns <= dst.ns) return;
  dst.ns = l.ns;
  paths_.assign(&dst.path, l.path);
}

void TaskGraphPass::drop(Longest& l) {
  paths_.release(l.path);
  l = Longest{};
}

void TaskGraphPass::release_paths(Node& n) {
  paths_.release(n.path);
  n.path = 0;
  drop(n.children_end);
  drop(n.descendants_end);
}

TaskGraphPass::Node& TaskGraphPass::fresh_node(uint64_t id) {
  Node& n = nodes_[id];
  release_paths(n);  // a reused id
  n.clear();
  n.id = id;
  return n;
}

void TaskGraphPass::after(const replay::Record& r, const replay::TaskModel& m) {
  const format::Event& e = r.ev;
  const uint32_t p = r.thread;
  if (p >= running_.size()) return;
  // The strand that ran up to this event belongs to the task that ran before it.
  flush(p, e.time);
  const replay::ThreadInfo& th = m.thread(p);
  switch (e.kind) {
    case Kind::kParallelBegin:
      take(regions_[e.a].fork, longest(th.current));
      break;
    case Kind::kParallelEnd:
      // The encountering task (current again) continues after the whole region.
      if (Region* region = regions_.find(e.a)) {
        raise(th.current, region->max_end);
        drop(region->fork);
        drop(region->max_end);
        regions_.erase(e.a);
      }
      break;
    case Kind::kImplicitTask:
      if (e.op == uint8_t(Endpoint::kBegin)) {
        Node& n = fresh_node(e.a);
        n.region = e.b;
        // A region whose parallel_begin is not in the trace starts at 0.
        if (e.b) raise(n, regions_[e.b].fork);
      }
      break;
    case Kind::kTaskCreate: {
      Longest creator = longest(th.current);  // it may start once its creator got this far
      Node& n = fresh_node(e.a);
      n.parent = e.b;
      const replay::TaskInfo* info = m.task(e.a);
      n.region = info ? info->region : th.region;
      n.has_deps = e.op != 0;
      raise(n, creator);
      if (const Node* parent = nodes_.find(e.b)) {
        n.group_owner = parent->open_groups ? parent->id : parent->group_owner;
      }
      if (e.flags & format::task_flag::kExplicit) {
        ++result_.tasks;
        n.grain = grain_of(m.task_code(e.a));
      }
      break;
    }
    case Kind::kUserParam:
      // The first parameter a task sets describes it (e.g. fib's n).
      if (Node* n = nodes_.find(th.current); n && !n->has_param) {
        n->has_param = true;
        n->param = e.a;
        n->param_value = int64_t(e.b);
      }
      break;
    case Kind::kSyncRegion: {
      uint64_t id = e.b ? e.b : th.current;
      Node* n = nodes_.find(id);
      if (!n) break;
      if (e.op == uint8_t(Endpoint::kBegin)) {
        if (is_barrier(e.sub)) {
          if (Region* region = regions_.find(n->region)) take(region->max_end, longest(*n));
        } else if (e.sub == uint16_t(SyncKind::kTaskgroup)) {
          ++n->open_groups;
        }
      } else if (e.op == uint8_t(Endpoint::kEnd)) {
        if (e.sub == uint16_t(SyncKind::kTaskwait)) {
          raise(*n, n->children_end);
        } else if (e.sub == uint16_t(SyncKind::kTaskgroup)) {
          raise(*n, n->descendants_end);
          if (n->open_groups && --n->open_groups == 0) drop(n->descendants_end);
        } else if (is_barrier(e.sub)) {
          if (const Region* region = regions_.find(n->region)) raise(*n, region->max_end);
        }
      }
      break;
    }
    default:
      break;
  }
  for (const replay::Edge& edge : m.new_edges()) {
    ++result_.dependence_edges;
    Node* pred = nodes_.find(edge.pred);
    if (pred && !pred->completed) {
      pred->successors.push_back(edge.succ);
    } else if (const Longest* end = ended_with_deps_.find(edge.pred)) {
      raise(edge.succ, *end);
    }
  }
  for (const replay::Transition& tr : m.transitions()) {
    if (tr.to == replay::TaskState::kCompleted) on_complete(tr.task);
  }
  running_[p].task = th.exists && m.working(p) ? th.current : 0;
}

void TaskGraphPass::on_complete(uint64_t id) {
  Node* n = nodes_.find(id);
  if (!n || n->completed) return;
  n->completed = true;
  const Longest end = longest(*n);
  take(best_, end);
  for (uint64_t s : n->successors) raise(s, end);
  n->successors.clear();
  if (n->has_deps) {
    Longest& kept = ended_with_deps_[id];
    take(kept, end);
  }
  if (Region* region = regions_.find(n->region)) take(region->max_end, end);
  if (n->grain) count_grain(*n);
  // The taskgroups it belongs to wait for it: its owner's, and the enclosing owners'.
  for (Node* owner = nodes_.find(n->group_owner); owner; owner = nodes_.find(owner->group_owner)) {
    take(owner->descendants_end, end);
  }
  if (Node* parent = nodes_.find(n->parent)) {
    parent->subtree += n->subtree;
    take(parent->children_end, end);
  }
  forget(*n);
}

void TaskGraphPass::count_grain(const Node& n) {
  TaskGrain& g = result_.grains[n.grain - 1];
  ++g.tasks;
  g.subtree_ns += n.subtree;
  ++g.by_log2[n.subtree ? 64 - __builtin_clzll(n.subtree) : 0];
  if (!n.has_param) return;
  if (!g.param) g.param = n.param;
  if (n.param != g.param) return;
  auto it = g.by_value.find(n.param_value);
  if (it == g.by_value.end()) {
    if (g.by_value.size() >= TaskGrain::kMaxParamValues) return;
    it = g.by_value.emplace(n.param_value, TaskGrain::Values{}).first;
  }
  ++it->second.tasks;
  it->second.subtree_ns += n.subtree;
}

void TaskGraphPass::forget(Node& n) {
  release_paths(n);
  nodes_.erase(n.id);
}

void TaskGraphPass::compose_critical_path() {
  // Per construct (grain index + 1, 0 for implicit tasks): time and distinct task instances.
  std::vector<PathShare> shares(result_.grains.size() + 1);
  std::vector<std::unordered_set<uint64_t>> tasks(shares.size());
  for (PathArena::Ref r = best_.path; r; r = paths_.segment(r).prev) {
    const PathArena::Segment& s = paths_.segment(r);
    shares[s.construct].ns += s.ns;
    tasks[s.construct].insert(s.task);
  }
  for (size_t i = 0; i < shares.size(); ++i) {
    if (shares[i].ns == 0) continue;
    shares[i].codeptr = i ? result_.grains[i - 1].codeptr : 0;
    shares[i].tasks = tasks[i].size();
    result_.critical_path.push_back(shares[i]);
  }
  std::stable_sort(result_.critical_path.begin(), result_.critical_path.end(),
                   [](const PathShare& a, const PathShare& b) { return a.ns > b.ns; });
}

void TaskGraphPass::end(const replay::ReplayInfo& info, const replay::TaskModel& m) {
  for (uint32_t p = 0; p < running_.size(); ++p) flush(p, info.end_ns);
  nodes_.for_each([&](uint64_t, Node& n) { take(best_, longest(n)); });
  result_.span_ns = best_.ns;
  compose_critical_path();  // before the grains are sorted: segments name them by index
  result_.run_ns = info.end_ns;
  uint32_t threads = 0;
  for (uint32_t p = 0; p < m.thread_count(); ++p) {
    const replay::ThreadInfo& th = m.thread(p);
    if (th.exists || th.end_ns) ++threads;
  }
  result_.threads = std::max<uint32_t>(threads, 1);
  result_.parallelism = result_.span_ns ? double(result_.work_ns) / double(result_.span_ns) : 0;
  std::stable_sort(result_.grains.begin(), result_.grains.end(),
                   [](const TaskGrain& a, const TaskGrain& b) { return a.subtree_ns > b.subtree_ns; });
  result_.bound_ns = fastest_schedule_ns(result_.work_ns, result_.span_ns, result_.threads);
}

}  // namespace tasklens::analysis
