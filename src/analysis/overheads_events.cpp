// OverheadsPass: the OMPT events that open and close region contexts and construct frames.
#include "analysis/overheads_state.h"


#include "format/kinds.h"

namespace tasklens::analysis {

using format::Endpoint;
using format::Kind;
using format::is_barrier;
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
  if (ts.ignore_task) {
    // libomp reports a worker's end barrier and implicit-task end when it wakes up for the
    // next region (or exits): long after the region ended. Skip them.
    uint64_t task = 0;
    switch (e.kind) {
      case Kind::kImplicitTask: task = e.a; break;
      case Kind::kSyncRegion:
      case Kind::kSyncRegionWait:
      case Kind::kWork:
      case Kind::kMasked:
      case Kind::kReduction: task = e.b; break;
      default: break;
    }
    if (task == ts.ignore_task) {
      if (e.kind == Kind::kImplicitTask && e.op == uint8_t(Endpoint::kEnd)) ts.ignore_task = 0;
      return;
    }
    if (e.kind == Kind::kImplicitTask && e.op == uint8_t(Endpoint::kBegin)) ts.ignore_task = 0;
  }
  if (!ts.contexts.empty() && e.kind != Kind::kMutexAcquired &&
      ts.contexts.back().frames.back().kind == FrameKind::kMutexWait) {
    // A mutex_acquire with no mutex_acquired (a failed test_lock) ends at the next event.
    pop_frame(ts, ts.contexts.size() - 1, e.time);
  }
  switch (e.kind) {
    case Kind::kParallelBegin: on_parallel_begin(p, e); break;
    case Kind::kParallelEnd: on_parallel_end(p, e); break;
    case Kind::kImplicitTask: on_implicit_task(p, e); break;
    case Kind::kWork: on_work(p, e); break;
    case Kind::kMasked: on_bracket(p, e, FrameKind::kMasked, Construct::kMasked); break;
    case Kind::kSyncRegion:
    case Kind::kSyncRegionWait: on_sync(p, e); break;
    case Kind::kReduction:
      on_bracket(p, e, FrameKind::kReduction, Construct::kReduction);
      break;
    case Kind::kMutexAcquire:
    case Kind::kMutexAcquired:
    case Kind::kMutexReleased: on_mutex(p, e); break;
    default: break;
  }
}

void OverheadsPass::State::on_parallel_begin(uint32_t p, const Event& e) {
  // The region id began already (a duplicated or damaged chunk): that instance ends here, or
  // replacing it would leave the contexts of its team pointing at freed memory.
  if (Instance* old = instance(e.a)) {
    finalize(*old, std::max(e.time, old->begin_ns));
    instances.erase(e.a);
  }
  ThreadState& ts = threads[p];
  auto in = std::make_unique<Instance>();
  in->id = e.a;
  in->codeptr = e.c;
  in->begin_ns = e.time;
  in->requested = e.sub;
  in->level = uint32_t(ts.contexts.size() + 1);
  in->region = region_of(e.c, in->level);
  if (!ts.contexts.empty()) {
    Context& x = ts.contexts.back();
    uint32_t k = construct_of(x.inst->region, Construct::kNestedParallel, e.c);
    push(x, FrameKind::kNested, k, current(p), e.time, e.a, e.c);
  }
  instances[e.a] = std::move(in);
}

void OverheadsPass::State::on_parallel_end(uint32_t p, const Event& e) {
  if (Instance* in = instance(e.a)) {
    finalize(*in, e.time);
    instances.erase(e.a);
  }
  ThreadState& ts = threads[p];
  if (ts.contexts.empty()) return;
  size_t depth = ts.contexts.size() - 1;
  size_t i = find_frame(ts.contexts[depth], FrameKind::kNested, 0);
  if (i && ts.contexts[depth].frames[i].key == e.a) pop_to(ts, depth, i, e.time);
}

