// What an integration test asserts on: facts computed from a recorded experiment by the test's own
// simple bookkeeping (independent of tasklens check), in the reader's terms.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "format/event.h"
#include "format/experiment.h"
#include "format/stream_reader.h"

namespace tasklens::testing {

struct TaskLife {
  uint64_t parent = 0;
  uint32_t flags = 0;
  uint32_t creates = 0;
  uint32_t starts = 0;       // first switch-in
  uint32_t completions = 0;  // complete, cancel, late_fulfill, taskwait_complete
  bool implicit = false;
};

struct TraceFacts {
  std::string error;  // the experiment could not be opened
  format::Experiment x;
  std::vector<std::vector<format::Event>> by_thread;  // ticks, in stream order
  std::vector<format::Problem> problems;
  std::vector<format::ChunkHeader> headers;  // every chunk read, all threads
  uint64_t events = 0;

  std::unordered_map<uint64_t, TaskLife> tasks;  // implicit and explicit
  uint64_t explicit_created = 0;                 // create events with the explicit flag
  uint64_t times_backwards = 0;                  // within a thread's stream
  uint64_t orphans = 0;       // explicit tasks whose parent chain does not reach an implicit task
  uint64_t suspensions = 0;   // explicit task switched out (switch/yield) before completing
  uint64_t resumptions = 0;   // ... and switched in again
  uint64_t dependence_records = 0;
  uint64_t rebuilt_edges = 0;  // distinct task pairs from dependence addresses (in/out/inout)
  uint64_t lost_marked = 0;    // sum of the counts of `lost` events

  // Events of `kind` (with op == `op` and sub == `sub` when given, -1 = any).
  uint64_t count(format::Kind kind, int op = -1, int sub = -1) const;
  // Explicit tasks whose create/start/completion counts are not exactly one each.
  uint64_t explicit_not_once() const;
  uint64_t explicit_completed() const;
  std::string summary() const;  // for failure messages
};

TraceFacts read_trace(const std::string& dir);

}  // namespace tasklens::testing
