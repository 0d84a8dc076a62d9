// OverheadsPass: the classification of every thread's time, segment by segment, into work and the
// five overhead classes (docs/OVERHEADS.md).
#include "analysis/overheads_state.h"

namespace tasklens::analysis {

using replay::TaskInfo;

// Closes the thread's open segment at t (now == t): classifies [t0, t) by what the thread was
// doing, which only the thread's own events change. Off its CPU (ts.off_cpu, which only a switch
// changes: a segment is on or off the CPU throughout), the time goes where it would, as
// preempted time instead of its class.
void OverheadsPass::State::close(uint32_t p, uint64_t t, uint64_t created_ns) {
  ThreadState& ts = threads[p];
  uint64_t t0 = ts.t0;
  Integrals i0 = ts.at0;
  ts.t0 = t;
  ts.at0 = integral();
  if (t <= t0) return;
  if (ts.contexts.empty()) {
    // Outside parallel regions: the initial thread's serial code, unless off its CPU.
    if (p == 0 && ts.off_cpu) result->serial_preempted_ns += t - t0;
    return;
  }
  uint64_t d = t - t0, ready = ready_integral - i0.ready;
  size_t depth = ts.contexts.size() - 1;
  Context& x = ts.contexts.back();
  Frame& f = x.frames.back();
  const bool off = ts.off_cpu;
  if (x.ended) {  // after its implicit task, until the region ends: the join
    f.cost[off ? Cost::kPreempted : Cost::kThreadManagement] += d;
    x.shutdown_ns += d;
    return;
  }
  uint64_t cur = model->thread(p).current;
  bool own = f.task == cur;
  if (!own) {  // another task runs inside the frame's construct
    f.other_ns += d;
    f.direct_ns += d;
  }
  if (own) {
    switch (f.kind) {
      case FrameKind::kMutexWait:
      case FrameKind::kAtomic:
      case FrameKind::kReduction:
        f.cost[off ? Cost::kPreempted : Cost::kSynchronization] += d;
        return;
      case FrameKind::kNested:
        f.cost[off ? Cost::kPreempted : Cost::kThreadManagement] += d;
        return;
      case FrameKind::kTaskwait:
      case FrameKind::kTaskgroupWait:
        if (off) {
          f.cost[Cost::kPreempted] += d;
          return;
        }
        f.cost[Cost::kTaskManagement] += ready;
        f.cost[Cost::kSynchronization] += d - ready;
        return;
      case FrameKind::kBarrier:
        if (off) {
          f.cost[Cost::kPreempted] += d;
          return;
        }
        barrier_wait(x, f, t0, t, i0);
        return;
      default:
        break;
    }
  }
  if (model->working(p)) {
    const TaskInfo* task = model->current_task(p);  // task(cur)
    bool explicit_task = task && task->is_explicit();
    if (explicit_task) x.task_work += d;
    // The runtime's time creating tasks, in the creator's stretch: task management.
    uint64_t created = off ? 0 : std::min(created_ns, d), work = d - created;
    const Cost as = off ? Cost::kPreempted : Cost::kWork;
    // Inside the body of a lock or critical section taken in the current construct.
    if (!x.held.empty() && x.held.back().task == cur && x.held.back().t0 >= f.t0) {
      x.held.back().cost[as] += work;
      x.held.back().cost[Cost::kTaskManagement] += created;
    } else if (explicit_task && !own) {
      uint32_t k = task_construct(x, task->codeptr);
      ConstructTimes& ct = timing(x, k);
      ct.exec_ns += d;
      ct.body_ns += d;
      commit(ts, depth, k, as, work);
      if (created) commit(ts, depth, k, Cost::kTaskManagement, created);
    } else {
      f.cost[as] += work;
      f.cost[Cost::kTaskManagement] += created;
    }
    return;
  }
  // Neither running a task body nor waiting in a construct: the runtime between tasks.
  f.cost[off ? Cost::kPreempted : Cost::kTaskManagement] += d;
}

// Waiting in a barrier over [t0, t1): time while a task was ready is task management; the
// idle rest is kept per phase of the barrier, classified when the barrier ends (pop_barrier):
//   0: before every thread had arrived
//   1: everyone arrived, the region's tasks not all done, some waiting for dependences
//   2: the same, no task waiting for dependences (the rest are running elsewhere)
//   3: everyone arrived and every task done: the barrier's release
void OverheadsPass::State::barrier_wait(Context& x, Frame& f, uint64_t t0, uint64_t t1,
                                        Integrals i0) {
  const BarrierInstance* b = barrier_at(*x.inst, f.key, false);
  uint64_t cut[3] = {b ? b->last_arrival : kNever, b ? b->tasks_done : kNever, kNever};
  Integrals at[2] = {b ? b->at_last_arrival : Integrals{}, b ? b->at_tasks_done : Integrals{}};
  if (cut[1] < cut[0]) cut[1] = cut[0], at[1] = at[0];  // whatever the trace says
  uint64_t a = t0;
  Integrals ia = i0;
  for (size_t part = 0; part < 3 && a < t1; ++part) {
    if (cut[part] <= a) continue;
    uint64_t c = std::min(t1, cut[part]);
    Integrals ic = c == t1 ? integral() : at[part];
    uint64_t ready = ic.ready - ia.ready, idle = (c - a) - ready;
    f.cost[Cost::kTaskManagement] += ready;
    if (part == 1) {
      uint64_t starved = std::min(idle, ic.starved - ia.starved);
      f.idle[1] += starved;
      f.idle[2] += idle - starved;
    } else {
      f.idle[part == 0 ? 0 : 3] += idle;
    }
    a = c, ia = ic;
  }
}

// The class of the idle time in a barrier before everyone arrived.
Cost OverheadsPass::State::barrier_class(const Instance& in, const BarrierInstance& b) {
  if (b.is_explicit) return Cost::kSynchronization;
  if (b.work < 0) return Cost::kImbalance;  // the end of the region or an unknown construct
  const ConstructOverheads& c = regions[in.region].constructs[size_t(b.work)];
  if (c.kind == Construct::kSingle) return Cost::kLimitedParallelism;
  if (c.kind == Construct::kSections && c.sections && c.sections < in.team) {
    return Cost::kLimitedParallelism;
  }
  return Cost::kImbalance;
}

}  // namespace tasklens::analysis
