// The timeline every timeline export (OTF2, Paraver, Perfetto) is written from: a replay pass that
// turns the event stream into properly nested enter/leave per thread, task switches, thread and
// task states, and the relations between them (creation, migration, dependences).
//
// Instrumentation context (Extrae/Paraver, Servat et al., Fig. 1). Every task owns the regions it
// opened and has not closed (a taskwait, a loop, a user region...): its context. A thread holds a
// stack of task frames, each frame being the task's own region followed by its context:
//
//     thread 1:  [implicit task | barrier] [task fib.c:39 | taskwait] [task fib.c:41]
//
// A task switched in at a scheduling point of the task below it runs on top of it (a child run
// inside a taskwait, a task run inside a barrier, a taskyield), as the thread's call stack does:
// the suspended task's regions stay open below. A frame that leaves a thread without completing
// (an untied task switched out, a task resumed elsewhere) has its context left, innermost first,
// and saved; wherever the task is switched in again (possibly another thread) its task region and
// saved context are entered again, outermost first. So enter/leave are nested per thread whatever
// the runtime does, and a task's regions follow it across threads.
//
// The time window [from, to] and the thread filter are applied here: sinks see only what happens
// on selected threads inside the window. At the window start every open region of the selected
// threads is entered and at its end every open region is left, so the window is nested too.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "export/recent.h"
#include "export/regions.h"
#include "format/event_views.h"
#include "replay/id_map.h"
#include "replay/pass.h"
#include "replay/stable_id_map.h"
#include "replay/task_record.h"

namespace tasklens::exports {

using replay::kNoThread;

// What the export shows: a time window and a set of threads.
struct Filter {
  uint64_t from_ns = 0;
  uint64_t to_ns = std::numeric_limits<uint64_t>::max();
  std::vector<bool> threads;  // selected[thread]; empty: every thread

  bool thread(uint32_t th) const { return threads.empty() || (th < threads.size() && threads[th]); }
  // A point on a thread that the export shows.
  bool shows(uint32_t th, uint64_t t) const {
    return th != kNoThread && thread(th) && t >= from_ns && t <= to_ns;
  }
};

// What a thread does, for state timelines. POT's breakdown split further: not working while some
// task is ready is overhead; not working with nothing ready is synchronization when the thread's
// task waits in a barrier, taskwait, taskgroup or for a mutex, else idleness.
enum class ThreadState : uint8_t {
  kNotCreated,       // before thread_begin, after thread_end
  kIdle,             // nothing to run, not in any wait (between parallel regions)
  kRunning,          // runs a task body (explicit or implicit)
  kSynchronization,  // its task waits and no task is ready
  kOverhead,         // not running a body while some task is ready (runtime, scheduling)
};
const char* thread_state_name(ThreadState s);

// A completed predecessor of a task, known when the task starts.
struct DepIn {
  uint64_t pred;
  uint32_t thread;  // where the predecessor completed
  uint64_t end_ns;  // when
  uint64_t slot;    // the predecessor's sink slot then
};

// A live task as the timeline sees it: the shared task record (replay/task_record.h; the
// timeline keeps tasks the model has forgotten), and where it stands on the threads' stacks.
struct TimelineTask : replay::TaskRecord {
  uint32_t region = 0;               // the task's own region (its construct)
  uint32_t thread = kNoThread;       // the thread whose stack holds its frame
  uint32_t last_thread = kNoThread;  // where its frame was last taken off (not completed)
  uint64_t last_out_ns = 0;
  bool started = false;  // switched in at least once
  bool completed = false;
  std::vector<uint32_t> open;        // its context: regions open inside it, outermost first
  std::vector<uint64_t> successors;  // tasks waiting for it (dependences)
  std::vector<DepIn> deps_in;        // completed predecessors, until it starts
  // For the sink's own use: e.g. the task's row or lane, its parent's at creation, the state it
  // shows and since when.
  uint64_t slot = 0;
  uint64_t parent_slot = 0;
  uint64_t sink_since = 0;
  uint8_t sink_state = 0;

