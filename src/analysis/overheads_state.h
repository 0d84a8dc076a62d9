// The state of OverheadsPass while it replays a trace, shared by the files that implement it
// (internal to src/analysis/overheads*.cpp): per thread, a stack of region contexts, each a stack
// of construct frames (overheads_frames.cpp); the time classification of every thread's segments
// (overheads_classes.cpp); the events that open and close frames (overheads_events.cpp); the end
// of a region instance (overheads.cpp).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <unordered_map>
#include <vector>

#include "analysis/creation_cost.h"
#include "analysis/overheads.h"
#include "analysis/preempted_time.h"
#include "analysis/preemption_switches.h"
#include "format/event.h"
#include "replay/id_map.h"
#include "replay/task_model.h"

namespace tasklens::analysis {
namespace overheads_detail {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

// Two integrals over the run, read at the ends of a thread's segments: R(t), the time during
// which some explicit task was ready to run, and S(t), the time during which none was ready but
// some waited for their dependences (the task graph had no more parallelism to offer).
struct Integrals {
  uint64_t ready = 0;
  uint64_t starved = 0;
};

enum class FrameKind : uint8_t {
  kImplicit,  // the implicit task of a region: the bottom frame of a context
  kWork,      // loop, sections, single, ... (key: work type)
  kMasked,
  kBarrier,  // key: the barrier's number in the region instance
  kTaskwait,
  kTaskgroup,      // the whole taskgroup construct
  kTaskgroupWait,  // the wait at its end
  kMutexWait,      // mutex_acquire .. mutex_acquired (key: wait id)
  kAtomic,         // mutex_acquired .. mutex_released of an atomic (key: wait id)
  kReduction,
  kNested,  // a nested parallel region, seen from the enclosing one (key: region id)
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
  uint64_t wait_ns = 0;    // taskgroup: time in the wait at its end (its own task's)
  // Time the thread spent on other tasks while the frame was open: running them, or in their
  // constructs (other_ns), and of that, running them directly inside it (direct_ns).
  uint64_t other_ns = 0, direct_ns = 0;
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
  uint64_t live_tasks = 0;             // explicit tasks of the region not completed
  std::deque<BarrierInstance> barriers;
  uint64_t first_barrier = 0;      // number of barriers[0]
  int64_t waiting_for_tasks = -1;  // a barrier everyone reached while tasks were still live
  std::vector<uint32_t> members;   // trace threads with a context in it
  CostTimes cost;
};

// A thread inside one region instance.
struct Context {
  Instance* inst = nullptr;
  uint32_t index = 0;  // thread number in the team
  uint64_t implicit_task = 0;
  uint64_t begin_ns = 0;
  bool ended = false;      // its implicit task ended before the region did
  uint64_t task_work = 0;  // ns spent running explicit task bodies here
  uint64_t barriers = 0;   // barriers entered
  int64_t last_work = -1;  // worksharing construct closed last, whose barrier may follow
  uint64_t end_barrier_ns = 0, shutdown_ns = 0;
  // The task constructs looked up last (task_construct), newest first: most task bodies of a
  // context are of one or two (fib's two constructs alternate).
  uint64_t task_code[2] = {0, 0};
  int64_t task_construct[2] = {-1, -1};
  std::vector<Frame> frames;
  std::vector<Held> held;
};

struct ThreadState {
  std::vector<Context> contexts;  // innermost region last
  uint64_t t0 = 0;                // the open segment: since when,
  Integrals at0;                  // and the integrals at that time
  bool off_cpu = false;           // preempted (off its CPU while runnable) since t0
};

}  // namespace overheads_detail

struct OverheadsPass::State {
  using Integrals = overheads_detail::Integrals;
  using FrameKind = overheads_detail::FrameKind;
  using Frame = overheads_detail::Frame;
  using Held = overheads_detail::Held;
  using BarrierInstance = overheads_detail::BarrierInstance;
  using Instance = overheads_detail::Instance;
  using Context = overheads_detail::Context;
  using ThreadState = overheads_detail::ThreadState;
  using Event = format::Event;
  using TaskModel = replay::TaskModel;
  static constexpr uint64_t kNever = overheads_detail::kNever;

  const TaskModel* model = nullptr;
  std::vector<ThreadState> threads;
  // Changed through add_instance() and erase_instance() only (they keep instance()'s cache).
  std::unordered_map<uint64_t, std::unique_ptr<Instance>> instances;
  uint64_t last_instance_id = 0;
  Instance* last_instance = nullptr;
  std::vector<RegionOverheads> regions;
  replay::IdMap<uint32_t> region_index;                  // codeptr + 1 -> index
  std::vector<replay::IdMap<uint32_t>> construct_index;  // per region: construct key -> index
  replay::IdMap<uint8_t> runnable;  // explicit tasks ready to run (not waiting tasks resuming)
  replay::IdMap<uint8_t> blocked;   // explicit tasks created, waiting for their dependences
  // The integrals at `now` (integral()), kept apart: advance() adds to one at a time, and an
  // Integrals copied whole was read with one 16-byte load, which cannot take its data from the
  // 8-byte store just made to one field (a store-forwarding stall at every event: 1/6 of
  // close()'s samples in perf).
  uint64_t ready_integral = 0;
  uint64_t now = 0;
  uint64_t starved_integral = 0;
  Integrals integral() const { return {ready_integral, starved_integral}; }
  Overheads* result = nullptr;
  CreationCost creation;
  CreationClaims claims;
  uint32_t team_limit = 1;  // ReplayInfo::team_limit(): a larger team is damage
  PreemptionSwitches switches;
  // The same intervals, for the startup of an implicit task (from its region's begin, on the
  // thread that then had no segment in the region to split). A thread's implicit tasks begin in
  // the order of their regions' begins: the calls come in the order within() needs.
  PreemptedTime preempted;

