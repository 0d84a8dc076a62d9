// TaskDagPass: the recorded run's tasks as timelines of items (task_dag.h).
#include "simulate/task_dag.h"

#include <algorithm>

#include "format/event_views.h"
#include "format/kinds.h"

namespace tasklens::simulate {

using format::Endpoint;
using format::Kind;
using format::SyncKind;

void TaskDagPass::begin(const replay::ReplayInfo& info) {
  dag_ = TaskDag{};
  dag_.tasks.emplace_back();  // the root: the initial task, whether the trace has it or not
  last_work_.push_back(kNone);
  last_kind_.push_back(DagItem::kWork);
  abs_depth_.push_back(0);
  running_.assign(info.threads, Running{});
  if (!running_.empty()) running_[0].task = 0;  // the program's start, before any event
  forking_.assign(info.threads, kNone);
  just_created_.assign(info.threads, kNone);
  preempted_.load(info.experiment, info.threads);
}

uint32_t TaskDagPass::new_task(uint64_t id) {
  auto t = uint32_t(dag_.tasks.size());
  dag_.tasks.emplace_back();
  last_work_.push_back(kNone);
  last_kind_.push_back(DagItem::kWork);
  abs_depth_.push_back(0);
  if (id) index_[id] = t + 1;  // a reused id names the new task from now on
  return t;
}

uint32_t TaskDagPass::index_of(uint64_t id) const {
  const uint32_t* i = index_.find(id);
  return i ? *i - 1 : kNone;
}

void TaskDagPass::add(uint32_t task, DagItem::Kind kind, uint64_t value) {
  if (task == kNone) return;
  if (kind == DagItem::kWork) {
    if (!value) return;
    uint32_t last = last_work_[task];
    if (last != kNone) {
      pending_[last].item.value += value;
      return;
    }
    last_work_[task] = uint32_t(pending_.size());
  } else {
    last_work_[task] = kNone;
    last_kind_[task] = kind;
  }
  pending_.push_back({task, {kind, value}});
}

uint32_t TaskDagPass::group_of(uint32_t c) {
  while (parent_construct_[c] != c)
    c = parent_construct_[c] = parent_construct_[parent_construct_[c]];
  return c;
}

void TaskDagPass::flush(uint32_t thread, uint64_t t) {
  Running& r = running_[thread];
  if (r.task != kNone && t > r.since) {
    uint64_t off = preempted_.within(thread, r.since, t);
    add(r.task, DagItem::kWork, t - r.since - off);
    dag_.work_ns += t - r.since - off;
    dag_.preempted_ns += off;
  }
  r.since = t;
}

void TaskDagPass::after(const replay::Record& r, const replay::TaskModel& m) {
  const format::Event& e = r.ev;
  const uint32_t p = r.thread;
  if (p >= running_.size()) return;
  const uint32_t created = just_created_[p];
  const bool dependence_record = e.kind == Kind::kDependence || e.kind == Kind::kTaskDependence;
  if (created != kNone && !dependence_record) {
    just_created_[p] = kNone;
    if (e.kind == Kind::kTaskSchedule &&
        index_of(format::ev::TaskSchedule::of(e).next) == created) {
      DagTask& task = dag_.tasks[created];
      task.ran_immediately = true;
      // Deferred in the simulation (a team of one's): its dispatch is its start's cost, not
      // the creator's work.
      if (task.is_explicit && !task.undeferred && running_[p].since < e.time) {
        dag_.dispatch_ns += e.time - running_[p].since;
        running_[p].since = e.time;
      }
    }
  }
  // A just created task's dependence records come before its switch-in: that time is its
  // dispatch (TaskCostPass samples all of it), not the creator's work, or a team of one's tasks
  // with dependences paid it twice. (Its edges are still read below.)
  if (created == kNone || !dependence_record) flush(p, e.time);
  const replay::ThreadInfo& th = m.thread(p);
  switch (e.kind) {
    case Kind::kParallelBegin: {
      uint32_t encountering = index_of(th.current);
      if (encountering == kNone) encountering = 0;
      auto region = uint32_t(dag_.regions.size());
      dag_.regions.emplace_back().nested = encountering != 0;
      region_index_[format::ev::ParallelBegin::of(e).region] = region + 1;
      add(encountering, DagItem::kRegion, region);
      forking_[p] = encountering;  // the fork's time is the encountering task's
      break;
    }
    case Kind::kImplicitTask: {
      const auto it = format::ev::ImplicitTask::of(e);
      if (it.endpoint != uint8_t(Endpoint::kBegin)) {
        // A region ends with a barrier that waits for its tasks, reported or not (libomp
        // reports none for a team of one, whose tasks it runs at once).
        uint32_t t = index_of(it.task);
        if (t != kNone && t != 0 && last_kind_[t] != DagItem::kBarrier) add(t, DagItem::kBarrier);
        break;
      }
      forking_[p] = kNone;
      if (it.flags & format::task_flag::kInitial) {
        index_[it.task] = 1;  // the root
        break;
      }
      // A team number no simulation can give a thread (a damaged trace): left out, so that
      // a region costs at most kMaxWorkers entries.
      if (it.index >= kMaxWorkers) break;
      uint32_t* region = region_index_.find(it.region);
      if (!region) {
        // A region whose fork is not in the trace: the root forked it.
        auto index = uint32_t(dag_.regions.size());
        dag_.regions.emplace_back();
        region = &(region_index_[it.region] = index + 1);
        add(0, DagItem::kRegion, index);
      }
      uint32_t t = new_task(it.task);
      DagRegion& reg = dag_.regions[*region - 1];
      reg.recorded_team = std::max<uint32_t>(reg.recorded_team, uint32_t(it.team_size));
      if (reg.members.size() <= it.index) reg.members.resize(it.index + 1u, kNone);
      reg.members[it.index] = t;
      break;
    }
    case Kind::kTaskCreate: {
      const auto tc = format::ev::TaskCreate::of(e);
      uint32_t parent = index_of(tc.parent);
      if (parent == kNone) parent = index_of(th.current);
      uint32_t t = new_task(tc.task);
      DagTask& task = dag_.tasks[t];
      task.parent = parent;
      // `taskwait depend`: its creator's wait (the model's), not a task (its flags are the
      // event's: no lookup per creation).
      if (format::is_taskwait_depend(tc.flags)) {
        task.taskwait_depend = true;
        add(parent, DagItem::kTaskwaitDepend, t);
        break;
      }
      task.is_explicit = tc.flags & format::task_flag::kExplicit;
      // A team of one (or the initial task) runs every task undeferred: the runtime's choice,
      // not the program's, so on more threads they are deferred.
      const uint32_t* creator_region = region_index_.find(th.region);
      task.undeferred = (tc.flags & format::task_flag::kUndeferred) && creator_region &&
                        dag_.regions[*creator_region - 1].recorded_team > 1;
      if (task.is_explicit) {
        uint64_t code = m.task_code(tc.task);
        uint32_t& c = construct_index_[code ? code : 1];
        if (!c) {
          dag_.constructs.emplace_back().codeptr = code;
          parent_construct_.push_back(uint32_t(dag_.constructs.size() - 1));
          self_created_.push_back(false);
          c = uint32_t(dag_.constructs.size());
        }
        task.construct = c - 1;
        ++dag_.constructs[c - 1].tasks;
        if (parent != kNone && dag_.tasks[parent].is_explicit) {
          abs_depth_[t] = abs_depth_[parent] + 1;
          uint32_t a = group_of(dag_.tasks[parent].construct), b = group_of(task.construct);
          if (a == b) {
            self_created_[a] = true;
          } else {
            parent_construct_[std::max(a, b)] = std::min(a, b);
            if (self_created_[std::max(a, b)]) self_created_[std::min(a, b)] = true;
          }
        }
      }
      add(parent, DagItem::kCreate, t);
      // Undeferred, by the program (if(0), included) or by a team of one: switched in next?
      if (tc.flags & format::task_flag::kUndeferred) just_created_[p] = t;
      break;
    }
    case Kind::kSyncRegion: {
      const auto s = format::ev::SyncRegion::of(e);
      uint32_t t = index_of(format::ev::task_or(s.task, th.current));
      if (s.endpoint == uint8_t(Endpoint::kBegin)) {
        if (s.sync_kind == uint16_t(SyncKind::kTaskwait)) {
          add(t, DagItem::kTaskwait);
        } else if (s.sync_kind == uint16_t(SyncKind::kTaskgroup)) {
          add(t, DagItem::kGroupBegin);
        } else if (format::is_barrier(s.sync_kind) && t != kNone && !dag_.tasks[t].is_explicit) {
          add(t, DagItem::kBarrier);
        }
      } else if (s.endpoint == uint8_t(Endpoint::kEnd) &&
                 s.sync_kind == uint16_t(SyncKind::kTaskgroup)) {
        add(t, DagItem::kGroupEnd);
      }
      break;
    }
    default:
      break;
  }
  for (const replay::Edge& edge : m.new_edges()) {
    uint32_t pred = index_of(edge.pred), succ = index_of(edge.succ);
    if (pred != kNone && succ != kNone && pred != succ) edges_.emplace_back(pred, succ);
  }
  uint32_t now = kNone;
  if (th.exists && m.working(p)) now = index_of(th.current);
  if (now == kNone) now = forking_[p];
  // The initial thread outside parallel regions runs the program's serial code.
  if (now == kNone && p == 0 && th.region == 0) now = 0;
  running_[p].task = now;
}

void TaskDagPass::end(const replay::ReplayInfo& info, const replay::TaskModel& m) {
  for (uint32_t p = 0; p < running_.size(); ++p) flush(p, info.end_ns);
  dag_.run_ns = info.end_ns;
  dag_.recorded_threads = m.threads_seen();
  // Items grouped by task, each task's in time order (a counting sort).
  std::vector<DagTask>& tasks = dag_.tasks;
  for (const Pending& x : pending_) ++tasks[x.task].items;
  uint32_t at = 0;
  for (DagTask& t : tasks) {
    t.first_item = at;
    at += t.items;
    t.items = 0;
  }
  dag_.items.resize(pending_.size());
  for (const Pending& x : pending_) {
    DagTask& t = tasks[x.task];
    dag_.items[t.first_item + t.items++] = x.item;
    if (x.item.kind == DagItem::kWork) ++dag_.fragments;
  }
  std::vector<Pending>().swap(pending_);
  std::vector<uint32_t>().swap(last_work_);
  std::vector<uint8_t>().swap(last_kind_);
  // Successors, grouped by predecessor; one edge per pair.
  std::sort(edges_.begin(), edges_.end());
  edges_.erase(std::unique(edges_.begin(), edges_.end()), edges_.end());
  dag_.successors.resize(edges_.size());
  for (const auto& [pred, succ] : edges_) {
    ++tasks[pred].succs;
    ++tasks[succ].preds;
  }
  at = 0;
  for (DagTask& t : tasks) {
    t.first_succ = at;
    at += t.succs;
    t.succs = 0;
  }
  for (const auto& [pred, succ] : edges_) {
    DagTask& t = tasks[pred];
    dag_.successors[t.first_succ + t.succs++] = succ;
  }
  std::vector<std::pair<uint32_t, uint32_t>>().swap(edges_);
  // Recursion depth from each group's shallowest tasks (as TaskGrain::by_depth does per
  // construct, plus 1).
  std::vector<DagConstruct>& constructs = dag_.constructs;
  for (uint32_t c = 0; c < constructs.size(); ++c) {
    constructs[c].group = group_of(c);
    if (constructs[c].group != c) constructs[constructs[c].group].tasks += constructs[c].tasks;
  }
  for (uint32_t c = 0; c < constructs.size(); ++c) {
    constructs[c].recursive = self_created_[constructs[c].group];
  }
  min_depth_.assign(constructs.size(), kNone);
  for (uint32_t t = 0; t < tasks.size(); ++t) {
    if (tasks[t].construct == kNone) continue;
    uint32_t& shallowest = min_depth_[constructs[tasks[t].construct].group];
    shallowest = std::min(shallowest, abs_depth_[t]);
  }
  for (uint32_t t = 0; t < tasks.size(); ++t) {
    DagTask& task = tasks[t];
    if (task.construct == kNone) continue;
    uint32_t g = constructs[task.construct].group;
    task.depth = abs_depth_[t] - min_depth_[g] + 1;
    constructs[g].max_depth = std::max(constructs[g].max_depth, task.depth);
  }
  std::vector<uint32_t>().swap(abs_depth_);
}

}  // namespace tasklens::simulate
