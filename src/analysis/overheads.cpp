// OverheadsPass: ompP's timings per region and construct, and every thread's time split into work
// and the five overhead classes.
#include "analysis/overheads.h"

#include <algorithm>

#include "format/kinds.h"
#include <cmath>
#include <deque>
#include <limits>
#include <unordered_map>

#include "replay/id_map.h"

namespace tasklens::analysis {

using format::Endpoint;
using format::Event;
using format::Kind;
using format::is_barrier;
using format::MutexKind;
using format::SyncKind;
using format::WorkType;
using replay::TaskInfo;
using replay::TaskModel;
using replay::TaskState;

namespace {

struct CostNames {
  const char* name;
  const char* key;
  const char* short_name;
};

const CostNames& names(Cost c) {
  static const CostNames k[kCostCount] = {
      {"work", "work", "Work"},
      {"synchronization", "synchronization", "Synch"},
      {"imbalance", "imbalance", "Imbal"},
      {"limited parallelism", "limited_parallelism", "Limpar"},
      {"thread management", "thread_management", "Mgmt"},
      {"task management", "task_management", "Tasks"},
  };
  return k[size_t(c)];
}

}  // namespace

const char* cost_name(Cost c) { return names(c).name; }
const char* cost_key(Cost c) { return names(c).key; }
const char* cost_short(Cost c) { return names(c).short_name; }

uint64_t CostTimes::total_ns() const {
  uint64_t sum = 0;
  for (uint64_t v : ns) sum += v;
  return sum;
}

CostTimes& CostTimes::operator+=(const CostTimes& o) {
  for (size_t i = 0; i < kCostCount; ++i) ns[i] += o.ns[i];
  return *this;
}

const char* construct_name(Construct k) {
  static const char* const names[] = {
      "parallel", "loop",     "sections", "single", "workshare", "distribute", "taskloop",
      "scope",    "masked",   "barrier",  "implicit barrier", "taskwait", "taskgroup",
      "critical", "lock",     "atomic",   "ordered", "reduction", "task", "nested parallel"};
  return names[size_t(k)];
}

ConstructTimes& ConstructTimes::operator+=(const ConstructTimes& o) {
  count += o.count;
  exec_ns += o.exec_ns;
  body_ns += o.body_ns;
  exit_bar_ns += o.exit_bar_ns;
  enter_ns += o.enter_ns;
  exit_ns += o.exit_ns;
  task_ns += o.task_ns;
  return *this;
}

ConstructTimes ConstructOverheads::total() const {
  ConstructTimes sum;
  for (const auto& t : threads) sum += t;
  return sum;
}

uint64_t Amdahl::predicted_ns(uint32_t threads) const {
  if (threads == 0) threads = 1;
  double t1 = double(t1_ns);
  return uint64_t(std::llround(t1 * alpha / threads + t1 * (1 - alpha)));
}

double Amdahl::speedup(uint32_t threads) const {
  uint64_t tp = predicted_ns(threads);
  return tp ? double(t1_ns) / double(tp) : 0;
}

Amdahl amdahl(const Overheads& o, uint32_t threads) {
  Amdahl a;
  if (threads <= 1) {
    a.measured = true;
    a.alpha = o.coverage;
    a.t1_ns = o.run_ns;
  } else {
    uint64_t serial = o.run_ns > o.parallel_ns ? o.run_ns - o.parallel_ns : 0;
    uint64_t work = o.program[Cost::kWork];
    a.t1_ns = serial + work;
    a.alpha = a.t1_ns ? double(work) / double(a.t1_ns) : 0;
  }
  a.max_speedup = a.alpha >= 1 ? std::numeric_limits<double>::infinity() : 1 / (1 - a.alpha);
  return a;
}

namespace {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

// Two integrals over the run, read at the ends of a thread's segments: R(t), the time during
// which some explicit task was ready to run, and S(t), the time during which none was ready but
// some waited for their dependences (the task graph had no more parallelism to offer).
struct Integrals {
  uint64_t ready = 0;
  uint64_t starved = 0;
};

Construct work_construct(uint16_t type) {
  switch (WorkType(type)) {
    case WorkType::kSections: return Construct::kSections;
    case WorkType::kSingleExecutor:
    case WorkType::kSingleOther: return Construct::kSingle;
    case WorkType::kWorkshare: return Construct::kWorkshare;
    case WorkType::kDistribute: return Construct::kDistribute;
    case WorkType::kTaskloop: return Construct::kTaskloop;
    case WorkType::kScope: return Construct::kScope;
    case WorkType::kLoop:
    default: return Construct::kLoop;
  }
}

// Worksharing constructs that end in a barrier (unless nowait).
bool has_exit_barrier(uint16_t type) {
  switch (WorkType(type)) {
    case WorkType::kDistribute:
    case WorkType::kTaskloop: return false;
    default: return true;
  }
}

Construct mutex_construct(uint16_t kind) {
  switch (MutexKind(kind)) {
    case MutexKind::kCritical: return Construct::kCritical;
    case MutexKind::kAtomic: return Construct::kAtomic;
    case MutexKind::kOrdered: return Construct::kOrdered;
    default: return Construct::kLock;
  }
}

enum class FrameKind : uint8_t {
  kImplicit,       // the implicit task of a region: the bottom frame of a context
  kWork,           // loop, sections, single, ... (key: work type)
  kMasked,
  kBarrier,        // key: the barrier's number in the region instance
  kTaskwait,
  kTaskgroup,      // the whole taskgroup construct
  kTaskgroupWait,  // the wait at its end
  kMutexWait,      // mutex_acquire .. mutex_acquired (key: wait id)
  kAtomic,         // mutex_acquired .. mutex_released of an atomic (key: wait id)
  kReduction,
  kNested,         // a nested parallel region, seen from the enclosing one (key: region id)
};

struct Frame {
  FrameKind kind = FrameKind::kImplicit;
  uint32_t construct = 0;  // where its costs go (barriers: decided when they end)
  uint64_t task = 0;       // the task that entered the construct
  uint64_t t0 = 0;
  uint64_t task_work0 = 0;  // the context's task_work when it was entered
  uint64_t key = 0;
  uint64_t codeptr = 0;
  bool from_wait = false;  // entered by sync_region_wait (no sync_region seen)
  uint64_t wait_ns = 0;    // taskgroup: time in the wait at its end
  CostTimes cost;
  std::array<uint64_t, 4> idle{};  // barrier: idle waiting in each phase (see barrier_wait)
};

// A lock or critical section a thread holds (not nested like frames: a lock may be released
// anywhere).
struct Held {
  uint64_t wait_id;
  uint32_t construct;
  uint64_t task;
  uint64_t t0;
  CostTimes cost;
};

// The k-th barrier of a region instance: every thread of the team passes the same barriers in
// the same order, so a thread's k-th barrier is everyone's k-th.
struct BarrierInstance {
  uint32_t arrived = 0, left = 0;
  bool is_end = false, is_explicit = false;
  int64_t work = -1;  // the worksharing construct it ends (construct index)
  uint64_t last_arrival = kNever, tasks_done = kNever;
  Integrals at_last_arrival, at_tasks_done;
  uint64_t last_begin = 0;  // when the last thread to arrive had begun its implicit task
};

struct Instance {
  uint64_t id = 0;
  uint32_t region = 0;  // index in State::regions
  uint64_t codeptr = 0;
  uint64_t begin_ns = 0;
  uint32_t team = 0;
  uint32_t requested = 0;
  uint32_t level = 1;
  std::vector<uint8_t> started_index;  // team numbers whose implicit task began
  uint64_t live_tasks = 0;  // explicit tasks of the region not completed
  std::deque<BarrierInstance> barriers;
  uint64_t first_barrier = 0;     // number of barriers[0]
  int64_t waiting_for_tasks = -1;  // a barrier everyone reached while tasks were still live
  std::vector<uint32_t> members;  // trace threads with a context in it
  CostTimes cost;
};

// A thread inside one region instance.
struct Context {
  Instance* inst = nullptr;
  uint32_t index = 0;  // thread number in the team
  uint64_t implicit_task = 0;
  uint64_t begin_ns = 0;
  bool ended = false;        // its implicit task ended before the region did
  uint64_t task_work = 0;    // ns spent running explicit task bodies here
  uint64_t barriers = 0;     // barriers entered
  int64_t last_work = -1;    // worksharing construct closed last, whose barrier may follow
  uint64_t end_barrier_ns = 0, shutdown_ns = 0;
  // The task construct looked up last (task_construct): most task bodies of a context are one.
  uint64_t task_code = 0;
  int64_t task_construct = -1;
  std::vector<Frame> frames;
  std::vector<Held> held;
};

struct ThreadState {
  std::vector<Context> contexts;  // innermost region last
  uint64_t t0 = 0;                // the open segment: since when,
  Integrals at0;                  // and the integrals at that time
  uint64_t ignore_task = 0;       // an implicit task whose region ended: skip its late events
};

}  // namespace

struct OverheadsPass::State {
  const TaskModel* model = nullptr;
  std::vector<ThreadState> threads;
  std::unordered_map<uint64_t, std::unique_ptr<Instance>> instances;
  std::vector<RegionOverheads> regions;
  replay::IdMap<uint32_t> region_index;                  // codeptr + 1 -> index
  std::vector<replay::IdMap<uint32_t>> construct_index;  // per region: construct key -> index
  replay::IdMap<uint8_t> runnable;  // explicit tasks ready to run (not waiting tasks resuming)
  replay::IdMap<uint8_t> blocked;   // explicit tasks created, waiting for their dependences
  uint64_t now = 0;
  Integrals integral;  // at `now`
  Overheads* result = nullptr;