void OverheadsPass::State::on_implicit_task(uint32_t p, const Event& e) {
  if (e.flags & format::task_flag::kInitial) return;  // the initial task: not a region
  ThreadState& ts = threads[p];
  if (e.op == uint8_t(Endpoint::kBegin)) {
    if (!e.b) return;
    Instance* in = instance(e.b);
    if (!in) {  // its parallel_begin is not in the trace: the region starts here
      auto made = std::make_unique<Instance>();
      made->id = e.b;
      made->begin_ns = e.time;
      made->level = uint32_t(ts.contexts.size() + 1);
      made->region = region_of(0, made->level);
      in = made.get();
      instances[e.b] = std::move(made);
    }
    in->team = std::max<uint32_t>(in->team, uint32_t(e.c));
    uint32_t index = e.sub;
    in->team = std::max(in->team, index + 1);
    Context x;
    x.inst = in;
    x.index = index;
    x.implicit_task = e.a;
    x.begin_ns = e.time;
    push(x, FrameKind::kImplicit, 0, e.a, e.time);
    ts.contexts.push_back(std::move(x));
    in->members.push_back(p);
    if (in->started_index.size() <= index) in->started_index.resize(index + 1);
    in->started_index[index] = 1;
    CostTimes startup;
    startup[Cost::kThreadManagement] = e.time > in->begin_ns ? e.time - in->begin_ns : 0;
    // Not outward: an enclosing region saw this time already, on the encountering thread.
    commit(ts, ts.contexts.size() - 1, 0, startup, /*outward=*/false);
    return;
  }
  if (ts.contexts.empty()) return;
  Context& x = ts.contexts.back();
  if (e.a && e.a != x.implicit_task) return;
  pop_to(ts, ts.contexts.size() - 1, 1, e.time);
  x.ended = true;
}

void OverheadsPass::State::on_work(uint32_t p, const Event& e) {
  ThreadState& ts = threads[p];
  if (ts.contexts.empty()) return;
  size_t depth = ts.contexts.size() - 1;
  Context& x = ts.contexts[depth];
  if (e.op == uint8_t(Endpoint::kBegin)) {
    Construct kind = work_or_loop(e.sub);
    uint32_t k = construct_of(x.inst->region, kind, e.c);
    if (kind == Construct::kSections) {
      auto& c = regions[x.inst->region].constructs[k];
      c.sections = std::max(c.sections, e.flags);
    }
    push(x, FrameKind::kWork, k, e.b ? e.b : current(p), e.time, e.sub, e.c);
    x.last_work = -1;
    return;
  }
  for (size_t i = x.frames.size(); i-- > 1;) {
    if (x.frames[i].kind == FrameKind::kWork && x.frames[i].key == e.sub) {
      pop_to(ts, depth, i, e.time);
      return;
    }
  }
}

// masked and reduction: a begin/end bracket of the encountering task.
void OverheadsPass::State::on_bracket(uint32_t p, const Event& e, FrameKind kind, Construct construct) {
  ThreadState& ts = threads[p];
  if (ts.contexts.empty()) return;
  size_t depth = ts.contexts.size() - 1;
  Context& x = ts.contexts[depth];
  uint64_t task = e.b ? e.b : current(p);
  if (e.op == uint8_t(Endpoint::kBegin)) {
    push(x, kind, construct_of(x.inst->region, construct, e.c), task, e.time);
  } else if (size_t i = find_frame(x, kind, task)) {
    pop_to(ts, depth, i, e.time);
  }
}