  // Back to a new task, keeping the vectors' capacity (slots are reused task after task).
  void clear();
};

// How a task came on top of a thread's stack.
struct SwitchInfo {
  bool first = false;                // its first switch-in ever
  bool resumed_here = false;         // uncovered on this thread (the task above it left)
  uint32_t from_thread = kNoThread;  // thread its frame was last taken off (migration if != here)
  uint64_t out_ns = 0;               // when
};

struct TimelineInfo {
  const format::Experiment* experiment = nullptr;
  const RegionTable* regions = nullptr;
  const Filter* filter = nullptr;
  uint32_t threads = 0;  // thread indices are 0..threads-1
  uint64_t from_ns = 0;  // the window, clipped to the run
  uint64_t to_ns = 0;
};

// What a timeline export implements. Calls come in time order; a thread's calls only when the
// filter shows the thread and the time.
class TimelineSink {
 public:
  virtual ~TimelineSink() = default;
  virtual void begin(const TimelineInfo& info) {}
  // `owner` is the task whose frame the region belongs to; region == owner.region for the frame's
  // base (the task region itself).
  virtual void enter(uint32_t thread, uint64_t t, uint32_t region, const TimelineTask& owner) {}
  virtual void leave(uint32_t thread, uint64_t t, uint32_t region, const TimelineTask& owner) {}
  virtual void task_create(uint32_t thread, uint64_t t, TimelineTask& task,
                           const TimelineTask* parent) {}
  // `task` is now on top of the thread's stack (nullptr: the stack is empty). A pushed task's
  // switch comes before the enters of its frame; an uncovered one's after the leaves above it.
  virtual void task_switch(uint32_t thread, uint64_t t, TimelineTask* task, const SwitchInfo& how) {
  }
  // The task's body ended on this thread (complete, cancel, detach), after its frame was left.
  virtual void task_end(uint32_t thread, uint64_t t, TimelineTask& task) {}
  // A `taskwait depend(...)` of `task` ended on the thread, after its taskwait region was left:
  // `deps` are what the clause waited for (completed tasks, as a task's deps_in at its start).
  virtual void wait_dependences(uint32_t thread, uint64_t t, TimelineTask& task,
                                const std::vector<DepIn>& deps) {}
  // A task's state changed (the task model's transition); on the creator thread's filter.
  virtual void task_state(uint64_t t, TimelineTask& task, replay::TaskState state) {}
  virtual void thread_state(uint32_t thread, uint64_t t, ThreadState state) {}
  virtual void ready_tasks(uint64_t t, uint64_t count) {}
  virtual void fork(uint32_t thread, uint64_t t, uint32_t requested) {}
  virtual void join(uint32_t thread, uint64_t t) {}
  virtual void parameter(uint32_t thread, uint64_t t, uint64_t name, int64_t value) {}
  // A perf_event counter's running total on the thread at a task switch (`--counters`): `index`
  // is below the metadata's counters (info.experiment->metadata.counters names it).
  virtual void counter_value(uint32_t thread, uint64_t t, uint32_t index, uint64_t value) {}
  // An MPI call's begin (after the enter of its region) or end (before the leave), with what the
  // PMPI library recorded (peer, bytes, tag; format/event_views.h).
  virtual void mpi_call(uint32_t thread, uint64_t t, const format::ev::MpiCall& call) {}
  // At the end of the window, for every task still alive whose state the sink was shown.
  virtual void task_alive_at_end(uint64_t t, TimelineTask& task) {}
  // A task whose state the sink was shown is forgotten before its completion was seen (a new
  // task reuses its id, the old one's end was lost): what the sink shows of it ends at t.
  virtual void task_forgotten(uint64_t t, TimelineTask& task) {}
  // After the window closed; every region was left.
  virtual void end(uint64_t t) {}
};

// Counts of what the timeline could not match, for the export's notes.
struct TimelineStats {
  uint64_t unmatched_leaves = 0;  // an end event whose region was not open in its task
  uint64_t implicit_leaves = 0;   // regions closed because an enclosing one ended first
  uint64_t stray_frames = 0;      // frames taken off a thread because the task showed up elsewhere
};

class TimelinePass : public replay::Pass {
 public:
  TimelinePass(TimelineSink& sink, RegionTable& regions, const Filter& filter);

