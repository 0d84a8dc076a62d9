// The recorder's profile mode (docs/PROFILE-MODE.md): instead of storing events, every OMPT
// callback updates per-thread tables in place (profile_tables.h) - the task-aware call-path
// profile of Score-P (the algorithm of analysis/profile.h, Fig. 12 of Lorenz et al., run online),
// the task constructs' counts and the per-thread breakdown - merged and written to profile.json
// at the end of the run. Memory is bounded by the distinct call paths, the task constructs and
// the live tasks; nothing here throws or prints into the program's output.
#pragma once

#include <atomic>
#include <cstdint>

#include "recorder/process_info.h"
#include "recorder/profile_tables.h"
#include "recorder/runtime_call_site.h"
#include "recorder/task_counters.h"

namespace tasklens::recorder::prof {

enum class FrameType : uint8_t { kRoot, kRegion, kCreate, kSched, kMutex, kParam };

// An open frame of a task's call path. Its node's identity is in the node (profile_tables.h):
// a frame holds only what its close needs.
struct Frame {
  Node* n;         // its node, in the tables of thread `owner` - 1 (nullptr: out of memory)
  uint64_t key;    // the node's path key (its children's parent)
  uint64_t enter;  // the task's clock at enter
  uint64_t child;  // inclusive time of closed children
  uint64_t match;  // what ends it
  uint32_t frag0;  // the task's fragment count at enter
  uint16_t owner;
  FrameType type;
};

struct Region;

// One task instance, implicit or explicit: held in the runtime's ompt_data_t of the task. On
// cache lines of its own (as its frames are): records that neighbour in memory are often another
// thread's, and sharing a line would have the two threads' writes invalidate it in turn.
struct alignas(64) Task {
  uint64_t code = 0;               // explicit: its construct
  Construct* construct = nullptr;  // its entry in the tables of thread `construct_owner` - 1
  uint16_t construct_owner = 0;
  uint64_t clock = 0, since = 0, created = 0;
  uint32_t fragments = 0, thread = 0;
  bool implicit = false, initial = false, started = false, running = false;
  // A single_executor frame may be open: a GCC single, which reports no end, is closed by the
  // next barrier or worksharing construct its task begins (on_region); only then is it looked for.
  bool single_open = false;
  uint32_t waits = 0;  // open synchronization waits (the thread is in the runtime)
  // Explicit, while a fragment runs: the implicit task whose node the fragment's stub hangs
  // under, the stub's node (th's tables) and the implicit task's depth then. The stub is no frame:
  // nothing opens on the implicit task while the fragment runs, so its visit is the fragment
  // (since .. its end), closed in exit_stub (profiler.cpp).
  Task* stub_owner = nullptr;
  Node* stub_node = nullptr;
  uint32_t stub_depth = 0;
  Task* encountering = nullptr;  // implicit, primary thread: the task that started the region
  Region* region = nullptr;      // implicit: its parallel region, referenced (release_region)
  uint64_t parallel_code = 0;
  uint32_t depth = 0;
  uint32_t nparams = 0;
  Task* next_free = nullptr;
  bool counters_started = false;  // the fragment's start was read: its end may give a delta
  // Explicit: its counters' deltas over its fragments so far; implicit: those of the explicit
  // fragments that ran in its stubs. A frame's counters are this advance between its enter and
  // its close (so a node's counters change at task switches only). Cleared at reuse with
  // counters only (alloc_task clears what is above).
  uint64_t counter_sum[kMaxCounters] = {};
  // Kept when the record is reused.
  uint64_t counter_start[kMaxCounters] = {};  // the values when the fragment began
  Frame* frames = nullptr;
  uint64_t* frame_counters = nullptr;  // per frame, counter_sum at its enter (g_node_counters)
  uint32_t cap = 0;
  // The parameters set in the instance, by their first value (tasks[].parameters; more than
  // kMaxParams distinct names: the rest make nodes but no split).
  static constexpr uint32_t kMaxParams = 4;
  struct Param {
    uint64_t name;
    int64_t value;
    ParamValue* split;  // its split in the tables of thread `owner` - 1 (0: none)
    uint16_t owner;
    bool again;
  } params[kMaxParams];
};

// A parallel region: held in the runtime's ompt_data_t of the region, and by its implicit tasks
// (refs), whose ends libomp may report after the region's: a worker's closing barrier ends only
// when the next region or the exit releases it (docs/LIBOMP.md). Their frames close at `ended`.
struct Region {
  uint64_t code = 0, parent_node = 0;
  Task* encountering = nullptr;
  uint32_t thread = 0;
  std::atomic<uint64_t> ended{0};  // parallel_end's time, 0 before
  std::atomic<uint32_t> refs{1};   // parallel_end's, and one per implicit task begun in it
};

enum class State : uint8_t { kRuntime, kWork, kSerial };

struct Thread {
  uint32_t index = 0;
  uint16_t owner = 0;  // index + 1, as frames and records name the thread whose tables they use
  NodeTable nodes;
  ConstructTable constructs;
  ParamTable params;
  // The constructs looked up last by their code, found again without a hash.
  static constexpr uint32_t kConstructCache = 16;
  struct {
    uint64_t code;
    Construct* c;
  } construct_cache[kConstructCache] = {};
  Task* current = nullptr;
  static constexpr int kMaxNesting = 16;
  struct Implicit {
    Task* task;
    Task* resume;
  } implicit[kMaxNesting] = {};
  uint32_t implicit_depth = 0;
  Task* pending_creator = nullptr;  // a creation lasts until this thread's next callback
  Construct* pending_construct = nullptr;
  uint64_t pending_since = 0;
  uint32_t active = 0, max_active = 0;
  uint64_t thread_time = 0;
  uint64_t work_code = 0;  // the last worksharing construct that ended here
  TaskloopSites taskloops;  // the program's call sites of its taskloops (runtime_call_site.h)
  BarrierSite barrier;      // the barrier the thread is in (runtime_call_site.h)
  uint64_t unmatched_ends = 0;
  uint64_t bad_counter_samples = 0;  // counter reads that failed: their fragments' deltas lost
  // The kernel's run-queue wait of the thread (process_info.h): taken at its end by the thread,
  // or by finish_and_write for a thread still running then.
  int os_tid = 0;
  RunDelay run_delay;
  uint64_t frag_delta[kMaxCounters] = {};  // the counters' deltas of the fragment that ended last
  // The breakdown, online (approximate: see docs/PROFILE-MODE.md).
  bool initial = false, ended = false;
  State state = State::kRuntime;
  uint64_t begin = 0, end = 0, state_since = 0;
  bool ready_at_since = false;
  int64_t others_ready = 0;     // the other threads' ready counts summed, as read at
  uint64_t others_read_at = 0;  // (profile_breakdown.cpp)
  uint64_t work = 0, overhead = 0, idle = 0, serial = 0;
  // Explicit tasks this thread created minus those it started or discarded (the sum over the
  // threads: the tasks ready), on a cache line of its own: the other threads read it.
  struct alignas(64) Ready {
    std::atomic<int64_t> count{0};
    char pad[64 - sizeof(std::atomic<int64_t>)];
  } ready;
  // perf_event counters (task_counters.h), none open when not asked for.
  ThreadCounters counters;
  bool counting = false;  // counters open or carried by nodes: else a switch skips their work
  // Freed task records, reused: at most kMaxFree kept, the rest go back to malloc.
  static constexpr uint32_t kMaxFree = 4096;
  Task* free_list = nullptr;
  uint32_t free_count = 0;
};

// Profile mode is on (set at start-up, before the callbacks are registered) and still recording.
extern bool g_enabled;

// This thread's tables, made at its first callback (nullptr when they cannot be).
extern __thread Thread* t_thread __attribute__((tls_model("initial-exec")));
Thread* new_thread_profile();
inline Thread* this_thread_profile() {
  Thread* th = t_thread;
  return __builtin_expect(th != nullptr, 1) ? th : new_thread_profile();
}

// The OMPT callbacks' work, each with the time of the callback in ticks (profile_tool.cpp
// registers the callbacks).
void on_thread_begin(Thread* th, bool initial, uint64_t now);
void on_thread_end(Thread* th, uint64_t now);
Region* on_parallel_begin(Thread* th, Task* encountering, uint64_t code);
void on_parallel_end(Thread* th, Region* r, uint64_t now);
Task* on_implicit_begin(Thread* th, Region* r, bool initial, uint64_t now);
void on_implicit_end(Thread* th, Task* t, uint64_t now);
Task* on_create(Thread* th, uint64_t code, uint32_t flags, uint64_t now);
void on_schedule(Thread* th, Task* prior, int status, Task* next, uint64_t now);
// A region of the call path: begin (true) or end, kind and sub as in ProfileNodeKind. `wait`:
// the thread waits in the runtime meanwhile.
void on_region(Thread* th, bool begin, uint8_t kind, uint16_t sub, uint64_t code, bool wait,
               uint64_t now);
void on_wait(Thread* th, bool begin, uint64_t now);
// A mutex (critical, lock, ordered, atomic; `kind` an ompt_mutex_t) the current task waits for
// (`acquire`) or got (acquired, or a nest lock taken again by its owner): a mutex_wait node.
void on_mutex(Thread* th, bool acquire, uint16_t kind, uint64_t wait_id, uint64_t code,
              uint64_t now);
// Any other callback: ends a pending creation (inline: every callback begins with it).
void end_pending(Thread* th, uint64_t now);
inline void on_other(Thread* th, uint64_t now) {
  if (__builtin_expect(th->pending_since != 0, 0)) end_pending(th, now);
}
// The user API (include/tasklens/tasklens.h; `name` a session string id): a user region of the
// current task begins or ends, a parameter is set (profile_user.cpp).
void on_user_region(Thread* th, bool begin, uint64_t name, uint64_t now);
void on_user_param(Thread* th, uint64_t name, int64_t value, uint64_t now);

// The threads that have profiled, by index (inline: the breakdown reads them at every wait's
// ends).
constexpr uint32_t kMaxThreadsProfiled = 1024;
extern std::atomic<Thread*> g_threads[kMaxThreadsProfiled];
extern std::atomic<uint32_t> g_thread_count;
inline uint32_t thread_count() {
  uint32_t n = g_thread_count.load(std::memory_order_acquire);
  return n < kMaxThreadsProfiled ? n : kMaxThreadsProfiled;
}
inline Thread* thread_at(uint32_t i) {
  return g_threads[i].load(std::memory_order_acquire);
}
// This thread's tables, nullptr when it has none.
Thread* current_thread_profile();
// Ends thread `th`'s lifetime at `now`; `own`: th is the calling thread, whose open implicit
// tasks end too (the initial task, at the program's exit).
void close_thread(Thread* th, uint64_t now, bool own);

// At the end of the run: closes what is open on this thread, merges every thread's tables and
// writes profile.json into the directory `dirfd`; false when it could not be written.
bool finish_and_write(int dirfd, const char* const* counter_names, int counters);

}  // namespace tasklens::recorder::prof