  void advance(uint64_t t) {
    if (t <= now) return;
    if (runnable.size()) {
      integral.ready += t - now;
    } else if (blocked.size()) {
      integral.starved += t - now;
    }
    now = t;
  }

  uint32_t region_of(uint64_t codeptr, uint32_t level) {
    uint32_t& slot = region_index[codeptr + 1];
    if (slot == 0) {
      regions.emplace_back();
      regions.back().codeptr = codeptr;
      regions.back().level = level;
      regions.back().constructs.emplace_back();  // [0]: the parallel construct
      regions.back().constructs[0].codeptr = codeptr;
      construct_index.emplace_back();
      slot = uint32_t(regions.size());
    }
    RegionOverheads& r = regions[slot - 1];
    r.level = std::min(r.level, level);
    return slot - 1;
  }

  uint32_t construct_of(uint32_t region, Construct kind, uint64_t codeptr) {
    uint64_t key = ((codeptr << 5) | uint64_t(kind)) + 1;
    uint32_t& slot = construct_index[region][key];
    if (slot == 0) {
      auto& list = regions[region].constructs;
      list.emplace_back();
      list.back().kind = kind;
      list.back().codeptr = codeptr;
      slot = uint32_t(list.size());  // index + 1; index 0 is the parallel construct
    }
    return slot - 1;
  }