  void begin(const replay::ReplayInfo& info) override;
  void before(const replay::Record& r, const replay::TaskModel& m) override;
  void after(const replay::Record& r, const replay::TaskModel& m) override;
  void counters(const replay::Record& r, const replay::TaskModel& m) override;
  // Past the window's end nothing more is written: the replay may stop.
  bool finished() const override { return closed_; }
  void end(const replay::ReplayInfo& info, const replay::TaskModel& m) override;

  const TimelineStats& stats() const { return stats_; }

 private:
  struct Stack {
    std::vector<uint64_t> frames;  // task ids, bottom first
    uint64_t announced = 0;        // the top task the sink was last told about
    bool mutex_wait = false;       // between mutex_acquire and mutex_acquired
    ThreadState state = ThreadState::kNotCreated;
  };

  bool emitting(uint32_t th) const { return open_ && !closed_ && filter_.thread(th); }
  TimelineTask* find(uint64_t id);
  TimelineTask& task(uint64_t id, uint32_t th, uint64_t t);  // created at first sight if unknown
  TimelineTask& add(uint64_t id, uint64_t t);
  void erase(uint64_t id, uint64_t t);
  void leave_stray(TimelineTask& T, uint64_t t);  // its frame leaves the stack still holding it
  std::vector<uint64_t> live_task_ids();  // in id order: the exports' output does not depend on
                                          // the index's layout

  void on_event(const replay::Record& r, const replay::TaskModel& m);
  void on_implicit_task(const format::Event& e, uint32_t th, const replay::TaskModel& m);
  // `code`: the task's construct (TaskModel::task_code, not always the event's codeptr).
  void on_create(const format::Event& e, uint32_t th, uint64_t code);
  // libomp's task for `taskwait depend(...)` (format::is_taskwait_depend) is its creator's
  // taskwait, as a plain one shows, from its creation to its taskwait_complete. The pass keeps its
  // record (the dependences it waits for, its end for later tasks that name the same data) but
  // tells the sink nothing of it as a task: no creation, state, slice or row.
  void end_taskwait_depend(TimelineTask& wait, uint32_t th, uint64_t t);
  // Whether the sink is shown the task's states (task_state, task_alive_at_end, task_forgotten).
  bool shows_task(const TimelineTask& T) const {
    return filter_.thread(T.creator_thread) && !T.is_taskwait_depend();
  }
  void on_schedule(const format::Event& e, uint32_t th, const replay::TaskModel& m);

  // Stack operations; each emits the enters, leaves and switches it implies.
  void push(uint32_t th, uint64_t t, TimelineTask& task);
  void take_top(uint32_t th, uint64_t t);  // leaves the top frame; the task keeps its context
  void remove_frame(uint32_t th, uint64_t t, uint64_t id);
  TimelineTask& activate(uint32_t th, uint64_t t, uint64_t id);
  void announce(uint32_t th, uint64_t t);
  void finish_body(uint32_t th, uint64_t t, uint64_t id);
  void enter_in(uint32_t th, uint64_t t, uint64_t id, uint32_t region);
  // Leaves the innermost open region of `kind` (and `key` unless any_key) in the task's context.
  void leave_in(uint32_t th, uint64_t t, uint64_t id, Construct kind, uint64_t key, bool any_key);
  uint64_t top(uint32_t th) const;

  void after_event(const replay::Record& r, const replay::TaskModel& m);
  void update_states(const replay::Record& r, const replay::TaskModel& m);
  ThreadState state_of(uint32_t th, const replay::TaskModel& m) const;
  void open_window(uint64_t t, const replay::TaskModel& m);
  void close_window(uint64_t t);

  TimelineSink& sink_;
  RegionTable& regions_;
  const Filter& filter_;
  TimelineInfo info_;
  bool open_ = false, closed_ = false;
  std::vector<Stack> stacks_;
  replay::StableIdMap<TimelineTask> tasks_;  // live tasks, at stable addresses
  RecentTasks<DepIn> recent_;                // completed tasks, for dependences learned after that
  bool remember_done_ = true;                // the trace may have dependences: fill recent_
  std::vector<uint64_t> done_;               // completed by this event: erased after it
  uint64_t ready_ = 0;
  bool ready_seen_ = false;
  TimelineStats stats_;
};

}  // namespace tasklens::exports
