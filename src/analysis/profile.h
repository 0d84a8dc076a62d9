// The task-aware call-path profile of Score-P (Lorenz et al., Sect. IV): a call tree per thread's
// implicit task (the threads of a parallel construct share the tree, with metrics per thread), a
// merged tree per task construct (identified by its codeptr), and *stub nodes* under the
// scheduling points of the implicit tasks (barrier, taskwait, taskgroup, task creation,
// taskyield) that hold the time each task construct's instances ran there.
//
// The algorithm is Fig. 12 (TaskBegin / TaskEnd / TaskSwitch), driven by task_schedule events.
// Every task instance keeps its own stack of open frames and a clock that runs only while the
// instance runs, on whatever thread (OMPT reports every switch, so untied tasks that migrate are
// followed too: the limit of Lorenz et al. Sect. IV-D does not apply). A frame's inclusive time is
// the instance clock's advance between enter and exit, its exclusive time that minus its children's
// inclusive times, so it is never negative (Fig. 3). Implicit tasks never stop: the time explicit
// tasks run at an implicit task's scheduling point is in the stub node below it, and the
// scheduling point's exclusive time is what is left (waiting and runtime overhead, Fig. 5).
//
// Definitions (docs/REPORT.md):
// - a visit is one enter..exit of a node; a visit that an untied task carried across threads
//   counts on the thread where it ended (the stub nodes show where each piece ran);
// - fragments: running pieces of the visits (1 per visit unless the task was suspended inside);
// - task creation: OMPT gives no end for task_create, so a creation lasts from the task_create
//   event to the creator thread's next event other than the new task's dependence records (an
//   upper bound: it includes the creator's own code up to that event). When that next event
//   switches the creator out (undeferred task, or a task the runtime runs at once), the creation
//   node stays open until the creator resumes, so the task ran "in" the creation scheduling point;
// - user parameters (tasklens_param_int) open a node "name=value" below the current node that
//   closes with its parent (Score-P's parameter instrumentation); an instance of a task
//   construct counts, in the construct's parameter split, under the first value it set (as
//   the graph's grains do), and the split counts the instances that set it again.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "format/profile_file.h"
#include "format/stat.h"
#include "replay/id_map.h"
#include "replay/pass.h"
#include "replay/stable_id_map.h"
#include "replay/task_record.h"

namespace tasklens::analysis {

// Sum, min, max (and count) of a series of durations in ns (format/stat.h).
using Stat = format::Stat;

struct NodeMetrics {
  uint64_t visits = 0;
  uint64_t fragments = 0;
  Stat inclusive, exclusive;  // per visit
};

// The node kinds: one home, shared with the recorder's profile mode (format/profile_file.h).
using NodeKind = format::ProfileNodeKind;
inline const char* node_kind_name(NodeKind k) {
  return format::profile_node_kind_name(k);
}

constexpr uint32_t kNoNode = 0xffffffffu;
// The deepest a call tree goes (levels, the root's included). The report and the JSON walk the
// tree recursively and indent each level, so a chain of regions begun and never ended (10^5 user
// regions, a damaged trace) overflowed the stack: contexts deeper than this count in the
// deepest node (a visit each, their times included in its own).
constexpr uint32_t kMaxProfileDepth = 1000;

struct ProfileNode {
  NodeKind kind = NodeKind::kProgram;
  uint16_t sub = 0;
  uint32_t parent = kNoNode;
  uint64_t code = 0;  // codeptr (string id for user regions and parameters)
  int64_t value = 0;  // a parameter's value
  std::string name;   // user region or parameter name
  std::vector<uint32_t> children;
  NodeMetrics total;
  std::vector<NodeMetrics> threads;  // indexed by thread
  // perf_event counters (`tasklens run --counters`), in Profile::counter_names order: per visit,
  // the counters' advance over it, where a task's counters advance at its switches only (the
  // deltas of its fragments; an implicit task's, those of the explicit fragments in its stubs).
  // Empty without counters.
  std::vector<Stat> counters;
};

// A parameter's split of a task construct: per value, the instances and their times.
struct ParamValue {
  int64_t value = 0;
  Stat time;  // inclusive time of the instances that set this value
};
struct ParamSplit {
  std::string name;
  std::vector<ParamValue> values;  // by value
  uint64_t set_again = 0;  // instances that set the parameter more than once (first value kept)

