// TimelinePass: replayed events turned into nested enter/leave, switches, states, relations.
#include "export/timeline.h"

#include <algorithm>

#include "format/event_views.h"
#include "format/experiment.h"
#include "format/kinds.h"

namespace tasklens::exports {

using format::Endpoint;
using format::Kind;
using format::TaskStatus;
using replay::TaskState;

const char* thread_state_name(ThreadState s) {
  switch (s) {
    case ThreadState::kNotCreated:
      return "not created";
    case ThreadState::kIdle:
      return "idle";
    case ThreadState::kRunning:
      return "running";
    case ThreadState::kSynchronization:
      return "synchronization";
    case ThreadState::kOverhead:
      return "runtime overhead";
  }
  return "?";
}

namespace {

constexpr Construct kNone = Construct::kCount;
using format::mutex_construct;
using format::sync_construct;
using format::work_construct;

bool begins(const format::Event& e) {
  return format::ev::EndpointAny::of(e).endpoint == uint8_t(Endpoint::kBegin);
}
bool ends(const format::Event& e) {
  return format::ev::EndpointAny::of(e).endpoint == uint8_t(Endpoint::kEnd);
}

}  // namespace

TimelinePass::TimelinePass(TimelineSink& sink, RegionTable& regions, const Filter& filter)
    : sink_(sink), regions_(regions), filter_(filter) {}

void TimelinePass::begin(const replay::ReplayInfo& info) {
  info_.experiment = info.experiment;
  info_.regions = &regions_;
  info_.filter = &filter_;
  info_.threads = info.threads;
  info_.from_ns = filter_.from_ns;
  info_.to_ns = std::max(filter_.from_ns, std::min(filter_.to_ns, info.end_ns));
  stacks_.assign(info.threads, Stack{});
  // Without dependence events (as the recorder counted them) no edge can name a completed task.
  if (const format::Experiment* x = info.experiment; x && x->metadata.counts) {
    remember_done_ = x->metadata.count(format::layout(Kind::kDependence).name.data()) ||
                     x->metadata.count(format::layout(Kind::kTaskDependence).name.data());
  }
  sink_.begin(info_);
}

// The values of a `counters` event, each index bounded by the metadata's counters (damage aside).
void TimelinePass::counters(const replay::Record& r, const replay::TaskModel&) {
  if (!emitting(r.thread) || !filter_.shows(r.thread, r.ev.time) || !info_.experiment) return;
  const auto c = format::ev::Counters::of(r.ev);
  size_t known = info_.experiment->metadata.counters.size();
  for (uint32_t i = 0; i < c.count && i < format::kCountersPerEvent; ++i) {
    uint32_t index = uint32_t(c.first) + i;
    if (index >= known || index >= format::kMaxCounters) break;
    sink_.counter_value(r.thread, r.ev.time, index, c.value(i));
  }
}

// ---- events -----------------------------------------------------------------------------------

void TimelinePass::before(const replay::Record& r, const replay::TaskModel& m) {
  if (closed_) return;
  if (!open_ && r.ev.time >= info_.from_ns) open_window(info_.from_ns, m);
  if (open_ && r.ev.time > info_.to_ns) close_window(info_.to_ns);
}

void TimelinePass::after(const replay::Record& r, const replay::TaskModel& m) {
  if (closed_ || r.thread >= stacks_.size()) return;
  on_event(r, m);
  after_event(r, m);
}

void TimelinePass::on_event(const replay::Record& r, const replay::TaskModel& m) {
  const format::Event& e = r.ev;
  const uint32_t th = r.thread;
  const uint64_t t = e.time;
  switch (e.kind) {
    case Kind::kThreadEnd:
      while (!stacks_[th].frames.empty()) take_top(th, t);
      break;
    case Kind::kParallelBegin: {
      const auto pb = format::ev::ParallelBegin::of(e);
      uint64_t encountering = format::ev::task_or(pb.task, top(th));
      if (encountering) {
        enter_in(th, t, encountering, regions_.intern(Construct::kParallel, pb.codeptr));
      }
      if (emitting(th)) sink_.fork(th, t, pb.requested);
      break;
    }
    case Kind::kParallelEnd: {
      const auto pe = format::ev::ParallelEnd::of(e);
      uint64_t encountering = format::ev::task_or(pe.task, top(th));
      if (encountering) leave_in(th, t, encountering, Construct::kParallel, 0, true);
      if (emitting(th)) sink_.join(th, t);
      break;
    }
    case Kind::kImplicitTask:
      on_implicit_task(e, th, m);
      break;
    case Kind::kTaskCreate:
      on_create(e, th, m.task_code(format::ev::TaskCreate::of(e).task));
      break;
    case Kind::kTaskSchedule:
      on_schedule(e, th, m);
      break;
    case Kind::kSyncRegion:
    case Kind::kReduction: {
      const auto s = format::ev::SyncAny::of(e);
      Construct kind = sync_construct(s.sync_kind);
      uint64_t id = format::ev::task_or(s.task, top(th));
      if (kind == kNone || !id) break;
      if (begins(e)) {
        uint64_t code = m.sync_code(e, th);
        // Workers see no code address for the parallel's end barrier: name it after the parallel.
        if (!code) code = m.region_code(s.region);
        enter_in(th, t, id, regions_.intern(kind, code));
      } else if (ends(e)) {
        leave_in(th, t, id, kind, 0, true);
      }
      break;
    }
    case Kind::kWork:
    case Kind::kMasked: {
      const auto c = format::ev::ConstructAny::of(e);
      Construct kind = e.kind == Kind::kMasked ? Construct::kMasked
                                               : work_construct(format::ev::Work::of(e).work_type);
      uint64_t id = format::ev::task_or(c.task, top(th));
      if (kind == kNone || !id) break;
      if (begins(e))
        enter_in(th, t, id, regions_.intern(kind, c.codeptr));
      else if (ends(e))
        leave_in(th, t, id, kind, 0, true);
      break;
    }
    case Kind::kMutexAcquire: {
      const auto a = format::ev::MutexAcquire::of(e);
      Construct kind = mutex_construct(a.mutex_kind);
      uint64_t id = top(th);
      if (kind == kNone || !id) break;
      enter_in(th, t, id, regions_.intern(kind, a.codeptr));
      stacks_[th].mutex_wait = true;
      break;
    }
    case Kind::kMutexAcquired:
      stacks_[th].mutex_wait = false;
      break;
    case Kind::kMutexReleased: {
      const auto rel = format::ev::MutexReleased::of(e);
      Construct kind = mutex_construct(rel.mutex_kind);
      uint64_t id = top(th);
      if (kind != kNone && id) leave_in(th, t, id, kind, 0, true);
      break;
    }
    case Kind::kUserRegion: {
      const auto u = format::ev::UserRegion::of(e);
      uint64_t id = top(th);
      if (!id) break;
      if (begins(e))
        enter_in(th, t, id, regions_.intern(Construct::kUser, u.name));
      else if (ends(e))
        leave_in(th, t, id, Construct::kUser, u.name, false);
      break;
    }
    case Kind::kMpiCall: {
      // An MPI call: a region of its own (MPI_Barrier, ...) in the calling thread's task; calls
      // do not nest (the library's own PMPI calls are not recorded), so the end closes the
      // innermost one whatever its op says.
      const auto c = format::ev::MpiCall::of(e);
      uint64_t id = top(th);
      if (!id) break;
      if (begins(e)) {
        enter_in(th, t, id, regions_.intern(Construct::kMpi, c.mpi_op));
        if (emitting(th)) sink_.mpi_call(th, t, c);
      } else if (ends(e)) {
        if (emitting(th)) sink_.mpi_call(th, t, c);
        leave_in(th, t, id, Construct::kMpi, 0, true);
      }
      break;
    }
    case Kind::kUserParam:
      if (emitting(th)) {
        const auto up = format::ev::UserParam::of(e);
        sink_.parameter(th, t, up.name, up.value);
      }
      break;
    default:
      break;
  }
}

void TimelinePass::on_implicit_task(const format::Event& e, uint32_t th,
                                    const replay::TaskModel& m) {
  const auto it = format::ev::ImplicitTask::of(e);
  if (begins(e)) {
    uint64_t parent = top(th);
    uint64_t code = m.region_code(it.region);
    bool initial = it.flags & format::task_flag::kInitial;
    TimelineTask& T = add(it.task, e.time);
    T.parent = parent;
    T.flags = it.flags ? it.flags : format::task_flag::kImplicit;
    T.region = initial ? regions_.intern(Construct::kInitialTask, 0)
                       : regions_.intern(Construct::kImplicitTask, code);
    T.creator_thread = th;
    T.created_ns = e.time;
    push(th, e.time, T);
  } else if (ends(e)) {
    uint64_t id = format::ev::task_or(it.task, top(th));
    if (id) finish_body(th, e.time, id);
  }
}

void TimelinePass::on_create(const format::Event& e, uint32_t th, uint64_t code) {
  const auto tc = format::ev::TaskCreate::of(e);
  TimelineTask& T = add(tc.task, e.time);
  T.parent = tc.parent;
  T.flags = tc.flags;
  T.creator_thread = th;
  T.created_ns = e.time;
  if (T.is_taskwait_depend()) {
    // Its region is its creator's taskwait, named after the construct as DOT names it.
    T.region = regions_.intern(Construct::kTaskwait, code);
    T.parent = format::ev::task_or(tc.parent, top(th));
    if (T.parent) enter_in(th, e.time, T.parent, T.region);
    return;
  }
  bool untied = tc.flags & format::task_flag::kUntied;
  T.region = regions_.intern(untied ? Construct::kUntiedTask : Construct::kTask, code);
  if (emitting(th)) sink_.task_create(th, e.time, T, find(tc.parent));
}

// Its creator leaves the taskwait; the clause's dependences reach the wait's end. The record
// completes as a task does (after_event), so a later task that names the same data depends on
// the wait's end, here.
void TimelinePass::end_taskwait_depend(TimelineTask& wait, uint32_t th, uint64_t t) {
  if (!wait.parent) return;
  leave_in(th, t, wait.parent, Construct::kTaskwait, 0, true);
  TimelineTask* creator = find(wait.parent);
  if (creator && emitting(th) && !wait.deps_in.empty()) {
    sink_.wait_dependences(th, t, *creator, wait.deps_in);
  }
  wait.deps_in.clear();
}

void TimelinePass::on_schedule(const format::Event& e, uint32_t th, const replay::TaskModel& m) {
  const auto s = format::ev::TaskSchedule::of(e);
  auto status = TaskStatus(s.status);
  if (status == TaskStatus::kLateFulfill) return;  // completion only: the model's transition
  uint64_t prior = s.prior, next = s.next;
  if (prior && prior != next) {
    switch (status) {
      case TaskStatus::kComplete:
      case TaskStatus::kCancel:
      case TaskStatus::kDetach:
      case TaskStatus::kTaskwaitComplete:
        finish_body(th, e.time, prior);
        break;
      case TaskStatus::kSwitch:
      case TaskStatus::kYield: {
        // An untied task switched out may resume on any thread: its frame leaves this one.
        // A tied one stays under what runs next, as on the thread's call stack.
        const replay::TaskInfo* info = m.task(prior);
        if (info && info->state == TaskState::kReady && top(th) == prior) take_top(th, e.time);
        break;
      }
      default:
        break;
    }
  }
  if (next && status != TaskStatus::kEarlyFulfill) activate(th, e.time, next);
}

void TimelinePass::after_event(const replay::Record& r, const replay::TaskModel& m) {
  const uint32_t th = r.thread;
  const uint64_t t = r.ev.time;
  announce(th, t);
  for (const replay::Edge& edge : m.new_edges()) {
    TimelineTask* succ = find(edge.succ);
    if (!succ || succ->started) continue;
    TimelineTask* pred = find(edge.pred);
    if (pred && !pred->completed) {
      auto& s = pred->successors;
      if (std::find(s.begin(), s.end(), edge.succ) == s.end()) s.push_back(edge.succ);
    } else if (const DepIn* done = recent_.find(edge.pred)) {
      succ->deps_in.push_back(*done);
    }
  }
  for (const replay::Transition& tr : m.transitions()) {
    TimelineTask* T = find(tr.task);
    if (!T) continue;
    if (open_ && shows_task(*T)) sink_.task_state(t, *T, tr.to);
    if (tr.to != TaskState::kCompleted || T->completed) continue;
    T->completed = true;
    DepIn done{T->id, th, t, T->slot};
    for (uint64_t s : T->successors) {
      TimelineTask* succ = find(s);
      if (succ && !succ->started) succ->deps_in.push_back(done);
    }
    if (remember_done_) recent_.add(T->id, done);  // a cache miss per task: not for nothing
    done_.push_back(T->id);
  }
  update_states(r, m);
  for (uint64_t id : done_) erase(id, t);
  done_.clear();
}

// ---- states -----------------------------------------------------------------------------------

ThreadState TimelinePass::state_of(uint32_t th, const replay::TaskModel& m) const {
  const replay::ThreadInfo& info = m.thread(th);
  if (!info.exists) return ThreadState::kNotCreated;
  if (stacks_[th].mutex_wait) return ThreadState::kSynchronization;
  if (m.working(th)) return ThreadState::kRunning;
  if (m.ready_count() > 0) return ThreadState::kOverhead;
  const replay::TaskInfo* cur = m.task(info.current);
  if (cur && (cur->wait == replay::Wait::kTaskwait || cur->wait == replay::Wait::kTaskgroup ||
              cur->wait == replay::Wait::kBarrier)) {
    return ThreadState::kSynchronization;
  }
  return ThreadState::kIdle;
}

void TimelinePass::update_states(const replay::Record& r, const replay::TaskModel& m) {
  const uint64_t t = r.ev.time;
  uint64_t ready = m.ready_count();
  bool flipped = !ready_seen_ || (ready > 0) != (ready_ > 0);
  if (!ready_seen_ || ready != ready_) {
    ready_ = ready;
    ready_seen_ = true;
    if (open_) sink_.ready_tasks(t, ready);
  }
  auto refresh = [&](uint32_t p) {
    ThreadState s = state_of(p, m);
    if (s == stacks_[p].state) return;
    stacks_[p].state = s;
    if (emitting(p)) sink_.thread_state(p, t, s);
  };
  uint32_t n = uint32_t(stacks_.size());
  if (flipped) {
    for (uint32_t p = 0; p < n; ++p) refresh(p);
    return;
  }
  refresh(r.thread);
  // Another thread's state changes when its current task changed state (a migration, a wait
  // that can end).
  for (const replay::Transition& tr : m.transitions()) {
    for (uint32_t p = 0; p < n; ++p) {
      if (p != r.thread && m.thread(p).current == tr.task) refresh(p);
    }
  }
}

// ---- the window -------------------------------------------------------------------------------

void TimelinePass::open_window(uint64_t t, const replay::TaskModel& m) {
  open_ = true;
  for (uint32_t p = 0; p < stacks_.size(); ++p) {
    Stack& s = stacks_[p];
    s.state = state_of(p, m);
    if (!filter_.thread(p)) continue;
    sink_.thread_state(p, t, s.state);
    for (size_t i = 0; i < s.frames.size(); ++i) {
      TimelineTask* T = find(s.frames[i]);
      if (!T) continue;
      if (i + 1 == s.frames.size()) {
        SwitchInfo how;
        how.resumed_here = true;
        sink_.task_switch(p, t, T, how);
      }
      sink_.enter(p, t, T->region, *T);
      for (uint32_t r : T->open) sink_.enter(p, t, r, *T);
    }
    s.announced = s.frames.empty() ? 0 : s.frames.back();
  }
  ready_ = m.ready_count();
  ready_seen_ = true;
  sink_.ready_tasks(t, ready_);
  for (uint64_t id : live_task_ids()) {
    TimelineTask& T = *find(id);
    const replay::TaskInfo* info = m.task(id);
    if (info && shows_task(T)) sink_.task_state(t, T, info->state);
  }
}

std::vector<uint64_t> TimelinePass::live_task_ids() {
  std::vector<uint64_t> ids;
  tasks_.for_each([&](uint64_t id, const TimelineTask&) { ids.push_back(id); });
  std::sort(ids.begin(), ids.end());
  return ids;
}

void TimelinePass::close_window(uint64_t t) {
  for (uint32_t p = 0; p < stacks_.size(); ++p) {
    if (!filter_.thread(p)) continue;
    const auto& f = stacks_[p].frames;
    for (size_t i = f.size(); i-- > 0;) {
      TimelineTask* T = find(f[i]);
      if (!T) continue;
      for (size_t j = T->open.size(); j-- > 0;) sink_.leave(p, t, T->open[j], *T);
      sink_.leave(p, t, T->region, *T);
    }
  }
  for (uint64_t id : live_task_ids()) {
    TimelineTask& T = *find(id);
    if (shows_task(T)) sink_.task_alive_at_end(t, T);
  }
  closed_ = true;
  sink_.end(t);
}

void TimelinePass::end(const replay::ReplayInfo& info, const replay::TaskModel& m) {
  if (closed_) return;
  if (!open_) open_window(info_.from_ns, m);
  close_window(std::max(info_.from_ns, std::min(info_.to_ns, info.end_ns)));
}

}  // namespace tasklens::exports
