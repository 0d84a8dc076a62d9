// Hand-made traces for golden tests: say what each thread did at which nanosecond, then write a
// real experiment directory that the reader, the replay and the CLI read like a recorded one.
//
//   TraceBuilder t;
//   t.implicit_begin(0, 0, /*task=*/1, /*region=*/100, 2, 0);
//   t.create(0, 10, /*task=*/5, /*parent=*/1);
//   t.schedule(1, 20, /*prior=*/2, Status::kSwitch, /*next=*/5);
//   std::string dir = t.write();
//
// Ids are any non-zero numbers; times must not decrease within a thread.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "format/event.h"
#include "support/experiment_writer.h"

namespace tasklens::testing {

using format::DependenceType;
using format::SyncKind;
using Status = format::TaskStatus;

class TraceBuilder {
 public:
  TraceBuilder& thread_begin(uint32_t th, uint64_t t, uint16_t type = 2);
  TraceBuilder& thread_end(uint32_t th, uint64_t t);
  TraceBuilder& parallel_begin(uint32_t th, uint64_t t, uint64_t region, uint64_t task,
                               uint16_t requested = 2, uint64_t code = 0x1000);
  TraceBuilder& parallel_end(uint32_t th, uint64_t t, uint64_t region, uint64_t task,
                             uint64_t code = 0x1000);
  TraceBuilder& implicit_begin(uint32_t th, uint64_t t, uint64_t task, uint64_t region,
                               uint32_t team_size, uint16_t index,
                               uint32_t flags = format::task_flag::kImplicit);
  TraceBuilder& implicit_end(uint32_t th, uint64_t t, uint64_t task, uint64_t region = 0,
                             uint32_t team_size = 0, uint16_t index = 0);
  // The initial task of the program (implicit_task with the initial flag).
  TraceBuilder& initial_task(uint32_t th, uint64_t t, uint64_t task);
  // A one-thread program: initial task 1 enters parallel region 100 (code 0x1000) at 0, its
  // implicit task 2 on thread 0; solo_end: the region ends at `end`, the program at `exit`.
  TraceBuilder& solo_begin();
  TraceBuilder& solo_end(uint64_t end, uint64_t exit);
  // A two-thread program: initial task 1 forks region 100 (the default code) at 0, its implicit
  // tasks 2 on thread 0 and 3 on thread 1.
  TraceBuilder& pair_begin();
  TraceBuilder& create(uint32_t th, uint64_t t, uint64_t task, uint64_t parent,
                       uint64_t code = 0x2000, uint32_t flags = format::task_flag::kExplicit,
                       bool has_deps = false);
  TraceBuilder& schedule(uint32_t th, uint64_t t, uint64_t prior, Status status, uint64_t next);
  // One dependence record per item, as the recorder writes them.
  TraceBuilder& deps(uint32_t th, uint64_t t, uint64_t task,
                     std::initializer_list<std::pair<uint64_t, DependenceType>> items);
  TraceBuilder& task_dependence(uint32_t th, uint64_t t, uint64_t src, uint64_t sink);
  TraceBuilder& sync(uint32_t th, uint64_t t, SyncKind kind, format::Endpoint ep, uint64_t region,
                     uint64_t task, uint64_t code = 0x3000);
  TraceBuilder& sync_wait(uint32_t th, uint64_t t, SyncKind kind, format::Endpoint ep,
                          uint64_t region, uint64_t task, uint64_t code = 0x3000);
  // sync + sync_wait begin at t0, sync_wait + sync end at t1: a whole barrier or taskwait.
  TraceBuilder& sync_span(uint32_t th, uint64_t t0, uint64_t t1, SyncKind kind, uint64_t region,
                          uint64_t task, uint64_t code = 0x3000);
  TraceBuilder& work(uint32_t th, uint64_t t, format::WorkType type, format::Endpoint ep,
                     uint64_t region, uint64_t task, uint32_t count = 0, uint64_t code = 0x4000);
  TraceBuilder& masked(uint32_t th, uint64_t t, format::Endpoint ep, uint64_t region,
                       uint64_t task, uint64_t code = 0x5000);
  TraceBuilder& mutex(uint32_t th, uint64_t t, format::Kind kind, format::MutexKind mk,
                      uint64_t wait_id, uint64_t code = 0x6000);
  TraceBuilder& user_region(uint32_t th, uint64_t t, format::Endpoint ep, const std::string& name);
  TraceBuilder& user_param(uint32_t th, uint64_t t, const std::string& name, int64_t value);
  TraceBuilder& event(uint32_t th, const format::Event& e);
  // Thread `th` was preempted (off its CPU) from t0 to t1 (off_cpu.bin).
  TraceBuilder& preempted(uint32_t th, uint64_t t0, uint64_t t1);

  // Events per chunk (default 1000).
  TraceBuilder& chunk_events(size_t n);
  ExperimentWriter& writer() { return writer_; }

  // Writes into a fresh scratch directory (or `dir`) and returns its path.
  std::string write(const std::string& dir = "");

 private:
  uint32_t string_id(const std::string& name);

  ExperimentWriter writer_;
  std::vector<std::string> strings_;
};

// A new empty directory under the test's scratch area (removed at process exit unless
// TASKLENS_KEEP_TEST_DIRS is set).
std::string scratch_dir(const std::string& hint = "t");

}  // namespace tasklens::testing