  // construct_of(x's region, kTask, codeptr), through the context's one-entry cache. This,
  // timing() and the one-class commit() run for most events (a stretch of task work, in close):
  // clang did not inline them (30-50 instructions per call each, a tenth of the pass).
  __attribute__((always_inline)) uint32_t task_construct(Context& x, uint64_t codeptr) {
    if (x.task_construct < 0 || x.task_code != codeptr) {
      x.task_construct = construct_of(x.inst->region, Construct::kTask, codeptr);
      x.task_code = codeptr;
    }
    return uint32_t(x.task_construct);
  }

  __attribute__((always_inline)) ConstructTimes& timing(const Context& x, uint32_t construct) {
    auto& v = regions[x.inst->region].constructs[construct].threads;
    if (v.size() <= x.index) v.resize(x.index + 1);
    return v[x.index];
  }

  static BarrierInstance* barrier_at(Instance& in, uint64_t k, bool create) {
    if (k < in.first_barrier) return nullptr;
    uint64_t i = k - in.first_barrier;
    if (i >= in.barriers.size()) {
      if (!create) return nullptr;
      in.barriers.resize(i + 1);
    }
    return &in.barriers[i];
  }

  Instance* instance(uint64_t region_id) {
    auto it = instances.find(region_id);
    return it == instances.end() ? nullptr : it->second.get();
  }