  // Ends each thread's segment where it lost or got back its CPU (its time off it: preempted).
  void pass_switches(uint64_t t) {
    switches.pass(t, [this](const PreemptionSwitches::Switch& sw) {
      advance(sw.time);
      if (sw.thread >= threads.size()) return;
      close(sw.thread, sw.time);
      threads[sw.thread].off_cpu = sw.off;
    });
  }

  void advance(uint64_t t) {
    if (t <= now) return;
    if (runnable.size()) {
      ready_integral += t - now;
    } else if (blocked.size()) {
      starved_integral += t - now;
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
    if (x.task_construct[0] >= 0 && x.task_code[0] == codeptr) return uint32_t(x.task_construct[0]);
    if (x.task_construct[1] >= 0 && x.task_code[1] == codeptr) return uint32_t(x.task_construct[1]);
    x.task_code[1] = x.task_code[0];
    x.task_construct[1] = x.task_construct[0];
    x.task_construct[0] = construct_of(x.inst->region, Construct::kTask, codeptr);
    x.task_code[0] = codeptr;
    return uint32_t(x.task_construct[0]);
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

  // Most lookups are of the instance found last (every task's creation and completion looks its
  // region up: a hash map's division and a node's cache miss each, 3 % of report --all's time).
  Instance* instance(uint64_t region_id) {
    if (region_id == last_instance_id && last_instance) return last_instance;
    auto it = instances.find(region_id);
    last_instance_id = region_id;
    return last_instance = it == instances.end() ? nullptr : it->second.get();
  }
  void add_instance(uint64_t region_id, std::unique_ptr<Instance> in) {
    last_instance = nullptr;
    instances[region_id] = std::move(in);
  }
  void erase_instance(uint64_t region_id) {
    last_instance = nullptr;
    instances.erase(region_id);
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
  // `creation` ns of it are the runtime's time creating tasks (creation_cost.h): task
  // management where the thread would otherwise work.
  void close(uint32_t p, uint64_t t, uint64_t created_ns = 0);

  // Waiting in a barrier over [t0, t1): time while a task was ready is task management; the
  // idle rest is kept per phase of the barrier, classified when the barrier ends (pop_barrier):
  //   0: before every thread had arrived
  //   1: everyone arrived, the region's tasks not all done, some waiting for dependences
  //   2: the same, no task waiting for dependences (the rest are running elsewhere)
  //   3: everyone arrived and every task done: the barrier's release
  void barrier_wait(Context& x, Frame& f, uint64_t t0, uint64_t t1, Integrals i0);

  // ---- frames --------------------------------------------------------------------------

  void push(Context& x, FrameKind kind, uint32_t construct, uint64_t task, uint64_t t,
            uint64_t key = 0, uint64_t codeptr = 0);

  // The class of the idle time in a barrier before everyone arrived.
  Cost barrier_class(const Instance& in, const BarrierInstance& b);

  void pop_barrier(ThreadState& ts, size_t depth, uint64_t t);

  void pop_frame(ThreadState& ts, size_t depth, uint64_t t);

  // Pops the context's top frame `f` (returned) that lasted `dur`: the frame below it learns how
  // long the thread was on other tasks meanwhile.
  Frame take_top(Context& x, uint64_t dur);

  // Pops frames down to and including frames[i].
  void pop_to(ThreadState& ts, size_t depth, size_t i, uint64_t t);

  // The innermost frame of `kind` entered by `task` (any task when task == 0), or 0 (none:
  // frames[0] is the implicit task, never matched).
  static size_t find_frame(const Context& x, FrameKind kind, uint64_t task) {
    for (size_t i = x.frames.size(); i-- > 1;) {
      const Frame& f = x.frames[i];
      if (f.kind == kind && (task == 0 || f.task == task)) return i;
    }
    return 0;
  }

  void release_held(ThreadState& ts, size_t depth, size_t i, uint64_t t);

  // ---- events --------------------------------------------------------------------------

  void on_event(uint32_t p, const Event& e);

  uint64_t current(uint32_t p) const { return model->thread(p).current; }

  void on_parallel_begin(uint32_t p, const Event& e);

  void on_parallel_end(uint32_t p, const Event& e);

  void on_implicit_task(uint32_t p, const Event& e);

  void on_work(uint32_t p, const Event& e);

  // masked and reduction: a begin/end bracket of the encountering task.
  void on_bracket(uint32_t p, const Event& e, FrameKind kind, Construct construct);

  void on_sync(uint32_t p, const Event& e);

  void barrier_begin(uint32_t p, const Event& e, uint64_t task, bool from_wait);

  void on_mutex(uint32_t p, const Event& e);

  void on_task_created(uint32_t p, const Event& e);

  // `taskwait depend`: the frame of its creator's taskwait, from the creation of the task that
  // stands for it (`begin`) to that task's taskwait_complete.
  void taskwait_depend(uint32_t p, const replay::TaskInfo& t, uint64_t time, bool begin);

  void on_task_completed(uint64_t id);

  // A task body ended on thread p: one more execution of its task construct.
  void on_task_body_end(uint32_t p, const Event& e);

  // ---- the end of a region instance ----------------------------------------------------

  void finalize(Instance& in, uint64_t te);
};

}  // namespace tasklens::analysis
