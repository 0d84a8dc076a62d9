// The sanity of a recorded run, checked event by event: per-thread time order, every explicit
// task created once, started, completed once, its parent known (so the creation hierarchy is a
// tree rooted at implicit tasks), suspended tasks resumed, schedules naming the task that runs on
// that thread. `tasklens check` prints it; the integration tests assert on its counts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "format/experiment.h"
#include "format/stream_reader.h"
#include "replay/merged_stream.h"
#include "replay/node_pool.h"
#include "replay/record_feed.h"
#include "replay/task_record.h"

namespace tasklens::replay {

struct ConsistencyReport {
  uint32_t threads = 0;
  uint64_t events = 0;
  uint64_t parallel_regions = 0;
  uint64_t implicit_tasks = 0;
  uint64_t explicit_created = 0;
  uint64_t explicit_started = 0;    // switched in at least once
  uint64_t explicit_completed = 0;  // complete, cancel, taskwait_complete or fulfilled detach
  uint64_t explicit_cancelled = 0;
  uint64_t suspensions = 0;       // an explicit task switched out before it completed
  uint64_t resumptions = 0;       // ... and switched in again
  uint64_t migrations = 0;        // ... on another thread than the one it left
  uint64_t dependences = 0;       // dependence records (one per depend item)
  uint64_t task_dependences = 0;  // edges reported by the runtime
  uint64_t max_parent_depth = 0;  // longest chain of explicit ancestors
  // Parts of untied tasks that libomp ran without reporting their start or end
  // (format/task_switch.h): valid sequences, counted apart from the inconsistencies.
  uint64_t untied_silent_parts = 0;
  // Explicit tasks not completed at the end of the trace, and how many of them had started: the
  // work a crash or a kill cut short (an inconsistency only at the end of a complete run).
  uint64_t explicit_unfinished = 0;
  uint64_t explicit_unfinished_started = 0;

  // Inconsistencies (each also described in `issues`).
  uint64_t time_backwards = 0;
  uint64_t duplicate_creates = 0;
  uint64_t unknown_parents = 0;
  uint64_t unknown_tasks = 0;  // scheduled but never created
  uint64_t completed_twice = 0;
  uint64_t never_completed = 0;  // at the end of a complete run
  uint64_t suspended_at_end = 0;
  uint64_t wrong_thread = 0;  // a schedule whose prior task is not this thread's task

  std::vector<format::Problem> stream_problems;  // damage found while reading
  uint64_t events_lost = 0;                      // recorder-reported and damage
  std::vector<std::string> issues;               // the first inconsistencies, described

  uint64_t inconsistencies() const {
    return time_backwards + duplicate_creates + unknown_parents + unknown_tasks + completed_twice +
           never_completed + suspended_at_end + wrong_thread;
  }
  bool data_lost() const;
};

// Reads the experiment's streams and checks them.
ConsistencyReport check_consistency(const format::Experiment& x);

// The same check fed record by record (the merged stream's records, in order): `tasklens report`
// feeds it from the decoding its replays share (parallel_replay.h).
class ConsistencyChecker {
 public:
  // `threads`: the merged stream's thread count.
  ConsistencyChecker(const format::Experiment& x, uint32_t threads);
  void add(const Record& r);
  // After the last record: the stream's damage, and the report.
  ConsistencyReport finish(std::vector<format::Problem> stream_problems);

 private:
  // The check follows the stream on its own (not the task model it checks): the shared task
  // record as the events give it, and what the check needs besides.
  struct TaskFacts : TaskRecord {
    uint32_t depth = 0;  // explicit ancestors
    uint32_t last_thread = 0;
    uint64_t over = 0;  // the task it was last switched in over, on its thread
    bool started = false;
    bool completed = false;
    bool suspended = false;
    bool detached = false;
  };
  static constexpr size_t kMaxIssues = 20;
  void issue(uint64_t& counter, std::string text);
  // Task `id`'s facts; an unknown task is an issue, and known from then on. Inline, the issue
  // out of line: its formatting made every call set up a large frame.
  TaskFacts* known(uint64_t id, const Record& r, const char* role) {
    auto it = tasks_.find(id);
    if (__builtin_expect(it != tasks_.end(), 1)) return &it->second;
    return unknown(id, r, role);
  }
  __attribute__((noinline)) TaskFacts* unknown(uint64_t id, const Record& r, const char* role);

  const format::Experiment& x_;
  ConsistencyReport rep_;
  std::unordered_map<uint64_t, TaskFacts, std::hash<uint64_t>, std::equal_to<uint64_t>,
                     NodePoolAllocator<std::pair<const uint64_t, TaskFacts>>>
      tasks_;
  std::vector<uint64_t> last_time_;
  std::vector<uint64_t> current_;  // the task each thread runs
  // Per thread: what its current task was on top of, when that task completed on another thread.
  std::vector<uint64_t> gone_over_;
};

// The check fed by a RecordFeed on its decoding thread (`tasklens report`, parallel_replay.h):
// `report` is complete once the feed has ended.
class ConsistencySink final : public RecordSink {
 public:
  explicit ConsistencySink(const format::Experiment& x) : x_(x) {}
  void begin(uint32_t threads) override { checker_.emplace(x_, threads); }
  void add(const Record* records, size_t count) override {
    for (size_t i = 0; i < count; ++i) checker_->add(records[i]);
  }
  void end(std::vector<format::Problem> problems) override {
    report = checker_->finish(std::move(problems));
  }
  ConsistencyReport report;

 private:
  const format::Experiment& x_;
  std::optional<ConsistencyChecker> checker_;
};

// What `tasklens check` concludes, for it and for the report's header.
struct Soundness {
  bool sound = false;
  std::string reason;  // "nothing lost, every task consistent", "data was lost", ...
};
// `x`: its status (did the run complete?) and damage (metadata or streams the reader refused).
Soundness soundness(const ConsistencyReport& rep, const format::Experiment& x);

}  // namespace tasklens::replay
