// TaskModel: task states (POT Fig. 2), what each thread runs, ready tasks, dependences.
#include "replay/task_model.h"

#include <algorithm>

#include "format/event_views.h"
#include "format/kinds.h"
#include "format/runtime_made_task.h"
#include "format/task_switch.h"

namespace tasklens::replay {

using format::Kind;
using format::TaskStatus;

const char* task_state_name(TaskState s) {
  switch (s) {
    case TaskState::kInitialized: return "initialized";
    case TaskState::kReady: return "ready";
    case TaskState::kSuspended: return "suspended";
    case TaskState::kCancelled: return "cancelled";
    case TaskState::kRunning: return "running";
    case TaskState::kExecuted: return "executed";
    case TaskState::kDetached: return "detached";
    case TaskState::kCompleted: return "completed";
  }
  return "?";
}

namespace {

bool groups_with_same_kind(uint8_t type) {
  using format::DependenceType;
  return type == uint8_t(DependenceType::kIn) || type == uint8_t(DependenceType::kMutexinoutset) ||
         type == uint8_t(DependenceType::kInoutset);
}

}  // namespace

TaskModel::TaskModel(uint32_t threads)
    : threads_(threads),
      current_hint_(threads, nullptr),
      created_hint_(threads, nullptr),
      pending_deps_(threads) {}

void TaskModel::refresh_working(uint32_t t) {
  const TaskInfo* task = current(t);
  threads_[t].working = task && task->state == TaskState::kRunning && task->thread == t;
}

TaskInfo& TaskModel::create_unseen(uint64_t id, uint32_t thread, uint64_t now) {
  // A task whose creation is not in the trace (lost chunk, or a trace cut short): assume an
  // explicit task that was created just now.
  TaskInfo& t = tasks_[id];
  t.id = id;
  t.flags = format::task_flag::kExplicit;
  t.thread = thread;
  t.created_ns = now;
  t.region = threads_[thread].region;
  return t;
}

void TaskModel::set_state(TaskInfo& t, TaskState s) {
  if (t.state == s) return;
  if (t.state == TaskState::kReady) --ready_;
  if (s == TaskState::kReady) ++ready_;
  // Filled field by field: building the struct on the stack and copying it stalls on
  // store-to-load forwarding (seen in perf), and this runs for most events.
  Transition& tr = transitions_.emplace_back();
  tr.task = t.id;
  tr.from = t.state;
  tr.to = s;
  t.state = s;
}

void TaskModel::apply(const format::Event& e, uint32_t thread) {
  transitions_.clear();
  edges_.clear();
  now_ = e.time;
  ThreadInfo& th = threads_[thread];
  if (!th.exists && th.begin_ns == 0 && th.end_ns == 0) {
    th.exists = true;  // no thread_begin seen: the thread exists from its first event
    th.begin_ns = e.time;
  }
  switch (e.kind) {
    case Kind::kThreadBegin:
      th.exists = true;
      th.begin_ns = e.time;
      th.end_ns = 0;
      break;
    case Kind::kThreadEnd:
      th.exists = false;
      th.end_ns = e.time;
      break;
    case Kind::kParallelBegin: {
      const auto pb = format::ev::ParallelBegin::of(e);
      Region& r = region(pb.region);
      r.team_size = std::max<uint32_t>(r.team_size, pb.requested);
      r.codeptr = pb.codeptr;
      break;
    }
    case Kind::kParallelEnd: {
      erase_region(format::ev::ParallelEnd::of(e).region);
      break;
    }
    case Kind::kImplicitTask:
      on_implicit_task(e, thread);
      break;
    case Kind::kTaskCreate:
      on_create(e, thread);
      break;
    case Kind::kDependence:
      on_dependence(e, thread);
      break;
    case Kind::kTaskDependence: {
      const auto d = format::ev::TaskDependence::of(e);
      add_edge(d.dep_task, d.task, true);
      break;
    }
    case Kind::kTaskSchedule:
      on_schedule(e, thread);
      break;
    case Kind::kSyncRegionWait:
      on_wait(e, thread, /*construct=*/false);
      break;
    case Kind::kWork: {
      const auto w = format::ev::Work::of(e);
      // The constructs a barrier may close (sync_code): a taskloop ends in no barrier.
      if (!format::is_worksharing(w.work_type)) break;
      if (w.endpoint == uint8_t(format::Endpoint::kBegin)) {
        // Bounded against a damaged trace of begins alone (the replay supplies GCC's single ends).
        if (th.open_work.size() == 64) th.open_work.erase(th.open_work.begin());
        th.open_work.push_back(w.codeptr);
      } else if (w.endpoint == uint8_t(format::Endpoint::kEnd) && !th.open_work.empty()) {
        th.work_code = th.open_work.back();  // the end's own address is the construct's end
        th.open_work.pop_back();
      }
      break;
    }
    case Kind::kSyncRegion: {
      const auto s = format::ev::SyncRegion::of(e);
      if (s.sync_kind == uint16_t(format::SyncKind::kTaskgroup)) {
        on_taskgroup(e, thread);
      } else {
        on_wait(e, thread, /*construct=*/true);
      }
      break;
    }
    default:
      break;
  }
  if (may_change_thread(e.kind)) refresh_working(thread);
}

uint64_t TaskModel::sync_code(const format::Event& e, uint32_t thread) const {
  const auto s = format::ev::SyncAny::of(e);
  bool workshare_barrier = format::is_workshare_barrier(s.sync_kind);
  if (workshare_barrier && in_runtime(s.codeptr) && threads_[thread].work_code) {
    return threads_[thread].work_code;
  }
  return s.codeptr;
}

void TaskModel::on_implicit_task(const format::Event& e, uint32_t thread) {
  const auto it = format::ev::ImplicitTask::of(e);
  ThreadInfo& th = threads_[thread];
  if (it.endpoint == uint8_t(format::Endpoint::kBegin)) {
    uint64_t encountering = th.current;
    TaskInfo* enc = current(thread);
    TaskInfo& t = tasks_[it.task];
    t = TaskInfo{};
    t.id = it.task;
    t.parent = encountering;
    t.parent_hint = enc;
    t.flags = it.flags ? it.flags : format::task_flag::kImplicit;
    t.region = it.region;
    t.thread = t.creator_thread = thread;
    t.created_ns = t.first_start_ns = e.time;
    t.fragments = 1;
    if (it.region) {
      Region& r = region(it.region);
      r.team_size = std::max<uint32_t>(r.team_size, uint32_t(it.team_size));
    }
    // The encountering task waits for the parallel region it started.
    if (enc && enc->state == TaskState::kRunning) set_state(*enc, TaskState::kSuspended);
    th.levels.push_back({it.task, encountering});
    th.current = it.task;
    current_hint_[thread] = &t;
    th.region = it.region;
    set_state(t, TaskState::kRunning);
    return;
  }
  uint64_t id = format::ev::task_or(it.task, th.current);
  if (TaskInfo* t = find(id, current(thread))) {
    set_state(*t, TaskState::kExecuted);
    complete(*t, e.time);
  }
  th.current = 0;
  th.region = 0;
  if (!th.levels.empty() && th.levels.back().implicit_task == id) {
    uint64_t resumes = th.levels.back().resumes;
    th.levels.pop_back();
    if (TaskInfo* enc = tasks_.find(resumes)) {
      th.current = resumes;
      th.region = enc->region;
      if (enc->wait == Wait::kNone && enc->state == TaskState::kSuspended) {
        set_state(*enc, TaskState::kRunning);
      }
    }
  }
}

void TaskModel::on_create(const format::Event& e, uint32_t thread) {
  const auto tc = format::ev::TaskCreate::of(e);
  ThreadInfo& th = threads_[thread];
  TaskInfo& t = tasks_[tc.task];
  t = TaskInfo{};
  t.id = tc.task;
  t.parent = tc.parent;
  t.codeptr = tc.codeptr;
  t.flags = tc.flags;
  t.creator_thread = thread;
  t.created_ns = e.time;
  t.region = th.region;
  t.deps_pending = tc.has_deps != 0;
  Transition& tr = transitions_.emplace_back();
  tr.task = t.id;
  tr.from = tr.to = TaskState::kInitialized;
  created_hint_[thread] = &t;
  TaskInfo* p = find(tc.parent, current(thread));
  t.parent_hint = p;
  if (p) {
    ++p->live_children;
    t.group = p->open_group ? p->open_group : p->group;
    if (p->region) t.region = p->region;
    t.phase = p->phase;
  } else if (const TaskInfo* running = current(thread)) {
    t.phase = running->phase;  // an unknown creator (a damaged trace): the thread's task's barrier
  }
  if (in_runtime(tc.codeptr)) {
    const TaskInfo* running = current(thread);
    t.codeptr = format::runtime_made_task_code(t.codeptr, running && running->is_explicit(),
                                               running ? running->codeptr : 0);
  } else if (constructs_) {
    t.codeptr = constructs_->construct(tc.codeptr);
  }
  for (uint64_t g = t.group; g;) {
    Group* G = groups_.find(g);
    if (!G) break;
    ++G->live;
    g = G->parent;
  }
  if (t.is_explicit() && t.region) {
    if (Region* r = find_region(t.region)) {
      if (Phase* ph = phase(*r, t.phase)) ++ph->live_explicit;
    }
  }
  if (p && t.is_taskwait_depend()) begin_taskwait_depend(*p, t, thread);
  make_ready_if_possible(t);
}

void TaskModel::make_ready_if_possible(TaskInfo& t) {
  if (t.state != TaskState::kInitialized || t.deps_pending || t.pending_preds) return;
  // The task of a `taskwait depend` never runs: its predecessors done, its creator's wait is.
  if (t.is_taskwait_depend()) {
    if (TaskInfo* p = find(t.parent, t.parent_hint); p && p->awaited == t.id) check_wait_done(*p);
    return;
  }
  // Undeferred (included) tasks never wait in a queue.
  if (t.is_undeferred()) return;
  set_state(t, TaskState::kReady);
}

void TaskModel::on_dependence(const format::Event& e, uint32_t thread) {
  const auto d = format::ev::Dependence::of(e);
  PendingDeps& p = pending_deps_[thread];
  if (d.index == 0 || p.task != d.task) {
    p.task = d.task;
    p.items.clear();
    p.preds.clear();
  }
  p.items.emplace_back(d.address, d.type);
  if (d.index + 1 >= d.ndeps) resolve_dependences(p);
}

void TaskModel::resolve_dependences(PendingDeps& p) {
  uint64_t succ = p.task;
  for (const auto& [address, type] : p.items) {
    using format::DependenceType;
    if (type == uint8_t(DependenceType::kSource) || type == uint8_t(DependenceType::kSink)) {
      continue;  // doacross loops, not task dependences
    }
    uint8_t kind = type;
    if (kind == 0 || kind > uint8_t(DependenceType::kInoutset)) kind = uint8_t(DependenceType::kInout);
    AddressState& s = addresses_[address ? address : 1];
    const std::vector<uint64_t>* preds;
    if (!s.current.empty() && s.kind == kind && groups_with_same_kind(kind)) {
      s.current.push_back(succ);
      preds = &s.previous;
    } else {
      s.previous = std::move(s.current);
      s.current.assign(1, succ);
      s.kind = kind;
      preds = &s.previous;
    }
    for (uint64_t pred : *preds) {
      // One edge per predecessor, however many addresses name it (a finished one too).
      if (pred == succ || std::find(p.preds.begin(), p.preds.end(), pred) != p.preds.end()) {
        continue;
      }
      p.preds.push_back(pred);
      add_edge(pred, succ, false, kind);
    }
  }
  p.items.clear();
  p.preds.clear();
  p.task = 0;
  if (TaskInfo* t = tasks_.find(succ)) {
    t->deps_pending = false;
    make_ready_if_possible(*t);
  }
}

void TaskModel::add_edge(uint64_t pred, uint64_t succ, bool from_runtime, uint8_t type) {
  TaskInfo* p = tasks_.find(pred);
  bool live = p && p->state != TaskState::kCompleted;
  if (live) {
    std::vector<uint64_t>& succs = successors_[pred];
    if (std::find(succs.begin(), succs.end(), succ) != succs.end()) {
      return;  // known already (from the addresses, or reported twice)
    }
    succs.push_back(succ);
    p->has_successors = true;
    if (TaskInfo* s = tasks_.find(succ)) {
      ++s->pending_preds;
      if (s->state == TaskState::kReady) set_state(*s, TaskState::kInitialized);
    }
  } else if (from_runtime) {
    return;  // an edge from a finished task adds nothing the addresses did not give
  }
  edges_.push_back({pred, succ, from_runtime, !live, type});
}

void TaskModel::on_schedule(const format::Event& e, uint32_t thread) {
  const auto s = format::ev::TaskSchedule::of(e);
  auto status = TaskStatus(s.status);
  if (status == TaskStatus::kLateFulfill) {
    if (TaskInfo* t = tasks_.find(s.prior)) {
      t->detach_fulfilled = true;
      if (t->state == TaskState::kDetached) complete(*t, e.time);
    }
    return;
  }
  ThreadInfo& th = threads_[thread];
  // Mostly the prior task is the thread's current one, and the next one is the prior's parent
  // (a child completed) or the task the thread created last (it starts a child).
  TaskInfo* next_hint = created_hint_[thread];
  // An untied task resuming itself on top of the current task switches that one out, which
  // stays on this thread's stack below it (format/task_switch.h).
  const uint64_t prior_id = format::switched_out(e, th.current);
  if (prior_id && prior_id != s.next) {
    TaskInfo& prior = ensure(prior_id, thread, e.time, current(thread));
    if (prior.parent == s.next) next_hint = prior.parent_hint;
    switch (status) {
      case TaskStatus::kComplete:
        set_state(prior, TaskState::kExecuted);
        complete(prior, e.time);
        break;
      case TaskStatus::kTaskwaitComplete:
        complete(prior, e.time);
        break;
      case TaskStatus::kEarlyFulfill:
        prior.detach_fulfilled = true;
        break;
      case TaskStatus::kDetach:
        set_state(prior, TaskState::kExecuted);
        set_state(prior, TaskState::kDetached);
        if (prior.detach_fulfilled) complete(prior, e.time);
        break;
      case TaskStatus::kCancel:
        set_state(prior, TaskState::kCancelled);
        complete(prior, e.time);
        break;
      case TaskStatus::kSwitch:
      case TaskStatus::kYield:
      default:
        switch_out(prior, s.next, thread, /*under_next=*/prior_id != s.prior);
        break;
    }
  }
  if (!s.next || status == TaskStatus::kEarlyFulfill) return;
  TaskInfo& next = ensure(s.next, thread, e.time, next_hint);
  if (next.first_start_ns == 0) next.first_start_ns = e.time;
  if (prior_id != s.next) ++next.fragments;
  next.thread = thread;
  th.current = s.next;
  current_hint_[thread] = &next;
  if (next.wait == Wait::kNone || next.wait == Wait::kNested) {
    next.wait = Wait::kNone;
    set_state(next, TaskState::kRunning);
  }
  // A task still inside a wait stays suspended (or ready) until the wait ends.
}

void TaskModel::switch_out(TaskInfo& prior, uint64_t next, uint32_t thread, bool under_next) {
  if (prior.state == TaskState::kCompleted) return;
  if (prior.wait != Wait::kNone) return;  // waiting: its state follows the wait
  if ((prior.flags & format::task_flag::kUntied) && !under_next) {
    const TaskInfo* n = tasks_.find(next);
    if (!(n && n->parent == prior.id && n->is_undeferred())) {
      // An untied task switched out at a scheduling point may resume on any thread.
      set_state(prior, TaskState::kReady);
      return;
    }
  }
  // A tied task (or one that runs an included child) resumes when this thread comes back to it.
  prior.wait = Wait::kNested;
  set_state(prior, TaskState::kSuspended);
}

void TaskModel::complete(TaskInfo& task, uint64_t now) {
  TaskInfo* t = &task;
  if (t->state == TaskState::kCompleted) return;
  uint64_t id = t->id;
  set_state(*t, TaskState::kCompleted);
  t->completed_ns = now;
  t->wait = Wait::kNone;
  if (t->has_successors) {
    t->has_successors = false;
    if (std::vector<uint64_t>* succs = successors_.find(id)) {
      for (uint64_t s : *succs) {
        if (TaskInfo* succ = tasks_.find(s); succ && succ->pending_preds) {
          --succ->pending_preds;
          make_ready_if_possible(*succ);
        }
      }
      successors_.erase(id);
    }
  }
  if (TaskInfo* p = find(t->parent, t->parent_hint)) {
    if (p->live_children) --p->live_children;
    if (p->awaited == id) {
      end_taskwait_depend(*p);  // its taskwait_complete
    } else if (p->wait == Wait::kTaskwait) {
      check_wait_done(*p);
    }
    if (p->state == TaskState::kCompleted && p->live_children == 0) garbage_.push_back(p->id);
  }
  for (uint64_t g = t->group; g;) {
    Group* G = groups_.find(g);
    if (!G) break;
    if (G->live) --G->live;
    if (G->live == 0) {
      if (TaskInfo* owner = tasks_.find(G->owner); owner && owner->wait == Wait::kTaskgroup) {
        check_wait_done(*owner);
      }
    }
    g = G->parent;
  }
  if (t->is_explicit() && t->region) {
    Region* r = find_region(t->region);
    Phase* ph = r ? phase(*r, t->phase) : nullptr;
    if (ph && ph->live_explicit) {
      --ph->live_explicit;
      if (ph->in_barrier) check_barrier(t->region, t->phase);
    }
  }
  if (t->live_children == 0) garbage_.push_back(id);
}

void TaskModel::collect_garbage() {
  // Only completed tasks without live children get here, and neither can change back.
  for (uint64_t id : garbage_) tasks_.erase(id);
  garbage_.clear();
}

}  // namespace tasklens::replay
