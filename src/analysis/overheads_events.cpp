// OverheadsPass: the OMPT events that open and close region contexts and construct frames.
#include "analysis/overheads_state.h"
#include "format/event_views.h"
#include "format/kinds.h"

namespace tasklens::analysis {

using format::Endpoint;
using format::is_barrier;
using format::Kind;
using format::SyncKind;
using format::WorkType;
using replay::TaskInfo;

namespace {

// Unknown work types count as loops.
Construct work_or_loop(uint16_t type) {
  Construct c = format::work_construct(type);
  return c == Construct::kCount ? Construct::kLoop : c;
}

// Unknown mutex kinds and the test locks count as locks.
Construct mutex_or_lock(uint16_t kind) {
  Construct c = format::mutex_construct(kind);
  return c == Construct::kCount ? Construct::kLock : c;
}

}  // namespace

void OverheadsPass::State::on_event(uint32_t p, const Event& e) {
  ThreadState& ts = threads[p];
  if (!ts.contexts.empty() && e.kind != Kind::kMutexAcquired &&
      ts.contexts.back().frames.back().kind == FrameKind::kMutexWait) {
    // A mutex_acquire with no mutex_acquired (a failed test_lock) ends at the next event.
    pop_frame(ts, ts.contexts.size() - 1, e.time);
  }
  switch (e.kind) {
    case Kind::kParallelBegin:
      on_parallel_begin(p, e);
      break;
    case Kind::kParallelEnd:
      on_parallel_end(p, e);
      break;
    case Kind::kImplicitTask:
      on_implicit_task(p, e);
      break;
    case Kind::kWork:
      on_work(p, e);
      break;
    case Kind::kMasked:
      on_bracket(p, e, FrameKind::kMasked, Construct::kMasked);
      break;
    case Kind::kSyncRegion:
    case Kind::kSyncRegionWait:
      on_sync(p, e);
      break;
    case Kind::kReduction:
      on_bracket(p, e, FrameKind::kReduction, Construct::kReduction);
      break;
    case Kind::kMutexAcquire:
    case Kind::kMutexAcquired:
    case Kind::kMutexReleased:
      on_mutex(p, e);
      break;
    default:
      break;
  }
}

void OverheadsPass::State::on_parallel_begin(uint32_t p, const Event& e) {
  const auto pb = format::ev::ParallelBegin::of(e);
  // The region id began already (a duplicated or damaged chunk): that instance ends here, or
  // replacing it would leave the contexts of its team pointing at freed memory.
  if (Instance* old = instance(pb.region)) {
    finalize(*old, std::max(e.time, old->begin_ns));
    erase_instance(pb.region);
  }
  ThreadState& ts = threads[p];
  auto in = std::make_unique<Instance>();
  in->id = pb.region;
  in->codeptr = pb.codeptr;
  in->begin_ns = e.time;
  in->requested = pb.requested;
  in->level = uint32_t(ts.contexts.size() + 1);
  in->region = region_of(pb.codeptr, in->level);
  if (!ts.contexts.empty()) {
    Context& x = ts.contexts.back();
    uint32_t k = construct_of(x.inst->region, Construct::kNestedParallel, pb.codeptr);
    push(x, FrameKind::kNested, k, current(p), e.time, pb.region, pb.codeptr);
  }
  add_instance(pb.region, std::move(in));
}

void OverheadsPass::State::on_parallel_end(uint32_t p, const Event& e) {
  const auto pe = format::ev::ParallelEnd::of(e);
  if (Instance* in = instance(pe.region)) {
    finalize(*in, e.time);
    erase_instance(pe.region);
  }
  ThreadState& ts = threads[p];
  if (ts.contexts.empty()) return;
  size_t depth = ts.contexts.size() - 1;
  size_t i = find_frame(ts.contexts[depth], FrameKind::kNested, 0);
  if (i && ts.contexts[depth].frames[i].key == pe.region) pop_to(ts, depth, i, e.time);
}

void OverheadsPass::State::on_implicit_task(uint32_t p, const Event& e) {
  const auto it = format::ev::ImplicitTask::of(e);
  if (it.flags & format::task_flag::kInitial) return;  // the initial task: not a region
  ThreadState& ts = threads[p];
  if (it.endpoint == uint8_t(Endpoint::kBegin)) {
    if (!it.region) return;
    Instance* in = instance(it.region);
    if (!in) {  // its parallel_begin is not in the trace: the region starts here
      auto made = std::make_unique<Instance>();
      made->id = it.region;
      made->begin_ns = e.time;
      made->level = uint32_t(ts.contexts.size() + 1);
      made->region = region_of(0, made->level);
      in = made.get();
      add_instance(it.region, std::move(made));
    }
    in->team = std::max(in->team, replay::bounded_team(it.team_size, team_limit));
    uint32_t index = replay::bounded_team(uint64_t(it.index) + 1, team_limit) - 1;
    in->team = std::max(in->team, index + 1);
    Context x;
    x.inst = in;
    x.index = index;
    x.implicit_task = it.task;
    x.begin_ns = e.time;
    push(x, FrameKind::kImplicit, 0, it.task, e.time);
    ts.contexts.push_back(std::move(x));
    in->members.push_back(p);
    if (in->started_index.size() <= index) in->started_index.resize(index + 1);
    in->started_index[index] = 1;
    // The thread's time since the region began, off its CPU or not: preempted time is in no
    // class here either (a worker spinning for its next region on a shared CPU). No switch
    // split it: before its implicit task the thread had no segment in this region.
    const uint64_t gap = e.time > in->begin_ns ? e.time - in->begin_ns : 0;
    const uint64_t off = std::min(gap, preempted.within(p, in->begin_ns, e.time));
    CostTimes startup;
    startup[Cost::kThreadManagement] = gap - off;
    startup[Cost::kPreempted] = off;
    // Not outward: an enclosing region saw this time already, on the encountering thread.
    commit(ts, ts.contexts.size() - 1, 0, startup, /*outward=*/false);
    return;
  }
  if (ts.contexts.empty()) return;
  Context& x = ts.contexts.back();
  if (it.task && it.task != x.implicit_task) return;
  pop_to(ts, ts.contexts.size() - 1, 1, e.time);
  x.ended = true;
}

void OverheadsPass::State::on_work(uint32_t p, const Event& e) {
  const auto w = format::ev::Work::of(e);
  ThreadState& ts = threads[p];
  if (ts.contexts.empty()) return;
  size_t depth = ts.contexts.size() - 1;
  Context& x = ts.contexts[depth];
  if (w.endpoint == uint8_t(Endpoint::kBegin)) {
    Construct kind = work_or_loop(w.work_type);
    uint32_t k = construct_of(x.inst->region, kind, w.codeptr);
    if (kind == Construct::kSections) {
      auto& c = regions[x.inst->region].constructs[k];
      c.sections = std::max(c.sections, w.count);
    }
    push(x, FrameKind::kWork, k, format::ev::task_or(w.task, current(p)), e.time, w.work_type,
         w.codeptr);
    x.last_work = -1;
    return;
  }
  for (size_t i = x.frames.size(); i-- > 1;) {
    if (x.frames[i].kind == FrameKind::kWork && x.frames[i].key == w.work_type) {
      pop_to(ts, depth, i, e.time);
      return;
    }
  }
}

// masked and reduction: a begin/end bracket of the encountering task.
void OverheadsPass::State::on_bracket(uint32_t p, const Event& e, FrameKind kind,
                                      Construct construct) {
  const auto s = format::ev::ConstructAny::of(e);
  ThreadState& ts = threads[p];
  if (ts.contexts.empty()) return;
  size_t depth = ts.contexts.size() - 1;
  Context& x = ts.contexts[depth];
  uint64_t task = format::ev::task_or(s.task, current(p));
  if (s.endpoint == uint8_t(Endpoint::kBegin)) {
    push(x, kind, construct_of(x.inst->region, construct, s.codeptr), task, e.time);
  } else if (size_t i = find_frame(x, kind, task)) {
    pop_to(ts, depth, i, e.time);
  }
}

void OverheadsPass::State::on_sync(uint32_t p, const Event& e) {
  const auto s = format::ev::SyncAny::of(e);
  ThreadState& ts = threads[p];
  if (ts.contexts.empty()) return;
  size_t depth = ts.contexts.size() - 1;
  Context& x = ts.contexts[depth];
  uint64_t task = format::ev::task_or(s.task, current(p));
  bool begin = s.endpoint == uint8_t(Endpoint::kBegin);
  bool wait = e.kind == Kind::kSyncRegionWait;
  FrameKind kind;
  Construct construct;
  if (is_barrier(s.sync_kind)) {
    kind = FrameKind::kBarrier, construct = Construct::kBarrier;
  } else if (s.sync_kind == uint16_t(SyncKind::kTaskwait)) {
    kind = FrameKind::kTaskwait, construct = Construct::kTaskwait;
  } else if (s.sync_kind == uint16_t(SyncKind::kTaskgroup)) {
    kind = wait ? FrameKind::kTaskgroupWait : FrameKind::kTaskgroup;
    construct = Construct::kTaskgroup;
    wait = false;  // the taskgroup's wait is a frame of its own
  } else if (s.sync_kind == uint16_t(SyncKind::kReduction) && !wait) {
    kind = FrameKind::kReduction, construct = Construct::kReduction;
  } else {
    return;
  }
  if (begin) {
    // sync_region_wait inside the sync_region of the same construct (the innermost frame of this
    // kind and task is the top one): nothing new.
    const Frame& top = x.frames.back();
    if (wait && x.frames.size() > 1 && top.kind == kind && (task == 0 || top.task == task)) return;
    if (kind == FrameKind::kBarrier) return barrier_begin(p, e, task, wait);
    uint32_t k;
    if (kind == FrameKind::kTaskgroupWait && find_frame(x, FrameKind::kTaskgroup, task)) {
      k = x.frames[find_frame(x, FrameKind::kTaskgroup, task)].construct;
    } else {
      k = construct_of(x.inst->region, construct, s.codeptr);
    }
    push(x, kind, k, task, e.time, 0, s.codeptr);
    x.frames.back().from_wait = wait;
    return;
  }
  size_t i = find_frame(x, kind, task);
  if (!i) return;
  if (kind == FrameKind::kBarrier && s.region == 0 &&
      s.sync_kind != uint16_t(SyncKind::kBarrierExplicit)) {
    // libomp: parallel_data is NULL when a parallel region's end barrier ends.
    Frame& f = x.frames[i];
    if (BarrierInstance* b = barrier_at(*x.inst, f.key, false); b && !b->is_explicit) {
      b->is_end = true;
    }
  }
  // sync_region_wait ends only a frame it began; sync_region ends the construct.
  if (wait && !x.frames[i].from_wait) return;
  pop_to(ts, depth, i, e.time);
}

void OverheadsPass::State::barrier_begin(uint32_t p, const Event& e, uint64_t task,
                                         bool from_wait) {
  const auto s = format::ev::SyncAny::of(e);
  ThreadState& ts = threads[p];
  size_t depth = ts.contexts.size() - 1;
  Context& x = ts.contexts[depth];
  Instance& in = *x.inst;
  uint64_t k = x.barriers++;
  BarrierInstance* b = barrier_at(in, k, true);
  auto kind = SyncKind(s.sync_kind);
  bool implicit = format::is_implicit_barrier(s.sync_kind) ||
                  (kind == SyncKind::kBarrier && (s.codeptr == 0 || s.codeptr == in.codeptr));
  // libomp 14 reports both kinds of implicit barrier as barrier_implicit; the parallel end
  // barrier has the region's codeptr on the primary thread and none on the workers.
  bool end = kind == SyncKind::kBarrierImplicitParallel ||
             (implicit && kind != SyncKind::kBarrierImplicitWorkshare &&
              (s.codeptr == 0 || s.codeptr == in.codeptr));
  if (b) {
    if (!implicit) b->is_explicit = true;
    if (end) b->is_end = true;
    // The construct it ends; an end barrier too can end one that has no barrier of its own
    // (nowait, or GCC's single whose barrier is the region's).
    if (implicit && x.last_work >= 0 && b->work < 0) b->work = x.last_work;
    if (++b->arrived == in.team) {
      b->last_arrival = e.time;
      b->at_last_arrival = integral();
      b->last_begin = x.begin_ns;
      if (in.live_tasks == 0) {
        b->tasks_done = e.time;
        b->at_tasks_done = integral();
      } else {
        in.waiting_for_tasks = int64_t(k);
      }
    }
  }
  x.last_work = -1;
  push(x, FrameKind::kBarrier, 0, task, e.time, k, s.codeptr);
  x.frames.back().from_wait = from_wait;
}

void OverheadsPass::State::on_mutex(uint32_t p, const Event& e) {
  const auto m = format::ev::MutexAny::of(e);
  ThreadState& ts = threads[p];
  if (ts.contexts.empty()) return;
  size_t depth = ts.contexts.size() - 1;
  Context& x = ts.contexts[depth];
  uint64_t task = current(p);
  Construct kind = mutex_or_lock(m.mutex_kind);
  if (e.kind == Kind::kMutexAcquire) {
    uint32_t k = construct_of(x.inst->region, kind, m.codeptr);
    ++timing(x, k).count;
    push(x, FrameKind::kMutexWait, k, task, e.time, m.wait_id, m.codeptr);
    return;
  }
  if (e.kind == Kind::kMutexAcquired) {
    uint32_t k;
    const Frame& top = x.frames.back();
    if (top.kind == FrameKind::kMutexWait && top.key == m.wait_id) {
      k = top.construct;
      pop_frame(ts, depth, e.time);
    } else {
      k = construct_of(x.inst->region, kind, m.codeptr);
      ++timing(x, k).count;
    }
    if (kind == Construct::kAtomic) {
      push(x, FrameKind::kAtomic, k, task, e.time, m.wait_id, m.codeptr);
    } else {
      x.held.push_back(Held{m.wait_id, k, task, e.time, {}});
    }
    return;
  }
  if (x.frames.back().kind == FrameKind::kAtomic && x.frames.back().key == m.wait_id) {
    pop_frame(ts, depth, e.time);
    return;
  }
  for (size_t i = x.held.size(); i-- > 0;) {
    if (x.held[i].wait_id == m.wait_id) return release_held(ts, depth, i, e.time);
  }
}

void OverheadsPass::State::on_task_created(uint32_t p, const Event& e) {
  const auto c = format::ev::TaskCreate::of(e);
  const TaskInfo* t = model->task(c.task);
  if (t && t->is_taskwait_depend()) return taskwait_depend(p, *t, e.time, true);
  if (!t || !t->is_explicit() || !t->region) return;
  if (Instance* in = instance(t->region)) ++in->live_tasks;
}

void OverheadsPass::State::on_task_completed(uint64_t id) {
  const TaskInfo* t = model->task(id);
  if (!t || !t->is_explicit() || !t->region) return;
  Instance* in = instance(t->region);
  if (!in || in->live_tasks == 0) return;
  if (--in->live_tasks == 0 && in->waiting_for_tasks >= 0) {
    BarrierInstance* b = barrier_at(*in, uint64_t(in->waiting_for_tasks), false);
    if (b && b->tasks_done == kNever) {
      b->tasks_done = now;
      b->at_tasks_done = integral();
    }
    in->waiting_for_tasks = -1;
  }
}

// libomp reports no sync region for `taskwait depend`: a taskwait's frame all the same, as long
// as its creator waits in the model (from the creation of the task that stands for it).
void OverheadsPass::State::taskwait_depend(uint32_t p, const TaskInfo& t, uint64_t time,
                                           bool begin) {
  ThreadState& ts = threads[p];
  if (ts.contexts.empty()) return;
  size_t depth = ts.contexts.size() - 1;
  Context& x = ts.contexts[depth];
  if (begin) {
    uint32_t k = construct_of(x.inst->region, Construct::kTaskwait, t.codeptr);
    push(x, FrameKind::kTaskwait, k, t.parent, time, 0, t.codeptr);
  } else if (size_t i = find_frame(x, FrameKind::kTaskwait, t.parent)) {
    pop_to(ts, depth, i, time);
  }
}

// A task body ended on thread p: one more execution of its task construct.
void OverheadsPass::State::on_task_body_end(uint32_t p, const Event& e) {
  const auto s = format::ev::TaskSchedule::of(e);
  auto status = format::TaskStatus(s.status);
  if (status == format::TaskStatus::kTaskwaitComplete) {
    if (const TaskInfo* t = model->task(s.prior); t && t->is_taskwait_depend()) {
      taskwait_depend(p, *t, e.time, false);
    }
    return;
  }
  if (status != format::TaskStatus::kComplete && status != format::TaskStatus::kDetach) return;
  ThreadState& ts = threads[p];
  const TaskInfo* t = model->task(s.prior);
  if (ts.contexts.empty() || !t || !t->is_explicit()) return;
  Context& x = ts.contexts.back();
  ++timing(x, task_construct(x, t->codeptr)).count;
}

}  // namespace tasklens::analysis
