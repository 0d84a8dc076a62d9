// TaskGraphPass: work and span of the run's DAG of strands, measured online.
#include "analysis/task_graph.h"

#include <algorithm>
#include <map>
#include <unordered_set>

#include "format/event_views.h"
#include "format/kinds.h"

namespace tasklens::analysis {

using format::Endpoint;
using format::is_barrier;
using format::Kind;
using format::SyncKind;

const char* path_via_name(PathVia v) {
  switch (v) {
    case PathVia::kSame:
      return "same task";
    case PathVia::kCreated:
      return "created";
    case PathVia::kDependence:
      return "dependence";
    case PathVia::kTaskwait:
      return "taskwait";
    case PathVia::kTaskgroup:
      return "taskgroup";
    case PathVia::kBarrier:
      return "barrier";
    case PathVia::kJoin:
      return "join";
    case PathVia::kFork:
      return "fork";
  }
  return "?";
}

void TaskGraphPass::begin(const replay::ReplayInfo& info) {
  result_ = TaskGraph{};
  running_.assign(info.threads, Running{});
  nodes_ = replay::StableIdMap<Node>();
  regions_ = replay::IdMap<Region>();
  ended_with_deps_ = replay::IdMap<Longest>();
  grain_index_ = replay::IdMap<uint32_t>();
  depth_values_.clear();
  fork_sites_.clear();
  fork_site_index_ = replay::IdMap<uint32_t>();
  paths_ = PathArena();
  best_ = Longest{};
  creation_ = info.experiment ? creation_cost(*info.experiment) : CreationCost{};
  claims_.begin(info.threads, &creation_);
  preempted_.load(info.experiment, info.threads);
}

uint32_t TaskGraphPass::grain_of(uint64_t codeptr) {
  uint32_t& index = grain_index_[codeptr ? codeptr : 1];
  if (!index) {
    result_.grains.emplace_back().codeptr = codeptr;
    index = uint32_t(result_.grains.size());
  }
  return index;
}

void TaskGraphPass::flush(uint32_t thread, uint64_t t, uint64_t creation) {
  Running& r = running_[thread];
  // Time off the CPU is no task's (nor the runtime's): a loaded machine's tasks would look long.
  const uint64_t off =
      (r.forking || r.task) && t > r.since ? preempted_.within(thread, r.since, t) : 0;
  result_.preempted_ns += off;
  if (r.forking && t > r.since) {
    result_.runtime_ns += t - r.since - off;
    r.fork_off += off;
  }
  if (r.task && t > r.since) {
    uint64_t d = t - r.since - off, runtime = std::min(creation, d);
    if (Node* n = nodes_.find(r.task)) {
      n->span += d;
      n->pending += d;
      n->pending_runtime += runtime;
      n->subtree += d - runtime;
    }
    result_.work_ns += d - runtime;
    result_.runtime_ns += runtime;
    result_.creation_ns += runtime;
  }
  r.since = t;
}

TaskGraphPass::Longest TaskGraphPass::longest(Node& n) {
  if (n.pending) {
    PathArena::Label label;
    label.creates = n.pending_creates;
    label.runtime_ns = uint32_t(std::min<uint64_t>(n.pending_runtime, UINT32_MAX));
    label.kind = uint8_t(PathKind::kWork);
    label.via = n.via;
    label.detail = n.via_detail;
    label.serial = n.region == 0 && !n.grain;
    n.path = paths_.extend(n.path, n.id, n.grain, n.pending, label);
    n.pending = 0;
    n.pending_runtime = 0;
    n.pending_creates = 0;
    n.via = uint8_t(PathVia::kSame);
    n.via_detail = 0;
  }
  return {n.span, n.path};
}

TaskGraphPass::Longest TaskGraphPass::longest(uint64_t id) {
  Node* n = nodes_.find(id);
  return n ? longest(*n) : Longest{};
}

void TaskGraphPass::raise(Node& n, const Longest& l, PathVia via, uint8_t detail) {
  if (n.span >= l.ns) return;
  // A longer path reaches this point: the task's own time since its path's end is not on it.
  n.span = l.ns;
  paths_.assign(&n.path, l.path);
  n.pending = 0;
  n.pending_runtime = 0;
  n.pending_creates = 0;
  n.via = uint8_t(via);
  n.via_detail = detail;
}

void TaskGraphPass::raise(uint64_t id, const Longest& l, PathVia via, uint8_t detail) {
  if (Node* n = nodes_.find(id)) raise(*n, l, via, detail);
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
  for (Longest& l : n.group_ends) drop(l);
  n.group_ends.clear();
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
  // The strand that ran up to this event belongs to the task that ran before it, less the
  // creations' claim on it (the runtime's).
  CreationClaims::Claim claim;
  if (claims_.active()) claim = claims_.on_event(p, e, running_[p].task != 0);
  flush(p, e.time, claim.total());
  const replay::ThreadInfo& th = m.thread(p);
  if (!part_of_creation(e.kind)) {
    // The runtime went on creating the task after its task_create: the task starts after that.
    if (claim.after_ns && running_[p].created) {
      const replay::TaskInfo* created = m.task(running_[p].created);
      if (created && (created->state == replay::TaskState::kReady ||
                      created->state == replay::TaskState::kInitialized)) {
        raise(running_[p].created, longest(running_[p].task), PathVia::kCreated);
      }
    }
    running_[p].created = e.kind == Kind::kTaskCreate ? format::ev::TaskCreate::of(e).task : 0;
  }
  switch (e.kind) {
    case Kind::kParallelBegin: {
      const auto pb = format::ev::ParallelBegin::of(e);
      Region& region = regions_[pb.region];
      take(region.fork, longest(th.current));
      region.has_fork = true;
      region.fork_ns = e.time;
      region.fork_thread = p;
      uint32_t& site = fork_site_index_[pb.codeptr ? pb.codeptr : 1];
      if (!site) {
        fork_sites_.push_back(pb.codeptr);
        site = uint32_t(fork_sites_.size());
      }
      region.fork_site = site;
      // Until its implicit task begins the thread is in the runtime: no task's work.
      running_[p].forking = pb.region;
      running_[p].fork_off = 0;
      break;
    }
    case Kind::kParallelEnd: {
      const auto pe = format::ev::ParallelEnd::of(e);
      if (running_[p].forking == pe.region) running_[p].forking = 0;
      // The encountering task (current again) continues after the whole region.
      if (Region* region = regions_.find(pe.region)) {
        raise(th.current, region->max_end, PathVia::kJoin);
        drop(region->fork);
        drop(region->max_end);
        for (Phase& ph : region->phases) drop(ph.end);
        regions_.erase(pe.region);
      }
      break;
    }
    case Kind::kImplicitTask: {
      const auto it = format::ev::ImplicitTask::of(e);
      if (it.endpoint == uint8_t(Endpoint::kBegin)) {
        Node& n = fresh_node(it.task);
        n.flags = it.flags;
        n.creator_thread = p;
        n.created_ns = e.time;
        n.region = it.region;
        if (running_[p].forking == it.region) running_[p].forking = 0;
        // A region whose parallel_begin is not in the trace starts at 0.
        if (it.region) {
          Region& region = regions_[it.region];
          ++region.begun;
          region.team = std::max({region.team, region.begun, uint32_t(it.team_size)});
          raise(n, region.fork, PathVia::kFork);
          const uint64_t gap = e.time > region.fork_ns ? e.time - region.fork_ns : 0;
          const uint64_t fork_ns = gap - std::min(gap, running_[p].fork_off);
          if (region.has_fork && region.fork_thread == p && fork_ns) {
            // The runtime's time from the fork to this task's begin, on the path.
            PathArena::Label label;
            label.kind = uint8_t(PathKind::kFork);
            label.via = uint8_t(PathVia::kFork);
            n.path = paths_.extend(n.path, n.id, region.fork_site, fork_ns, label);
            n.span += fork_ns;
            n.via = uint8_t(PathVia::kSame);
          }
        }
      }
      break;
    }
    case Kind::kTaskCreate: {
      const auto tc = format::ev::TaskCreate::of(e);
      if (Node* c = nodes_.find(th.current)) ++c->pending_creates;
      Longest creator = longest(th.current);  // it may start once its creator got this far
      Node& n = fresh_node(tc.task);
      n.parent = tc.parent;
      n.flags = tc.flags;
      n.creator_thread = p;
      n.created_ns = e.time;
      const replay::TaskInfo* info = m.task(tc.task);
      n.region = info ? info->region : th.region;
      // The barrier that waits for it: the task model's rule (its creator's, or the thread's
      // task's for an unknown creator), kept here for when the model has forgotten the task.
      n.phase = info ? info->phase : 0;
      n.has_deps = tc.has_deps != 0;
      raise(n, creator, PathVia::kCreated);
      const Node* parent = nodes_.find(tc.parent);
      if (parent) {
        const bool in_own_group = !parent->group_ends.empty();
        uint64_t owner = in_own_group ? parent->id : parent->group_owner;
        // An id created again while tasks of its own taskgroup live (a damaged trace) would close
        // a cycle of owners, which on_complete() follows forever: such a task joins no taskgroup.
        // Creation is the only place owners change, so the chain stays acyclic.
        for (const Node* o = nodes_.find(owner); o; o = nodes_.find(o->group_owner)) {
          if (o == &n) {
            owner = 0;
            break;
          }
        }
        n.group_owner = owner;
        n.group_level =
            in_own_group ? uint32_t(parent->group_ends.size() - 1) : parent->group_level;
      }
      if (format::creates_explicit_task(e)) {
        ++result_.tasks;
        n.grain = grain_of(m.task_code(tc.task));
        if (parent && parent->grain) n.depth = parent->depth + 1;
      }
      break;
    }
    case Kind::kUserParam: {
      const auto up = format::ev::UserParam::of(e);
      // The first parameter a task sets describes it (e.g. fib's n).
      if (Node* n = nodes_.find(th.current); n && !n->has_param) {
        n->has_param = true;
        n->param = up.name;
        n->param_value = up.value;
      }
      break;
    }
    case Kind::kSyncRegion: {
      const auto s = format::ev::SyncRegion::of(e);
      uint64_t id = format::ev::task_or(s.task, th.current);
      Node* n = nodes_.find(id);
      if (!n) break;
      if (s.endpoint == uint8_t(Endpoint::kBegin)) {
        if (is_barrier(s.sync_kind)) {
          if (Region* region = regions_.find(n->region)) {
            const Longest arrival = longest(*n);
            take(region->max_end, arrival);
            take(phase_end(*region, n->phase), arrival);
          }
        } else if (s.sync_kind == uint16_t(SyncKind::kTaskgroup)) {
          n->group_ends.emplace_back();
        }
      } else if (s.endpoint == uint8_t(Endpoint::kEnd)) {
        if (s.sync_kind == uint16_t(SyncKind::kTaskwait)) {
          raise(*n, n->children_end, PathVia::kTaskwait);
        } else if (s.sync_kind == uint16_t(SyncKind::kTaskgroup)) {
          if (!n->group_ends.empty()) {
            raise(*n, n->group_ends.back(), PathVia::kTaskgroup);
            drop(n->group_ends.back());
            n->group_ends.pop_back();
          }
        } else if (is_barrier(s.sync_kind)) {
          if (Region* region = regions_.find(n->region)) pass_barrier(*region, *n);
          // Its next barrier: the model's count of those it passed.
          if (const replay::TaskInfo* info = m.task(id)) n->phase = info->phase;
        }
      }
      break;
    }
    default:
      break;
  }
  for (const replay::Edge& edge : m.new_edges()) {
    ++result_.dependence_edges;
    if (edge.satisfied) ++result_.satisfied_edges;
    Node* pred = nodes_.find(edge.pred);
    if (pred && !pred->completed) {
      pred->successors.push_back({edge.succ, edge.type});
    } else if (const Longest* end = ended_with_deps_.find(edge.pred)) {
      raise(edge.succ, *end, PathVia::kDependence, edge.type);
    }
  }
  for (const replay::Transition& tr : m.transitions()) {
    if (tr.to == replay::TaskState::kCompleted) on_complete(tr.task);
  }
  running_[p].task = th.exists && m.working(p) && !running_[p].forking ? th.current : 0;
}

void TaskGraphPass::on_complete(uint64_t id) {
  Node* n = nodes_.find(id);
  if (!n || n->completed) return;
  n->completed = true;
  const Longest end = longest(*n);
  take(best_, end);
  for (const Node::Successor& s : n->successors) raise(s.id, end, PathVia::kDependence, s.type);
  n->successors.clear();
  if (n->has_deps) {
    Longest& kept = ended_with_deps_[id];
    take(kept, end);
  }
  if (Region* region = regions_.find(n->region)) {
    take(region->max_end, end);
    take(phase_end(*region, n->phase), end);
  }
  if (n->grain) count_grain(*n);
  // The taskgroups it belongs to wait for it: its owner's, and the enclosing owners'.
  uint32_t level = n->group_level;
  for (Node* owner = nodes_.find(n->group_owner); owner; owner = nodes_.find(owner->group_owner)) {
    if (level < owner->group_ends.size()) take(owner->group_ends[level], end);
    level = owner->group_level;
  }
  if (Node* parent = nodes_.find(n->parent)) {
    parent->subtree += n->subtree;
    take(parent->children_end, end);
    // `taskwait depend`: libomp reports no taskwait region, only this task, which never runs
    // and completes (taskwait_complete) once its predecessors have; its creator waited for it
    // (running other tasks meanwhile, perhaps). Only for it: not for the other children.
    if (format::is_taskwait_depend(n->flags)) raise(*parent, end, PathVia::kTaskwait);
  }
  forget(*n);
}

TaskGraphPass::Longest& TaskGraphPass::phase_end(Region& region, uint32_t phase) {
  // Most tasks belong to the oldest barrier kept: front() spares std::deque's size() and
  // indexing (as in the task model's phase()).
  if (phase == region.first_phase && !region.phases.empty()) return region.phases.front().end;
  // A task of a barrier every implicit task passed (a damaged trace): the oldest kept.
  uint32_t i = phase > region.first_phase ? phase - region.first_phase : 0;
  if (i >= region.phases.size()) region.phases.resize(i + 1);
  return region.phases[i].end;
}

void TaskGraphPass::pass_barrier(Region& region, Node& n) {
  raise(n, phase_end(region, n.phase), PathVia::kBarrier);
  ++region.phases[n.phase > region.first_phase ? n.phase - region.first_phase : 0].passed;
  // Barriers every implicit task passed wait for nothing more.
  while (!region.phases.empty() && region.phases.front().passed >= region.team) {
    drop(region.phases.front().end);
    region.phases.pop_front();
    ++region.first_phase;
  }
}

void TaskGraphPass::count_grain(const Node& n) {
  TaskGrain& g = result_.grains[n.grain - 1];
  ++g.tasks;
  g.subtree_ns += n.subtree;
  ++g.by_log2[n.subtree ? 64 - __builtin_clzll(n.subtree) : 0];
  // The depth's entry, mostly from depth_values_: the map's search mispredicted its way to 2 %
  // of report --all's time on fib 30 (its nodes stay put, so the pointers do).
  if (depth_values_.size() < n.grain) depth_values_.resize(n.grain);
  std::vector<TaskGrain::Values*>& slots = depth_values_[n.grain - 1];
  TaskGrain::Values* v = n.depth < slots.size() ? slots[n.depth] : nullptr;
  if (!v) {
    auto d = g.by_depth.lower_bound(n.depth);
    if (d == g.by_depth.end() || d->first != int64_t(n.depth)) {
      if (g.by_depth.size() < TaskGrain::kMaxParamValues) {
        v = &g.by_depth.emplace_hint(d, n.depth, TaskGrain::Values{})->second;
      }
    } else {
      v = &d->second;
    }
    if (v && n.depth < TaskGrain::kMaxParamValues) {
      if (slots.size() <= n.depth) slots.resize(n.depth + 1);
      slots[n.depth] = v;
    }
  }
  if (v) {
    ++v->tasks;
    v->subtree_ns += n.subtree;
  }
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
  // Per construct (grain index + 1, 0 for implicit tasks): time and distinct task instances;
  // the runtime's time (forks) in a share of its own.
  std::vector<PathShare> shares(result_.grains.size() + 1);
  std::vector<std::unordered_set<uint64_t>> tasks(shares.size());
  PathShare runtime;
  runtime.runtime = true;
  std::vector<const PathArena::Segment*> in_order;
  // A path holds each live segment at most once: a longer walk is a cycle, which only a damaged
  // trace can make (the fuzzer found one; a task's path released twice frees a segment that is
  // still linked). The walk stops there instead of running for ever.
  size_t steps_left = paths_.in_use();
  for (PathArena::Ref r = best_.path; r && steps_left; r = paths_.segment(r).prev, --steps_left) {
    const PathArena::Segment& s = paths_.segment(r);
    in_order.push_back(&s);
    if (s.label.kind == uint8_t(PathKind::kFork)) {
      runtime.ns += s.ns;
      continue;
    }
    runtime.ns += s.label.runtime_ns;
    result_.path_creation_ns += s.label.runtime_ns;
    shares[s.construct].ns += s.ns - s.label.runtime_ns;
    tasks[s.construct].insert(s.task);
  }
  std::reverse(in_order.begin(), in_order.end());
  std::unordered_set<uint64_t> on_path;
  for (const PathArena::Segment* s : in_order) {
    if (s->construct != 0 && s->task && on_path.insert(s->task).second) {
      result_.path_tasks.push_back(s->task);
    }
  }
  for (size_t i = 0; i < shares.size(); ++i) {
    if (shares[i].ns == 0) continue;
    shares[i].codeptr = i ? result_.grains[i - 1].codeptr : 0;
    shares[i].tasks = tasks[i].size();
    result_.critical_path.push_back(shares[i]);
  }
  if (runtime.ns) result_.critical_path.push_back(runtime);
  result_.path_runtime_ns = runtime.ns;
  std::stable_sort(result_.critical_path.begin(), result_.critical_path.end(),
                   [](const PathShare& a, const PathShare& b) { return a.ns > b.ns; });
  compose_path_runs(in_order);
}

void TaskGraphPass::compose_path_runs(const std::vector<const PathArena::Segment*>& in_order) {
  // Consecutive segments of one construct and kind make a run; a run's tasks are linked by the
  // edges of their first segments (a chain of dependences, a task and the child it waited for).
  std::vector<PathRun>& runs = result_.path_runs;
  uint64_t left_off = 0;
  uint32_t construct = 0;
  uint64_t task = 0;
  uint64_t first_create_end = 0, last_create_end = 0;  // offsets in the current run
  for (const PathArena::Segment* s : in_order) {
    auto kind = PathKind(s->label.kind);
    // Implicit tasks (construct 0) are each a run of their own: the encountering task, each
    // region's implicit tasks and the code after a barrier or a join are different strands.
    bool same_run = !runs.empty() && runs.back().kind == kind && construct == s->construct &&
                    (s->construct != 0 || kind != PathKind::kWork || s->task == task);
    if (left_off || (!same_run && runs.size() == TaskGraph::kMaxRuns)) {
      // Full: count the runs left off.
      if (!left_off || !same_run) ++left_off;
      construct = s->construct;
      continue;
    }
    if (!same_run) {
      PathRun& run = runs.emplace_back();
      run.kind = kind;
      run.via = PathVia(s->label.via);
      run.serial = s->label.serial;
      if (kind == PathKind::kFork) {
        run.codeptr = s->construct ? fork_sites_[s->construct - 1] : 0;
      } else {
        run.codeptr = s->construct ? result_.grains[s->construct - 1].codeptr : 0;
      }
      construct = s->construct;
      task = 0;
      first_create_end = last_create_end = 0;
    }
    PathRun& run = runs.back();
    if (s->task != task || !same_run) {
      ++run.tasks;
      if (same_run && PathVia(s->label.via) == PathVia::kDependence) {
        if (!run.chained) run.dependence_type = s->label.detail;
        ++run.chained;
      }
      task = s->task;
    }
    run.ns += s->ns;
    run.creation_ns += s->label.runtime_ns;
    if (s->label.serial) result_.path_serial_ns += s->ns;
    if (s->label.creates) {
      if (!run.creates) first_create_end = run.ns;
      last_create_end = run.ns;
      run.creates += s->label.creates;
      run.creating_ns = last_create_end - first_create_end;
    }
  }
  result_.path_runs_left_off = left_off;
  // One task's creations bound the run: the longest run in parallel regions is one task whose
  // creations on the path span at least half of the path outside serial code.
  constexpr uint64_t kManyTasks = 32;
  const PathRun* longest_run = nullptr;
  for (const PathRun& run : runs) {
    if (!run.serial && (!longest_run || run.ns > longest_run->ns)) longest_run = &run;
  }
  if (longest_run && longest_run->kind == PathKind::kWork && longest_run->tasks == 1 &&
      longest_run->creates >= kManyTasks &&
      2 * longest_run->creating_ns >= result_.span_ns - result_.path_serial_ns) {
    CreationBound& b = result_.creation_bound;
    b.found = true;
    b.run = size_t(longest_run - runs.data());
    b.tasks = longest_run->creates;
    b.ns = longest_run->creating_ns;
  }
}

void TaskGraphPass::end(const replay::ReplayInfo& info, const replay::TaskModel& m) {
  for (uint32_t p = 0; p < running_.size(); ++p) flush(p, info.end_ns);
  nodes_.for_each([&](uint64_t, Node& n) { take(best_, longest(n)); });
  result_.span_ns = best_.ns;
  compose_critical_path();  // before the grains are sorted: segments name them by index
  result_.run_ns = info.end_ns;
  result_.threads = m.threads_seen();
  result_.parallelism = result_.span_ns ? double(result_.work_ns) / double(result_.span_ns) : 0;
  // Creation depth counted from each construct's shallowest tasks.
  for (TaskGrain& g : result_.grains) {
    if (g.by_depth.empty()) continue;
    g.min_depth = g.by_depth.begin()->first;
    if (g.min_depth == 0) continue;
    std::map<int64_t, TaskGrain::Values> relative;
    for (const auto& [depth, v] : g.by_depth) relative[depth - g.min_depth] = v;
    g.by_depth = std::move(relative);
  }
  std::stable_sort(
      result_.grains.begin(), result_.grains.end(),
      [](const TaskGrain& a, const TaskGrain& b) { return a.subtree_ns > b.subtree_ns; });
  result_.bound_ns = fastest_schedule_ns(result_.work_ns, result_.span_ns, result_.threads);
}

}  // namespace tasklens::analysis