  // The entry of value `v`, made in its place when there is none.
  ParamValue& value(int64_t v) {
    auto at = std::lower_bound(values.begin(), values.end(), v,
                               [](const ParamValue& pv, int64_t w) { return pv.value < w; });
    if (at == values.end() || at->value != v) at = values.insert(at, ParamValue{v, {}});
    return *at;
  }
};

// The split of the parameter `name` in `splits`, made at their end when there is none (the
// profile.json reader and the merge of a construct's copies; sort_splits orders them after).
ParamSplit& split_named(std::vector<ParamSplit>& splits, const std::string& name);
// The splits by name, as the report lists them.
void sort_splits(std::vector<ParamSplit>& splits);

struct TaskConstruct {
  uint64_t codeptr = 0;
  uint32_t root = kNoNode;  // its tree
  uint64_t created = 0;     // task_create events
  uint64_t instances = 0;   // instances that ran (completed or still running at the end)
  uint64_t unfinished = 0;  // of those, still running or suspended when the trace ended
  uint64_t discarded = 0;   // cancelled before they ever ran
  uint64_t fragments = 0;   // times instances were switched in
  uint64_t migrations = 0;  // resumptions on another thread than the last one
  Stat time;                // inclusive time per instance (its clock: suspended time excluded)
  Stat creation;            // per instance, see the header comment
  Stat start_delay;         // creation to first start, per instance
  uint32_t max_active_per_thread = 0;  // Lorenz et al. Table II, for this construct alone
  std::vector<ParamSplit> params;
  // perf_event counters (`tasklens run --counters`, both modes): per counter name, over the
  // instances, each instance's deltas summed over its fragments (profile_counters.cpp).
  std::vector<std::pair<std::string, Stat>> counters;
};

struct Profile {
  uint32_t threads = 0;
  std::vector<ProfileNode> nodes;
  std::vector<uint32_t> roots;             // implicit-task trees (the program, unnested parallels)
  std::vector<uint32_t> task_roots;        // one per task construct, in tasks order
  std::vector<TaskConstruct> tasks;        // most time first
  std::vector<std::string> counter_names;  // the nodes' counters
  std::vector<uint32_t> max_active_per_thread;  // started, not completed instances (Table II)
  std::vector<uint64_t> thread_time_ns;  // per thread, time inside its outermost implicit task
  uint64_t total_time_ns = 0;            // their sum: what the implicit trees cover
  uint64_t unmatched_ends = 0;           // end events with no open region to end (damaged traces)
  // Counter samples ignored: damaged `counters` events of a trace (ProfilePass's count), counter
  // reads that failed in profile mode; the counters' sums miss what they would have given.
  uint64_t bad_counter_samples = 0;
};

// Hottest first: every node's children and the roots by inclusive time, the task constructs by
// time; task_roots in the constructs' order.
void sort_profile(Profile& p);

class ProfilePass : public replay::Pass {
 public:
  void begin(const replay::ReplayInfo& info) override;
  bool uses_before() const override { return false; }  // (the default called it every event)
  void after(const replay::Record& r, const replay::TaskModel& m) override;
  void counters(const replay::Record& r, const replay::TaskModel& m) override;
  void end(const replay::ReplayInfo& info, const replay::TaskModel& m) override;

  const Profile& result() const { return result_; }
  // `counters` events whose counter index is beyond the metadata's counters (damage), ignored.
  uint64_t bad_counter_samples() const { return bad_counter_samples_; }

