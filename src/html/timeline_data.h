// The HTML report's timeline data: what each thread did over the run (its state, the task on top
// of its stack) and the tasks with their constructs and dependences, as compact JSON for the page
// (arrays of numbers, times as differences, a region table). A sink of the timeline pass the
// timeline exports share (export/timeline.h), so the page shows the same nesting and states as
// the OTF2, Paraver and Perfetto exports. docs/HTML-REPORT.md describes the JSON.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <vector>

#include "export/regions.h"
#include "export/timeline.h"

namespace tasklens::html {

class TimelineData final : private exports::TimelineSink {
 public:
  TimelineData(const format::Experiment& x, symbols::Symbolizer* symbols);

  replay::Pass& pass() { return pass_; }
  // After the replay: the `timeline` object of the page's data. `path_tasks`: the task ids of the
  // critical path (analysis::TaskGraph::path_tasks), listed as the page's task numbers in `path`.
  nlohmann::json json(const std::vector<uint64_t>& path_tasks = {}) const;

 private:
  // A sequence of (time difference, value) pairs, several values at one instant kept as the last.
  struct Changes {
    std::vector<int64_t> flat;  // dt, value, dt, value, ...
    uint64_t last_t = 0;
    void add(uint64_t t, int64_t value);
  };

  void begin(const exports::TimelineInfo& info) override;
  void task_create(uint32_t thread, uint64_t t, exports::TimelineTask& task,
                   const exports::TimelineTask* parent) override;
  void task_switch(uint32_t thread, uint64_t t, exports::TimelineTask* task,
                   const exports::SwitchInfo& how) override;
  void thread_state(uint32_t thread, uint64_t t, exports::ThreadState state) override;
  void end(uint64_t t) override;

  // The task's number in the page's task table (from 1), registering it at first sight.
  uint64_t number(exports::TimelineTask& task, uint32_t thread, uint64_t t);

  exports::RegionTable regions_;
  exports::Filter filter_;
  exports::TimelinePass pass_;
  uint32_t threads_ = 0;
  uint64_t end_ns_ = 0;
  std::vector<Changes> states_;    // per thread: ThreadState values
  std::vector<Changes> switches_;  // per thread: the task number on top (0: none)
  // The task table, one entry per task, columns.
  std::vector<uint32_t> task_region_;
  std::vector<uint64_t> task_parent_;  // its number, 0: none known
  std::vector<int64_t> task_creator_;  // thread, -1: unknown
  std::vector<uint64_t> task_created_;
  std::vector<uint64_t> deps_;  // predecessor, successor, ... (task numbers)
  std::unordered_map<uint64_t, uint64_t> number_of_;  // task id -> its number
};

}  // namespace tasklens::html
