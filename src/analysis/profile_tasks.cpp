// ProfilePass: the task instances it follows: creation, the switches of task_schedule (Fig. 12's
// TaskBegin / TaskEnd / TaskSwitch), implicit tasks, and the stub nodes where explicit tasks run
// at an implicit task's scheduling points.
#include <algorithm>

#include "analysis/profile.h"
#include "format/event_views.h"
#include "format/kinds.h"
#include "format/task_switch.h"

namespace tasklens::analysis {

using format::Kind;
using format::TaskStatus;

__attribute__((always_inline)) void ProfilePass::set_active(uint32_t thread, uint32_t construct,
                                                            int delta) {
  ThreadState& ts = thread_state(thread);
  if (ts.active_by_construct.size() <= construct) ts.active_by_construct.resize(construct + 1, 0);
  uint32_t& mine = ts.active_by_construct[construct];
  if (delta > 0) {
    ++ts.active;
    ++mine;
    if (thread < result_.max_active_per_thread.size()) {
      result_.max_active_per_thread[thread] =
          std::max(result_.max_active_per_thread[thread], ts.active);
    }
    TaskConstruct& c = result_.tasks[construct];
    c.max_active_per_thread = std::max(c.max_active_per_thread, mine);
  } else {
    if (ts.active) --ts.active;
    if (mine) --mine;
  }
}

// A creation lasts until the creator thread's next event, dependences aside (see profile.h).
void ProfilePass::resolve_pending(const format::Event& e, uint32_t thread) {
  ThreadState& ts = thread_state(thread);
  // The new task's dependences are reported inside its creation.
  if ((e.kind == Kind::kDependence && format::ev::Dependence::of(e).task == ts.pending_task) ||
      (e.kind == Kind::kTaskDependence &&
       format::ev::TaskDependence::of(e).task == ts.pending_task)) {
    return;
  }
  uint64_t creator = ts.pending_creator;
  ts.pending_creator = 0;
  result_.tasks[ts.pending_construct].creation.add(e.time - ts.pending_since);
  Run* r = find_run(creator, ts.current_hint);
  if (!r || r->frames.empty() || r->frames.back().type != FrameType::kCreate) return;
  const auto s = format::ev::TaskSchedule::of(e);
  auto status = TaskStatus(s.status);
  bool switched_out = e.kind == Kind::kTaskSchedule && s.prior == creator && s.next != creator &&
                      (status == TaskStatus::kSwitch || status == TaskStatus::kYield);
  if (switched_out) {
    r->frames.back().type = FrameType::kSched;  // the task runs in the creation
  } else {
    close_top(*r, e.time, thread);
  }
}

void ProfilePass::on_implicit_task(const format::Event& e, uint32_t thread) {
  const auto it = format::ev::ImplicitTask::of(e);
  ThreadState& ts = thread_state(thread);
  if (it.endpoint != uint8_t(format::Endpoint::kBegin)) {
    end_implicit(format::ev::task_or(it.task, ts.current), thread, e.time);
    return;
  }
  uint32_t root;
  uint64_t parallel_code = 0, encountering = 0;
  const RegionInfo* ri = regions_.find(it.region);
  // The program's initial task is the program's root. A host `teams` league's teams run initial
  // tasks too, with the league's region: the `teams` body, under the node that met the
  // construct, as a parallel's implicit task (a second "program" root nested in the first
  // counted the league twice).
  if ((it.flags & format::task_flag::kInitial) && !ri) {
    root = node(kNoNode, NodeKind::kProgram, 0, 0);
  } else {
    uint32_t parent = kNoNode;
    if (ri) {
      parent = ri->parent_node;
      parallel_code = ri->codeptr;
      if (ri->thread == thread) encountering = ri->encountering;
    }
    root = node(parent, NodeKind::kParallel, 0, parallel_code);
  }
  Run& r = new_run(it.task);
  r.implicit = r.started = r.running = true;
  r.thread = thread;
  r.since = e.time;
  r.flags = it.flags;
  r.creator_thread = thread;
  r.created_ns = e.time;
  r.parallel_code = parallel_code;
  r.region = it.region;
  r.encountering = encountering;
  push(r, root, FrameType::kRoot, e.time);
  ts.implicit.emplace_back(it.task, ts.current);
  ts.current = it.task;
}

void ProfilePass::end_implicit(uint64_t id, uint32_t thread, uint64_t now) {
  ThreadState& ts = thread_state(thread);
  Run* r = runs_.find(id);
  uint64_t incl = 0;
  // No run: the id began twice (a damaged or duplicated chunk) and its run ended already. It
  // still leaves this thread's stack, or end() would pop it forever.
  if (r) {
    incl = r->frames.empty() ? 0 : clock(*r, now) - r->frames.front().enter;
    while (!r->frames.empty()) close_top(*r, now, thread);
    // On the primary thread the region ran inside the encountering task's current node.
    if (Run* enc = runs_.find(r->encountering); enc && !enc->frames.empty()) {
      enc->frames.back().child += incl;
    }
  }
  for (size_t i = ts.implicit.size(); i > 0; --i) {
    if (ts.implicit[i - 1].first != id) continue;
    ts.current = ts.implicit[i - 1].second;
    ts.implicit.erase(ts.implicit.begin() + long(i - 1));
    if (ts.implicit.empty() && thread < result_.thread_time_ns.size()) {
      result_.thread_time_ns[thread] += incl;
      result_.total_time_ns += incl;
    }
    break;
  }
  if (r) runs_.erase(id);
}

void ProfilePass::on_create(const format::Event& e, uint32_t thread, uint64_t code) {
  const auto tc = format::ev::TaskCreate::of(e);
  uint32_t c = construct_index(code);
  ++result_.tasks[c].created;
  Run& x = new_run(tc.task);
  x.construct = c;
  x.parent = tc.parent;
  x.flags = tc.flags;
  x.creator_thread = thread;
  x.created_ns = e.time;
  ThreadState& ts = thread_state(thread);
  ts.created_hint = &x;
  Run* creator = current_run(thread);
  if (!creator) return;
  ts.pending_creator = creator->id;
  ts.pending_task = tc.task;
  ts.pending_construct = c;
  ts.pending_since = e.time;
  push(*creator, node(top_node(*creator), NodeKind::kCreate, 0, code), FrameType::kCreate, e.time,
       c);
}

void ProfilePass::on_schedule(const format::Event& e, uint32_t thread) {
  const auto s = format::ev::TaskSchedule::of(e);
  auto status = TaskStatus(s.status);
  if (status == TaskStatus::kLateFulfill || status == TaskStatus::kEarlyFulfill) return;
  // An untied task resuming itself on top of the current task switches that one out
  // (format/task_switch.h); resuming itself when it is current, nothing.
  uint64_t prior_id = format::switched_out(e, thread_state(thread).current);
  if (prior_id == s.next) return;
  uint64_t now = e.time;
  if (prior_id) {
    if (Run* prior = find_run(prior_id, thread_state(thread).current_hint)) {
      switch (status) {
        case TaskStatus::kComplete:
        case TaskStatus::kDetach:
        case TaskStatus::kTaskwaitComplete:
        case TaskStatus::kCancel:
          if (prior->implicit) break;
          if (prior->started) {
            task_end(*prior, thread, now, true);
          } else {
            if (status == TaskStatus::kCancel) ++result_.tasks[prior->construct].discarded;
            runs_.erase(prior_id);
          }
          break;
        default:
          suspend(*prior, now, status == TaskStatus::kYield);
          break;
      }
    }
  }
  ThreadState& ts = thread_state(thread);
  ts.current = 0;
  if (!s.next) return;
  Run* next = find_run(s.next, ts.created_hint);
  if (!next) {
    // A task whose creation is not in the trace: an instance of an unknown construct.
    uint32_t c = construct_index(0);
    next = &new_run(s.next);
    next->construct = c;
    next->created_ns = now;
  }
  if (!next->implicit && !next->started) {
    task_begin(*next, thread, now);
  } else {
    resume(*next, thread, now);
  }
}

void ProfilePass::task_begin(Run& x, uint32_t thread, uint64_t now) {
  x.started = true;
  x.thread = thread;
  TaskConstruct& c = result_.tasks[x.construct];
  ++c.instances;
  c.start_delay.add(now - std::min(now, x.created_ns));
  set_active(thread, x.construct, +1);
  resume(x, thread, now);
  push(x, c.root, FrameType::kRoot, now);
}

void ProfilePass::resume(Run& x, uint32_t thread, uint64_t now) {
  ThreadState& ts = thread_state(thread);
  ts.current = x.id;
  ts.current_hint = &x;
  if (x.running && !x.implicit) {
    // Still running elsewhere as far as we know (lost events): stop it there first.
    exit_stub(x, now);
    x.clock = clock(x, now);
    x.running = false;
  }
  // Scheduling points the task was switched out at end when it runs again.
  while (!x.frames.empty() && x.frames.back().type == FrameType::kSched) {
    close_top(x, now, thread);
  }
  if (x.implicit) return;
  TaskConstruct& c = result_.tasks[x.construct];
  if (x.thread != thread) {
    ++c.migrations;
    set_active(x.thread, x.construct, -1);
    set_active(thread, x.construct, +1);
    x.thread = thread;
  }
  x.running = true;
  x.since = now;
  ++x.fragments;
  ++c.fragments;
  enter_stub(x, thread, now);
}

void ProfilePass::suspend(Run& x, uint64_t now, bool yield) {
  if (yield) push(x, node(top_node(x), NodeKind::kTaskyield, 0, 0), FrameType::kSched, now);
  if (x.implicit || !x.running) return;
  exit_stub(x, now);
  x.clock = clock(x, now);
  x.running = false;
}

void ProfilePass::task_end(Run& x, uint32_t thread, uint64_t now, bool finished) {
  uint64_t total = clock(x, now);
  while (!x.frames.empty()) close_top(x, now, thread);
  if (x.running) exit_stub(x, now);
  x.running = false;
  TaskConstruct& c = result_.tasks[x.construct];
  c.time.add(total);
  if (!finished) ++c.unfinished;
  add_counters(x, c);
  for (const auto& p : x.params) {
    ParamSplit& split = param_split(x.construct, p.name);
    split.set_again += p.again;
    split.value(p.value).time.add(total);
  }
  set_active(x.thread, x.construct, -1);
  runs_.erase(x.id);
}

void ProfilePass::enter_stub(Run& task, uint32_t thread, uint64_t now) {
  ThreadState& ts = thread_state(thread);
  if (ts.implicit.empty()) return;
  uint64_t owner = ts.implicit.back().first;
  Run* imp = find_run(owner, ts.implicit_hint);
  if (!imp) return;
  uint32_t n = node(top_node(*imp), NodeKind::kStub, 0, result_.tasks[task.construct].codeptr);
  push(*imp, n, FrameType::kStub, now, task.id);
  task.stub_owner = owner;
  task.stub_owner_hint = imp;
}

void ProfilePass::exit_stub(Run& task, uint64_t now) {
  uint64_t owner = task.stub_owner;
  task.stub_owner = 0;
  Run* imp = find_run(owner, task.stub_owner_hint);
  // The fragment's counters are the stub's (and so its implicit task's nodes'); without
  // counters they stay 0.
  if (counter_count_) {
    std::array<uint64_t, format::kMaxCounters> fragment = task.fragment_counters;
    task.fragment_counters = {};
    if (imp) {
      for (uint32_t i = 0; i < counter_count_; ++i) imp->counter_sum[i] += fragment[i];
    }
  }
  if (!imp) return;
  uint64_t id = task.id;
  close_to(*imp, now, imp->thread,
           [id](const Frame& f) { return f.type == FrameType::kStub && f.match == id; });
}

}  // namespace tasklens::analysis
