// TaskModel: the waits of a task (taskwait, taskgroup, barrier, `taskwait depend`): when it
// enters one, when what it waits for is done (ready), when it leaves it.
#include <algorithm>

#include "format/event_views.h"
#include "format/kinds.h"
#include "replay/task_model.h"

namespace tasklens::replay {

using format::is_barrier;

void TaskModel::on_wait(const format::Event& e, uint32_t thread, bool construct) {
  const auto s = format::ev::SyncAny::of(e);
  ThreadInfo& th = threads_[thread];
  uint64_t id = format::ev::task_or(s.task, th.current);
  TaskInfo* t = find(id, current(thread));
  if (!t) return;
  using format::SyncKind;
  Wait w = Wait::kNone;
  if (s.sync_kind == uint16_t(SyncKind::kTaskwait))
    w = Wait::kTaskwait;
  else if (s.sync_kind == uint16_t(SyncKind::kTaskgroup))
    w = Wait::kTaskgroup;
  else if (is_barrier(s.sync_kind))
    w = Wait::kBarrier;
  if (w == Wait::kNone) return;  // e.g. a reduction's wait: the task is still busy
  // A taskgroup's sync_region spans its whole body: only its wait suspends the task.
  if (construct && w == Wait::kTaskgroup) return;
  uint64_t region_id =
      w == Wait::kBarrier ? (t->region ? t->region : (s.region ? s.region : th.region)) : 0;
  if (s.endpoint == uint8_t(format::Endpoint::kBegin)) {
    if (t->wait == w) return;  // already waiting: the wait inside its construct
    t->wait = w;
    t->wait_in_construct = construct;
    t->thread = thread;
    set_state(*t, TaskState::kSuspended);
    if (w == Wait::kBarrier) {
      Region& r = region(region_id);
      if (Phase* ph = phase(r, t->phase)) ++ph->in_barrier;
      r.waiting.push_back(id);
      check_barrier(region_id, t->phase);
    } else {
      check_wait_done(*t);
    }
    return;
  }
  if (s.endpoint != uint8_t(format::Endpoint::kEnd) || t->wait != w) return;
  // Entered at the construct: it ends with the construct, not with the wait inside it.
  if (t->wait_in_construct && !construct) return;
  t->wait = Wait::kNone;
  t->wait_in_construct = false;
  t->thread = thread;
  if (t->state != TaskState::kCompleted) set_state(*t, TaskState::kRunning);
  th.current = id;
  current_hint_[thread] = t;
  if (w == Wait::kBarrier) {
    if (Region* r = find_region(region_id)) {
      if (Phase* ph = phase(*r, t->phase)) {
        if (ph->in_barrier) --ph->in_barrier;
        ++ph->left;
      }
      // Barriers the whole team passed wait for nothing more.
      while (!r->phases.empty() && r->phases.front().left >= std::max(r->team_size, 1u)) {
        r->phases.pop_front();
        ++r->first_phase;
      }
      auto it = std::find(r->waiting.begin(), r->waiting.end(), id);
      if (it != r->waiting.end()) r->waiting.erase(it);
    }
    ++t->phase;
  }
}

void TaskModel::check_wait_done(TaskInfo& t) {
  if (t.state != TaskState::kSuspended) return;
  bool done = false;
  if (t.wait == Wait::kTaskwait && t.awaited) {
    const TaskInfo* marker = tasks_.find(t.awaited);
    done = !marker || (!marker->deps_pending && marker->pending_preds == 0);
  } else if (t.wait == Wait::kTaskwait) {
    done = t.live_children == 0;
  } else if (t.wait == Wait::kTaskgroup) {
    const Group* g = groups_.find(t.open_group);
    done = !g || g->live == 0;
  }
  if (done) set_state(t, TaskState::kReady);
}

// libomp reports `taskwait depend(...)` as a task flagged taskwait that never runs (no sync
// region): the creator waits in a taskwait from its creation, as in a plain one (tasks its thread
// runs meanwhile are nested in it), until the task's taskwait_complete.
void TaskModel::begin_taskwait_depend(TaskInfo& creator, const TaskInfo& marker, uint32_t thread) {
  if (creator.wait != Wait::kNone || creator.state != TaskState::kRunning) return;
  creator.wait = Wait::kTaskwait;
  creator.wait_in_construct = true;  // no sync_region_wait end ends it
  creator.awaited = marker.id;
  creator.thread = thread;
  set_state(creator, TaskState::kSuspended);
  check_wait_done(creator);
}

void TaskModel::end_taskwait_depend(TaskInfo& creator) {
  creator.awaited = 0;
  creator.wait = Wait::kNone;
  creator.wait_in_construct = false;
  if (creator.state == TaskState::kCompleted) return;
  // libomp reports the end on the waiting thread, back in the creator.
  if (creator.thread < threads_.size() && threads_[creator.thread].current == creator.id) {
    set_state(creator, TaskState::kRunning);
  } else {
    creator.wait = Wait::kNested;  // resumes when its thread comes back to it
    set_state(creator, TaskState::kSuspended);
  }
}

void TaskModel::check_barrier(uint64_t region_id, uint32_t k) {
  Region* r = find_region(region_id);
  Phase* ph = r && r->team_size ? phase(*r, k) : nullptr;
  // Everyone reached barrier k (some may have left it already) and its tasks are done.
  if (!ph || ph->in_barrier + ph->left < r->team_size || ph->live_explicit) return;
  for (uint64_t id : r->waiting) {
    TaskInfo* t = tasks_.find(id);
    if (t && t->phase == k && t->state == TaskState::kSuspended) {
      set_state(*t, TaskState::kReady);
    }
  }
}

void TaskModel::on_taskgroup(const format::Event& e, uint32_t thread) {
  const auto s = format::ev::SyncRegion::of(e);
  uint64_t id = format::ev::task_or(s.task, threads_[thread].current);
  TaskInfo* t = tasks_.find(id);
  if (!t) return;
  if (s.endpoint == uint8_t(format::Endpoint::kBegin)) {
    uint64_t g = next_group_id_++;
    uint64_t enclosing = t->open_group ? t->open_group : t->group;
    uint64_t prev_open = t->open_group;
    Group& G = groups_[g];
    G.parent = enclosing;
    G.owner = id;
    G.live = 0;
    // Remember what was open before in the parent link of the owner: restored at the end.
    t->open_group = g;
    prev_open_[g] = prev_open;
  } else if (s.endpoint == uint8_t(format::Endpoint::kEnd) && t->open_group) {
    uint64_t g = t->open_group;
    uint64_t* prev = prev_open_.find(g);
    t->open_group = prev ? *prev : 0;
    prev_open_.erase(g);
    groups_.erase(g);
  }
}

}  // namespace tasklens::replay
