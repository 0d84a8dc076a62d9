// OverheadsPass: the frames of the constructs a thread is in, and the ompP timings a frame adds
// to its construct when it ends.
#include "analysis/overheads_state.h"
#include "format/kinds.h"

namespace tasklens::analysis {

void OverheadsPass::State::push(Context& x, FrameKind kind, uint32_t construct, uint64_t task,
                                uint64_t t, uint64_t key, uint64_t codeptr) {
  Frame f;
  f.kind = kind;
  f.construct = construct;
  f.task = task;
  f.t0 = t;
  f.task_work0 = x.task_work;
  f.key = key;
  f.codeptr = codeptr;
  x.frames.push_back(f);
}

void OverheadsPass::State::pop_barrier(ThreadState& ts, size_t depth, uint64_t t) {
  Context& x = ts.contexts[depth];
  Frame f = take_top(x, t > x.frames.back().t0 ? t - x.frames.back().t0 : 0);
  Instance& in = *x.inst;
  BarrierInstance* b = barrier_at(in, f.key, false);
  BarrierInstance unknown;
  unknown.is_explicit = true;
  const BarrierInstance& bi = b ? *b : unknown;
  Cost before_all = barrier_class(in, bi);
  // In the region's first barrier, a thread that began its implicit task before the last
  // thread to arrive did waits that much longer because of the other's late start.
  uint64_t late_start = 0;
  if (f.key == 0 && b && bi.last_begin > x.begin_ns) {
    late_start = std::min(f.idle[0], bi.last_begin - x.begin_ns);
  }
  f.cost[Cost::kThreadManagement] += late_start;
  f.cost[before_all] += f.idle[0] - late_start;
  f.cost[Cost::kLimitedParallelism] += f.idle[1];  // tasks wait for dependences
  f.cost[Cost::kImbalance] += f.idle[2];           // tasks run elsewhere, none to take
  f.cost[Cost::kThreadManagement] += f.idle[3];    // the runtime lets the threads go
  uint64_t dur = t > f.t0 ? t - f.t0 : 0, task_ns = x.task_work - f.task_work0;
  uint32_t target;
  if (bi.is_end) {
    target = 0;
    uint64_t from = std::max(f.t0, bi.tasks_done);
    uint64_t released = bi.tasks_done != kNever && from < t ? t - from : 0;
    x.end_barrier_ns += dur - released;
    x.shutdown_ns += released;
  } else if (bi.work >= 0) {
    target = uint32_t(bi.work);
    ConstructTimes& ct = timing(x, target);
    ct.exit_bar_ns += dur;
    ct.exec_ns += dur;
    ct.task_ns += task_ns;
  } else {
    target = construct_of(
        in.region, bi.is_explicit ? Construct::kBarrier : Construct::kImplicitBarrier, f.codeptr);
    ConstructTimes& ct = timing(x, target);
    ++ct.count;
    ct.exec_ns += dur;
    ct.task_ns += task_ns;
  }
  commit(ts, depth, target, f.cost);
  if (b) ++b->left;
  while (!in.barriers.empty() && in.team && in.barriers.front().left >= in.team) {
    in.barriers.pop_front();
    ++in.first_barrier;
  }
}

void OverheadsPass::State::pop_frame(ThreadState& ts, size_t depth, uint64_t t) {
  Context& x = ts.contexts[depth];
  if (x.frames.size() <= 1) return;  // the implicit-task frame ends with the region
  if (x.frames.back().kind == FrameKind::kBarrier) return pop_barrier(ts, depth, t);
  uint64_t dur = t > x.frames.back().t0 ? t - x.frames.back().t0 : 0;
  Frame f = take_top(x, dur);
  uint64_t task_ns = x.task_work - f.task_work0;
  // Constructs that explicit tasks encounter time their own task only: what the thread spends on
  // other tasks inside them (running them, and in their constructs) is those tasks' (direct_ns:
  // taskT). A recursive taskwait's instances thus never overlap. Worksharing constructs (the
  // implicit task's, never nested on a thread) keep ompP's inclusive execT.
  uint64_t own = dur - std::min(dur, f.other_ns);
  ConstructTimes& ct = timing(x, f.construct);
  switch (f.kind) {
    case FrameKind::kWork:
      ++ct.count;
      ct.exec_ns += dur;
      ct.body_ns += dur;
      ct.task_ns += task_ns;
      if (format::is_worksharing(uint16_t(f.key))) x.last_work = f.construct;
      break;
    case FrameKind::kTaskgroup:
      ++ct.count;
      ct.exec_ns += own;
      ct.body_ns += own - std::min(own, f.wait_ns);
      ct.exit_bar_ns += std::min(own, f.wait_ns);
      ct.task_ns += f.direct_ns;
      break;
    case FrameKind::kTaskgroupWait: {
      Frame* group = nullptr;
      for (auto it = x.frames.rbegin(); it != x.frames.rend(); ++it) {
        if (it->kind == FrameKind::kTaskgroup && it->task == f.task) {
          group = &*it;
          break;
        }
      }
      if (group) {
        group->wait_ns += own;
      } else {  // a wait without its taskgroup construct: a timing of its own
        ++ct.count;
        ct.exec_ns += own;
        ct.exit_bar_ns += own;
      }
      ct.task_ns += f.direct_ns;
      break;
    }
    case FrameKind::kMutexWait:
      ct.enter_ns += own;
      ct.exec_ns += own;
      break;
    case FrameKind::kAtomic:
      ct.body_ns += own;
      ct.exec_ns += own;
      break;
    default:  // masked, taskwait, reduction, nested parallel
      ++ct.count;
      ct.exec_ns += own;
      if (f.kind == FrameKind::kMasked) ct.body_ns += own;
      ct.task_ns += f.direct_ns;
      break;
  }
  commit(ts, depth, f.construct, f.cost);
}

OverheadsPass::State::Frame OverheadsPass::State::take_top(Context& x, uint64_t dur) {
  Frame f = x.frames.back();
  x.frames.pop_back();
  // The frame below is of the same task (a construct inside another): the other tasks run inside
  // the inner one ran inside it too; of another task (which ran inside it): all of the inner one.
  if (!x.frames.empty()) {
    Frame& below = x.frames.back();
    below.other_ns += below.task == f.task ? f.other_ns : dur;
  }
  return f;
}

// Pops frames down to and including frames[i].
void OverheadsPass::State::pop_to(ThreadState& ts, size_t depth, size_t i, uint64_t t) {
  while (ts.contexts[depth].frames.size() > std::max<size_t>(i, 1)) pop_frame(ts, depth, t);
}

void OverheadsPass::State::release_held(ThreadState& ts, size_t depth, size_t i, uint64_t t) {
  Context& x = ts.contexts[depth];
  Held h = x.held[i];
  x.held.erase(x.held.begin() + long(i));
  ConstructTimes& ct = timing(x, h.construct);
  uint64_t dur = t > h.t0 ? t - h.t0 : 0;
  ct.body_ns += dur;
  ct.exec_ns += dur;
  commit(ts, depth, h.construct, h.cost);
}

}  // namespace tasklens::analysis