  // Adds `c` to the context at `depth`: its region instance, the construct, the thread's row.
  // `outward`: the enclosing regions' contexts see it too, under their nested-parallel frame.
  void commit(ThreadState& ts, size_t depth, uint32_t construct, const CostTimes& c,
              bool outward = true) {
    commit_by(ts, depth, construct, outward, [&c](CostTimes& into) { into += c; });
  }
  // The same for time of one class (most of it: a task body's stretch of work).
  __attribute__((always_inline)) void commit(ThreadState& ts, size_t depth, uint32_t construct,
                                             Cost cost, uint64_t ns) {
    commit_by(ts, depth, construct, true, [cost, ns](CostTimes& into) { into[cost] += ns; });
  }
  template <class Add>
  void commit_by(ThreadState& ts, size_t depth, uint32_t construct, bool outward, Add add) {
    Context& x = ts.contexts[depth];
    add(x.inst->cost);
    RegionOverheads& r = regions[x.inst->region];
    add(r.constructs[construct].cost);
    if (r.threads.size() <= x.index) r.threads.resize(x.index + 1);
    add(r.threads[x.index]);
    if (outward && depth > 0) add(ts.contexts[depth - 1].frames.back().cost);
  }

  // ---- time classification -------------------------------------------------------------

  // Closes the thread's open segment at t (now == t): classifies [t0, t) by what the thread was
  // doing, which only the thread's own events change.
  void close(uint32_t p, uint64_t t) {
    ThreadState& ts = threads[p];
    uint64_t t0 = ts.t0;
    Integrals i0 = ts.at0;
    ts.t0 = t;
    ts.at0 = integral;
    if (t <= t0 || ts.contexts.empty()) return;
    uint64_t d = t - t0, ready = integral.ready - i0.ready;
    size_t depth = ts.contexts.size() - 1;
    Context& x = ts.contexts.back();
    Frame& f = x.frames.back();
    if (x.ended) {  // after its implicit task, until the region ends: the join
      f.cost[Cost::kThreadManagement] += d;
      x.shutdown_ns += d;
      return;
    }
    uint64_t cur = model->thread(p).current;
    bool own = f.task == cur;
    if (own) {
      switch (f.kind) {
        case FrameKind::kMutexWait:
        case FrameKind::kAtomic:
        case FrameKind::kReduction:
          f.cost[Cost::kSynchronization] += d;
          return;
        case FrameKind::kNested:
          f.cost[Cost::kThreadManagement] += d;
          return;
        case FrameKind::kTaskwait:
        case FrameKind::kTaskgroupWait:
          f.cost[Cost::kTaskManagement] += ready;
          f.cost[Cost::kSynchronization] += d - ready;
          return;
        case FrameKind::kBarrier:
          barrier_wait(x, f, t0, t, i0);
          return;
        default:
          break;
      }
    }
    if (model->working(p)) {
      const TaskInfo* task = model->task(cur);
      bool explicit_task = task && task->is_explicit();
      if (explicit_task) x.task_work += d;
      // Inside the body of a lock or critical section taken in the current construct.
      if (!x.held.empty() && x.held.back().task == cur && x.held.back().t0 >= f.t0) {
        x.held.back().cost[Cost::kWork] += d;
      } else if (explicit_task && !own) {
        uint32_t k = task_construct(x, task->codeptr);
        ConstructTimes& ct = timing(x, k);
        ct.exec_ns += d;
        ct.body_ns += d;
        commit(ts, depth, k, Cost::kWork, d);
      } else {
        f.cost[Cost::kWork] += d;
      }
      return;
    }
    // Neither running a task body nor waiting in a construct: the runtime between tasks.
    f.cost[Cost::kTaskManagement] += d;
  }