 private:
  enum class FrameType : uint8_t {
    kRoot,    // a task's root (parallel, program, task construct)
    kRegion,  // closed by its end event (match: sync kind, work type, string id, ...)
    kCreate,  // task creation, waiting for the creator's next event
    kSched,   // a scheduling point that closes when its task resumes
    kStub,    // on an implicit task: an explicit task runs here
    kParam,   // closes with its parent
    kMutex,   // closes at mutex_acquired (match: wait id)
  };
  struct Frame {
    // Made in place by emplace_back (push()): one built on the stack and copied stalled on
    // store-to-load forwarding (its 16-byte loads over the fields' smaller stores).
    Frame(uint32_t node_index, FrameType frame_type, uint64_t enter_clock, uint32_t fragments,
          uint64_t ends_at)
        : node(node_index),
          type(frame_type),
          enter(enter_clock),
          frag0(fragments),
          match(ends_at) {}
    uint32_t node;
    FrameType type;
    uint64_t enter;      // the task's clock at enter
    uint64_t child = 0;  // inclusive time of closed children
    uint32_t frag0;      // the task's fragment count at enter
    uint64_t match = 0;  // what ends it
  };
  // One task instance (implicit or explicit) the profile follows: the shared task record
  // (replay/task_record.h) and its place in the profile.
  struct Run : replay::TaskRecord {
    bool implicit = false;
    bool started = false;
    bool running = false;
    uint32_t thread = 0;     // where it runs or last ran
    uint32_t construct = 0;  // explicit: index in constructs_
    uint64_t clock = 0;      // running time accumulated before `since`
    uint64_t since = 0;      // when it last started running
    uint32_t fragments = 0;
    uint64_t parallel_code = 0;      // implicit: its parallel construct
    uint64_t region = 0;             // implicit: its parallel region
    uint64_t encountering = 0;       // implicit, primary thread: the task that started the region
    uint64_t stub_owner = 0;         // explicit: the implicit task holding its stub frame
    Run* stub_owner_hint = nullptr;  // for find_run
    std::vector<Frame> frames;
    struct Param {
      uint64_t name;  // string id
      int64_t value;  // the first value the instance set
      bool again;     // it set the parameter more than once
    };
    std::vector<Param> params;
    // Explicit: its counters' deltas over its fragments; implicit: those of the explicit
    // fragments that ran in its stubs (the node counters above).
    std::array<uint64_t, format::kMaxCounters> counter_sum{};
    std::array<uint64_t, format::kMaxCounters> fragment_counters{};  // of the running fragment
    std::vector<uint64_t> frame_counters;  // per open frame, counter_sum at its enter

    // Back to a new Run, keeping the vectors' capacity (runs_ recycles erased runs).
    void clear() {
      std::vector<Frame> f = std::move(frames);
      std::vector<Param> p = std::move(params);
      std::vector<uint64_t> c = std::move(frame_counters);
      *this = Run{};
      f.clear();
      p.clear();
      c.clear();
      frames = std::move(f);
      params = std::move(p);
      frame_counters = std::move(c);
    }
  };
  struct ThreadState {
    uint64_t current = 0;                                 // the task executing here
    std::vector<std::pair<uint64_t, uint64_t>> implicit;  // (implicit task, task to resume)
    uint64_t pending_creator = 0;  // a task_create waits for this thread's next event
    uint64_t pending_task = 0;     // the task being created
    uint32_t pending_construct = 0;
    uint64_t pending_since = 0;
    uint32_t active = 0;  // started, not completed instances held here
    std::vector<uint32_t> active_by_construct;
    // For find_run: the instances this thread looked up last as its current task, its innermost
    // implicit task, and the task it created last (usually the next to start here).
    Run* current_hint = nullptr;
    Run* implicit_hint = nullptr;
    Run* created_hint = nullptr;
    // The counters' values at the thread's previous `counters` event (valid: bit i set).
    std::array<uint64_t, format::kMaxCounters> counter_last{};
    uint32_t counter_valid = 0;
  };
  struct RegionInfo {
    uint32_t parent_node = kNoNode;  // where the encountering task was
    uint64_t codeptr = 0;
    uint64_t encountering = 0;
    uint32_t thread = 0;
  };
  struct ChildKey {
    uint32_t parent;
    NodeKind kind;
    uint16_t sub;
    uint64_t code;
    int64_t value;
    bool operator==(const ChildKey& o) const {
      return parent == o.parent && kind == o.kind && sub == o.sub && code == o.code &&
             value == o.value;
    }
  };
  struct ChildKeyHash {
    size_t operator()(const ChildKey& k) const;
  };

  uint32_t node(uint32_t parent, NodeKind kind, uint16_t sub, uint64_t code, int64_t value = 0);
  NodeMetrics& visits(uint32_t node, uint32_t thread);
  void collect_visits();  // visits_ into the nodes' metrics
  uint32_t construct_index(uint64_t codeptr);
  uint64_t clock(const Run& r, uint64_t now) const {
    return r.running ? r.clock + (now - r.since) : r.clock;
  }
  uint32_t top_node(const Run& r) const {
    return r.frames.empty() ? kNoNode : r.frames.back().node;
  }
  Run* current_run(uint32_t thread);
  // Instance `id` (nullptr when none): `hint` if it still holds it, else found and made the
  // hint. A stale hint fails the test: runs_ keeps erased instances cleared (id 0) or reused.
  Run* find_run(uint64_t id, Run*& hint) {
    if (!hint || hint->id != id || id == 0) hint = runs_.find(id);
    return hint;
  }
  Run& new_run(uint64_t id);  // a new instance `id`, replacing one of that id
  // The construct's split by the parameter `name` (a string id), made when new.
  ParamSplit& param_split(uint32_t construct, uint64_t name);