void OverheadsPass::State::on_sync(uint32_t p, const Event& e) {
  ThreadState& ts = threads[p];
  if (ts.contexts.empty()) return;
  size_t depth = ts.contexts.size() - 1;
  Context& x = ts.contexts[depth];
  uint64_t task = e.b ? e.b : current(p);
  bool begin = e.op == uint8_t(Endpoint::kBegin);
  bool wait = e.kind == Kind::kSyncRegionWait;
  FrameKind kind;
  Construct construct;
  if (is_barrier(e.sub)) {
    kind = FrameKind::kBarrier, construct = Construct::kBarrier;
  } else if (e.sub == uint16_t(SyncKind::kTaskwait)) {
    kind = FrameKind::kTaskwait, construct = Construct::kTaskwait;
  } else if (e.sub == uint16_t(SyncKind::kTaskgroup)) {
    kind = wait ? FrameKind::kTaskgroupWait : FrameKind::kTaskgroup;
    construct = Construct::kTaskgroup;
    wait = false;  // the taskgroup's wait is a frame of its own
  } else if (e.sub == uint16_t(SyncKind::kReduction) && !wait) {
    kind = FrameKind::kReduction, construct = Construct::kReduction;
  } else {
    return;
  }
  size_t i = find_frame(x, kind, task);
  if (begin) {
    // sync_region_wait inside the sync_region of the same construct: nothing new.
    if (wait && i && i == x.frames.size() - 1) return;
    if (kind == FrameKind::kBarrier) return barrier_begin(p, e, task, wait);
    uint32_t k;
    if (kind == FrameKind::kTaskgroupWait && find_frame(x, FrameKind::kTaskgroup, task)) {
      k = x.frames[find_frame(x, FrameKind::kTaskgroup, task)].construct;
    } else {
      k = construct_of(x.inst->region, construct, e.c);
    }
    push(x, kind, k, task, e.time, 0, e.c);
    x.frames.back().from_wait = wait;
    return;
  }
  if (!i) return;
  if (kind == FrameKind::kBarrier && e.a == 0 && e.sub != uint16_t(SyncKind::kBarrierExplicit)) {
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

void OverheadsPass::State::barrier_begin(uint32_t p, const Event& e, uint64_t task, bool from_wait) {
  ThreadState& ts = threads[p];
  size_t depth = ts.contexts.size() - 1;
  Context& x = ts.contexts[depth];
  Instance& in = *x.inst;
  uint64_t k = x.barriers++;
  BarrierInstance* b = barrier_at(in, k, true);
  auto kind = SyncKind(e.sub);
  bool implicit = kind == SyncKind::kBarrierImplicit ||
                  kind == SyncKind::kBarrierImplicitWorkshare ||
                  kind == SyncKind::kBarrierImplicitParallel ||
                  (kind == SyncKind::kBarrier && (e.c == 0 || e.c == in.codeptr));
  // libomp 14 reports both kinds of implicit barrier as barrier_implicit; the parallel end
  // barrier has the region's codeptr on the primary thread and none on the workers.
  bool end = kind == SyncKind::kBarrierImplicitParallel ||
             (implicit && kind != SyncKind::kBarrierImplicitWorkshare &&
              (e.c == 0 || e.c == in.codeptr));
  if (b) {
    if (!implicit) b->is_explicit = true;
    if (end) b->is_end = true;
    // The construct it ends; an end barrier too can end one that has no barrier of its own
    // (nowait, or GCC's single whose barrier is the region's).
    if (implicit && x.last_work >= 0 && b->work < 0) b->work = x.last_work;
    if (++b->arrived == in.team) {
      b->last_arrival = e.time;
      b->at_last_arrival = integral;
      b->last_begin = x.begin_ns;
      if (in.live_tasks == 0) {
        b->tasks_done = e.time;
        b->at_tasks_done = integral;
      } else {
        in.waiting_for_tasks = int64_t(k);
      }
    }
  }
  x.last_work = -1;
  push(x, FrameKind::kBarrier, 0, task, e.time, k, e.c);
  x.frames.back().from_wait = from_wait;
}

void OverheadsPass::State::on_mutex(uint32_t p, const Event& e) {
  ThreadState& ts = threads[p];
  if (ts.contexts.empty()) return;
  size_t depth = ts.contexts.size() - 1;
  Context& x = ts.contexts[depth];
  uint64_t task = current(p);
  Construct kind = mutex_or_lock(e.sub);
  if (e.kind == Kind::kMutexAcquire) {
    uint32_t k = construct_of(x.inst->region, kind, e.c);
    ++timing(x, k).count;
    push(x, FrameKind::kMutexWait, k, task, e.time, e.a, e.c);
    return;
  }
  if (e.kind == Kind::kMutexAcquired) {
    uint32_t k;
    const Frame& top = x.frames.back();
    if (top.kind == FrameKind::kMutexWait && top.key == e.a) {
      k = top.construct;
      pop_frame(ts, depth, e.time);
    } else {
      k = construct_of(x.inst->region, kind, e.c);
      ++timing(x, k).count;
    }
    if (kind == Construct::kAtomic) {
      push(x, FrameKind::kAtomic, k, task, e.time, e.a, e.c);
    } else {
      x.held.push_back(Held{e.a, k, task, e.time, {}});
    }
    return;
  }
  if (x.frames.back().kind == FrameKind::kAtomic && x.frames.back().key == e.a) {
    pop_frame(ts, depth, e.time);
    return;
  }
  for (size_t i = x.held.size(); i-- > 0;) {
    if (x.held[i].wait_id == e.a) return release_held(ts, depth, i, e.time);
  }
}

void OverheadsPass::State::on_task_created(const Event& e) {
  const TaskInfo* t = model->task(e.a);
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
      b->at_tasks_done = integral;
    }
    in->waiting_for_tasks = -1;
  }
}

// A task body ended on thread p: one more execution of its task construct.
void OverheadsPass::State::on_task_body_end(uint32_t p, const Event& e) {
  auto status = format::TaskStatus(e.op);
  if (status != format::TaskStatus::kComplete && status != format::TaskStatus::kDetach) return;
  ThreadState& ts = threads[p];
  const TaskInfo* t = model->task(e.a);
  if (ts.contexts.empty() || !t || !t->is_explicit()) return;
  Context& x = ts.contexts.back();
  ++timing(x, task_construct(x, t->codeptr)).count;
}

}  // namespace tasklens::analysis