  // Waiting in a barrier over [t0, t1): time while a task was ready is task management; the
  // idle rest is kept per phase of the barrier, classified when the barrier ends (pop_barrier):
  //   0: before every thread had arrived
  //   1: everyone arrived, the region's tasks not all done, some waiting for dependences
  //   2: the same, no task waiting for dependences (the rest are running elsewhere)
  //   3: everyone arrived and every task done: the barrier's release
  void barrier_wait(Context& x, Frame& f, uint64_t t0, uint64_t t1, Integrals i0) {
    const BarrierInstance* b = barrier_at(*x.inst, f.key, false);
    uint64_t cut[3] = {b ? b->last_arrival : kNever, b ? b->tasks_done : kNever, kNever};
    Integrals at[2] = {b ? b->at_last_arrival : Integrals{}, b ? b->at_tasks_done : Integrals{}};
    if (cut[1] < cut[0]) cut[1] = cut[0], at[1] = at[0];  // whatever the trace says
    uint64_t a = t0;
    Integrals ia = i0;
    for (size_t part = 0; part < 3 && a < t1; ++part) {
      if (cut[part] <= a) continue;
      uint64_t c = std::min(t1, cut[part]);
      Integrals ic = c == t1 ? integral : at[part];
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

  // ---- frames --------------------------------------------------------------------------

  void push(Context& x, FrameKind kind, uint32_t construct, uint64_t task, uint64_t t,
            uint64_t key = 0, uint64_t codeptr = 0) {
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

  // The class of the idle time in a barrier before everyone arrived.
  Cost barrier_class(const Instance& in, const BarrierInstance& b) {
    if (b.is_explicit) return Cost::kSynchronization;
    if (b.work < 0) return Cost::kImbalance;  // the end of the region or an unknown construct
    const ConstructOverheads& c = regions[in.region].constructs[size_t(b.work)];
    if (c.kind == Construct::kSingle) return Cost::kLimitedParallelism;
    if (c.kind == Construct::kSections && c.sections && c.sections < in.team) {
      return Cost::kLimitedParallelism;
    }
    return Cost::kImbalance;
  }

  void pop_barrier(ThreadState& ts, size_t depth, uint64_t t) {
    Context& x = ts.contexts[depth];
    Frame f = x.frames.back();
    x.frames.pop_back();
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
      target = construct_of(in.region, bi.is_explicit ? Construct::kBarrier
                                                      : Construct::kImplicitBarrier, f.codeptr);
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

  void pop_frame(ThreadState& ts, size_t depth, uint64_t t) {
    Context& x = ts.contexts[depth];
    if (x.frames.size() <= 1) return;  // the implicit-task frame ends with the region
    if (x.frames.back().kind == FrameKind::kBarrier) return pop_barrier(ts, depth, t);
    Frame f = x.frames.back();
    x.frames.pop_back();
    uint64_t dur = t > f.t0 ? t - f.t0 : 0, task_ns = x.task_work - f.task_work0;
    ConstructTimes& ct = timing(x, f.construct);
    switch (f.kind) {
      case FrameKind::kWork:
        ++ct.count;
        ct.exec_ns += dur;
        ct.body_ns += dur;
        ct.task_ns += task_ns;
        if (has_exit_barrier(uint16_t(f.key))) x.last_work = f.construct;
        break;
      case FrameKind::kTaskgroup:
        ++ct.count;
        ct.exec_ns += dur;
        ct.body_ns += dur - std::min(dur, f.wait_ns);
        ct.exit_bar_ns += std::min(dur, f.wait_ns);
        ct.task_ns += task_ns;
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
          group->wait_ns += dur;
        } else {  // a wait without its taskgroup construct: a timing of its own
          ++ct.count;
          ct.exec_ns += dur;
          ct.exit_bar_ns += dur;
          ct.task_ns += task_ns;
        }
        break;
      }
      case FrameKind::kMutexWait:
        ct.enter_ns += dur;
        ct.exec_ns += dur;
        break;
      case FrameKind::kAtomic:
        ct.body_ns += dur;
        ct.exec_ns += dur;
        break;
      default:  // masked, taskwait, reduction, nested parallel
        ++ct.count;
        ct.exec_ns += dur;
        if (f.kind == FrameKind::kMasked) ct.body_ns += dur;
        ct.task_ns += task_ns;
        break;
    }
    commit(ts, depth, f.construct, f.cost);
  }

  // Pops frames down to and including frames[i].
  void pop_to(ThreadState& ts, size_t depth, size_t i, uint64_t t) {
    while (ts.contexts[depth].frames.size() > std::max<size_t>(i, 1)) pop_frame(ts, depth, t);
  }

  // The innermost frame of `kind` entered by `task` (any task when task == 0), or 0 (none:
  // frames[0] is the implicit task, never matched).
  static size_t find_frame(const Context& x, FrameKind kind, uint64_t task) {
    for (size_t i = x.frames.size(); i-- > 1;) {
      const Frame& f = x.frames[i];
      if (f.kind == kind && (task == 0 || f.task == task)) return i;
    }
    return 0;
  }

  void release_held(ThreadState& ts, size_t depth, size_t i, uint64_t t) {
    Context& x = ts.contexts[depth];
    Held h = x.held[i];
    x.held.erase(x.held.begin() + long(i));
    ConstructTimes& ct = timing(x, h.construct);
    uint64_t dur = t > h.t0 ? t - h.t0 : 0;
    ct.body_ns += dur;
    ct.exec_ns += dur;
    commit(ts, depth, h.construct, h.cost);
  }

  // ---- events --------------------------------------------------------------------------

  void on_event(uint32_t p, const Event& e) {
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

  uint64_t current(uint32_t p) const { return model->thread(p).current; }

  void on_parallel_begin(uint32_t p, const Event& e) {
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

  void on_parallel_end(uint32_t p, const Event& e) {
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

  void on_implicit_task(uint32_t p, const Event& e) {
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

  void on_work(uint32_t p, const Event& e) {
    ThreadState& ts = threads[p];
    if (ts.contexts.empty()) return;
    size_t depth = ts.contexts.size() - 1;
    Context& x = ts.contexts[depth];
    if (e.op == uint8_t(Endpoint::kBegin)) {
      Construct kind = work_construct(e.sub);
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
  void on_bracket(uint32_t p, const Event& e, FrameKind kind, Construct construct) {
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

  void on_sync(uint32_t p, const Event& e) {
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

  void barrier_begin(uint32_t p, const Event& e, uint64_t task, bool from_wait) {
    ThreadState& ts = threads[p];
    size_t depth = ts.contexts.size() - 1;
    Context& x = ts.contexts[depth];
    // GCC's single reports its begin only: it ends where the thread enters the barrier.
    if (x.frames.back().kind == FrameKind::kWork &&
        x.frames.back().key == uint16_t(WorkType::kSingleExecutor)) {
      pop_frame(ts, depth, e.time);
    }
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

  void on_mutex(uint32_t p, const Event& e) {
    ThreadState& ts = threads[p];
    if (ts.contexts.empty()) return;
    size_t depth = ts.contexts.size() - 1;
    Context& x = ts.contexts[depth];
    uint64_t task = current(p);
    Construct kind = mutex_construct(e.sub);
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

  void on_task_created(const Event& e) {
    const TaskInfo* t = model->task(e.a);
    if (!t || !t->is_explicit() || !t->region) return;
    if (Instance* in = instance(t->region)) ++in->live_tasks;
  }

  void on_task_completed(uint64_t id) {
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
  void on_task_body_end(uint32_t p, const Event& e) {
    auto status = format::TaskStatus(e.op);
    if (status != format::TaskStatus::kComplete && status != format::TaskStatus::kDetach) return;
    ThreadState& ts = threads[p];
    const TaskInfo* t = model->task(e.a);
    if (ts.contexts.empty() || !t || !t->is_explicit()) return;
    Context& x = ts.contexts.back();
    ++timing(x, task_construct(x, t->codeptr)).count;
  }

  // ---- the end of a region instance ----------------------------------------------------

  void finalize(Instance& in, uint64_t te) {
    uint64_t wall = te > in.begin_ns ? te - in.begin_ns : 0;
    if (in.team == 0) in.team = std::max<uint32_t>(1, in.requested);
    for (uint32_t p : in.members) {
      ThreadState& ts = threads[p];
      auto has = [&] {
        for (size_t d = 0; d < ts.contexts.size(); ++d) {
          if (ts.contexts[d].inst == &in) return true;
        }
        return false;
      };
      if (!has()) continue;
      // A region nested in this one that never ended ends now.
      while (ts.contexts.back().inst != &in) {
        Instance* inner = ts.contexts.back().inst;
        uint64_t id = inner->id;
        finalize(*inner, te);
        instances.erase(id);
      }
      close(p, te);
      size_t depth = ts.contexts.size() - 1;
      Context& x = ts.contexts[depth];
      pop_to(ts, depth, 1, te);
      while (!x.held.empty()) release_held(ts, depth, x.held.size() - 1, te);
      ConstructTimes& ct = timing(x, 0);
      uint64_t enter = x.begin_ns > in.begin_ns ? x.begin_ns - in.begin_ns : 0;
      uint64_t parts = enter + x.end_barrier_ns + x.shutdown_ns;
      ++ct.count;
      ct.exec_ns += wall;
      ct.enter_ns += enter;
      ct.exit_bar_ns += x.end_barrier_ns;
      ct.exit_ns += x.shutdown_ns;
      ct.body_ns += wall - std::min(wall, parts);
      ct.task_ns += x.task_work;
      CostTimes implicit_cost = x.frames[0].cost;
      commit(ts, depth, 0, implicit_cost);
      if (!x.ended) ts.ignore_task = x.implicit_task;
      ts.contexts.pop_back();
      ts.t0 = te;
      ts.at0 = integral;
    }
    RegionOverheads& r = regions[in.region];
    // Threads of the team that never started: all their time is startup.
    for (uint32_t i = 0; i < in.team; ++i) {
      if (i < in.started_index.size() && in.started_index[i]) continue;
      in.cost[Cost::kThreadManagement] += wall;
      if (r.threads.size() <= i) r.threads.resize(i + 1);
      r.threads[i][Cost::kThreadManagement] += wall;
      ConstructOverheads& par = r.constructs[0];
      par.cost[Cost::kThreadManagement] += wall;
      if (par.threads.size() <= i) par.threads.resize(i + 1);
      ++par.threads[i].count;
      par.threads[i].exec_ns += wall;
      par.threads[i].enter_ns += wall;
    }
    uint64_t total = uint64_t(in.team) * wall;
    ++r.instances;
    r.wall_ns += wall;
    r.total_ns += total;
    r.max_team = std::max(r.max_team, in.team);
    r.cost += in.cost;
    ++result->instances;
    result->max_team = std::max(result->max_team, in.team);
    if (in.level == 1) {
      result->parallel_ns += wall;
      result->program += in.cost;
      result->program_total_ns += total;
    }
    int64_t diff = int64_t(total) - int64_t(in.cost.total_ns());
    if (diff != 0) {
      result->unaccounted_ns += diff;
      ++result->unaccounted_instances;
    }
  }
};

OverheadsPass::OverheadsPass() : s_(std::make_unique<State>()) {}
OverheadsPass::~OverheadsPass() = default;

void OverheadsPass::begin(const replay::ReplayInfo& info) {
  s_ = std::make_unique<State>();
  result_ = Overheads{};
  s_->result = &result_;
  s_->threads.resize(info.threads);
  result_.threads = info.threads;
}

void OverheadsPass::before(const replay::Record& r, const replay::TaskModel& m) {
  s_->model = &m;
  s_->advance(r.ev.time);
  if (r.thread < s_->threads.size()) s_->close(r.thread, r.ev.time);
}

void OverheadsPass::after(const replay::Record& r, const replay::TaskModel& m) {
  State& s = *s_;
  s.model = &m;
  if (r.thread >= s.threads.size()) s.threads.resize(r.thread + 1);
  const Event& e = r.ev;
  for (const replay::Transition& tr : m.transitions()) {
    if (tr.to == TaskState::kReady &&
        (tr.from == TaskState::kInitialized || tr.from == TaskState::kRunning)) {
      s.runnable[tr.task] = 1;
    } else if (tr.from == TaskState::kReady) {
      s.runnable.erase(tr.task);
    }
    // Created (the model marks it Initialized -> Initialized) and not ready at once, or sent
    // back to wait for a dependence found late: blocked until it leaves that state.
    if (tr.to == TaskState::kInitialized) {
      const TaskInfo* t = m.task(tr.task);
      if (t && t->is_explicit() && t->state == TaskState::kInitialized) s.blocked[tr.task] = 1;
    } else if (tr.from == TaskState::kInitialized) {
      s.blocked.erase(tr.task);
    }
    if (tr.to == TaskState::kCompleted) s.on_task_completed(tr.task);
  }
  if (e.kind == Kind::kTaskCreate) s.on_task_created(e);
  if (e.kind == Kind::kTaskSchedule) s.on_task_body_end(r.thread, e);
  s.on_event(r.thread, e);
  ThreadState& ts = s.threads[r.thread];
  ts.t0 = e.time;
  ts.at0 = s.integral;
}

void OverheadsPass::end(const replay::ReplayInfo& info, const replay::TaskModel& m) {
  State& s = *s_;
  s.model = &m;
  s.advance(info.end_ns);
  // Regions still open when the trace ends (a cut-short run) end with it, innermost first.
  std::vector<std::pair<uint32_t, uint64_t>> open;
  for (const auto& [id, in] : s.instances) open.emplace_back(in->level, id);
  std::sort(open.rbegin(), open.rend());
  for (const auto& [level, id] : open) {
    if (Instance* in = s.instance(id)) {
      s.finalize(*in, std::max(info.end_ns, in->begin_ns));
      s.instances.erase(id);
    }
  }
  result_.run_ns = info.end_ns;
  result_.threads = std::max<uint32_t>(result_.threads, uint32_t(s.threads.size()));
  result_.coverage =
      info.end_ns ? std::min(1.0, double(result_.parallel_ns) / double(info.end_ns)) : 0;
  result_.regions = std::move(s.regions);
  std::stable_sort(result_.regions.begin(), result_.regions.end(),
                   [](const RegionOverheads& a, const RegionOverheads& b) {
                     return a.wall_ns > b.wall_ns;
                   });
  s_ = std::make_unique<State>();
}

}  // namespace tasklens::analysis