  void push(Run& r, uint32_t node, FrameType type, uint64_t now, uint64_t match = 0);
  void close_top(Run& r, uint64_t now, uint32_t thread);
  // Closes frames down to and including the innermost one that `pred` accepts; false (and
  // nothing closed) when there is none.
  template <class Pred>
  bool close_to(Run& r, uint64_t now, uint32_t thread, Pred pred);

  // With a creation pending on the thread (ThreadState::pending_creator).
  void resolve_pending(const format::Event& e, uint32_t thread);
  void on_implicit_task(const format::Event& e, uint32_t thread);
  // `code`: the task's construct (TaskModel::task_code, not always the event's codeptr).
  void on_create(const format::Event& e, uint32_t thread, uint64_t code);
  void on_schedule(const format::Event& e, uint32_t thread);
  void on_region(const format::Event& e, uint32_t thread, NodeKind kind, uint16_t sub,
                 uint64_t code);
  // The same for a region whose endpoint is not its event's (`taskwait depend`: libomp reports a
  // task flagged taskwait, created at its begin and ended, taskwait_complete, at its end).
  void on_region(format::Endpoint ep, uint64_t time, uint32_t thread, NodeKind kind, uint16_t sub,
                 uint64_t code);
  void on_mutex(const format::Event& e, uint32_t thread);
  void on_param(const format::Event& e, uint32_t thread);

  void task_begin(Run& task, uint32_t thread, uint64_t now);
  void task_end(Run& task, uint32_t thread, uint64_t now, bool finished);  // erases it
  void suspend(Run& task, uint64_t now, bool yield);
  void resume(Run& task, uint32_t thread, uint64_t now);
  void enter_stub(Run& task, uint32_t thread, uint64_t now);
  void exit_stub(Run& task, uint64_t now);
  void end_implicit(uint64_t id, uint32_t thread, uint64_t now);
  void set_active(uint32_t thread, uint32_t construct, int delta);
  // Called several times per event: inline, the growth out of line.
  ThreadState& thread_state(uint32_t thread) {
    if (__builtin_expect(thread >= threads_.size(), 0)) grow_threads(thread);
    return threads_[thread];
  }
  __attribute__((noinline)) void grow_threads(uint32_t thread) { threads_.resize(thread + 1); }
  // The instance's counter sums into its construct's statistics (at its end).
  void add_counters(const Run& x, TaskConstruct& c);

  const format::Experiment* experiment_ = nullptr;
  uint32_t counter_count_ = 0;  // the metadata's counters (at most kMaxCounters)
  uint64_t bad_counter_samples_ = 0;
  Profile result_;
  std::vector<uint32_t> construct_root_;  // construct index -> root node (same as tasks[i].root)
  std::unordered_map<uint64_t, uint32_t> construct_by_code_;
  // construct_by_code_'s last two answers, newest first (index kNoNode: none).
  std::pair<uint64_t, uint32_t> last_construct_[2] = {{0, kNoNode}, {0, kNoNode}};
  std::unordered_map<ChildKey, uint32_t, ChildKeyHash> children_;
  // The visits of each node per thread while the pass runs, and in the row past the last thread
  // those of threads out of range (they count in the total only). A close adds to one row; the
  // nodes' totals are summed in end(), where the order of the sums does not change them.
  std::vector<NodeMetrics> visits_;
  std::vector<Stat> node_counters_;  // node * counter_count_ + counter, while the pass runs
  replay::StableIdMap<Run> runs_;
  // Per construct index: (parameter name id, index in its params), so that an instance's end
  // finds its splits without building the name's label.
  std::vector<std::vector<std::pair<uint64_t, uint32_t>>> param_splits_;
  replay::IdMap<RegionInfo> regions_;
  std::vector<ThreadState> threads_;
};

template <class Pred>
bool ProfilePass::close_to(Run& r, uint64_t now, uint32_t thread, Pred pred) {
  size_t i = r.frames.size();
  while (i > 0 && !pred(r.frames[i - 1])) --i;
  if (i == 0) return false;
  while (r.frames.size() >= i) close_top(r, now, thread);
  return true;
}

}  // namespace tasklens::analysis
