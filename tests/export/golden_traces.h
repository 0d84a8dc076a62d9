// Hand-made traces for the tricky cases of the timeline exports, shared by the golden tests of
// each format. Task ids are real tasklens ids (thread, counter) so that OTF2's (creating thread,
// generation number) reads naturally: T0#3 is id(0, 3).
#pragma once

#include <string>

#include "format/event.h"
#include "support/trace_builder.h"

namespace tasklens::testing {

constexpr uint64_t id(uint32_t thread, uint64_t n) {
  return format::make_id(thread, n);
}

// One thread. The implicit task T0#2 creates task A (T0#3), which opens a user region "work",
// creates C (T0#4) and waits for it in a taskwait; C runs inside the taskwait:
//   10 initial task T0#1, 20 parallel, 30 implicit task T0#2, 40 create A, 50 A switched in,
//   55 "work" begins, 60 create C, 70 taskwait begins, 80 C switched in, 90 C completes,
//   100 taskwait ends, 105 "work" ends, 110 A completes, 120 implicit task ends,
//   130 parallel ends, 140 initial task ends, 150 thread ends.
std::string taskwait_with_child_trace(TraceBuilder& t);
// The same with counters (`--counters page-faults,task-clock`): samples before each switch,
//   50 (10, 1000), 80 (15, 1300), 90 (35, 1500), 110 (36, 1600),
// and a damaged one at 95 (counter index 9: no such counter), which every reader ignores.
std::string taskwait_with_counters_trace(TraceBuilder& t);

// The frame of the two-thread traces: 5 thread 0 begins, 10 initial task T0#1, 20 parallel of 2,
// 30 implicit task T0#2, 32 thread 1 begins, 35 implicit task T1#1; and at the end 100 and 105
// the implicit tasks end, 107 thread 1 ends, 110 parallel ends, 120 initial task ends, 150
// thread 0 ends.
// Thread 0 alone: thread_begin at 5, initial task T0#1 at 10, parallel region T0#100 at 20, its
// implicit task T0#2 at 30.
void one_thread_opening(TraceBuilder& t);
// The end of the one-thread traces: 120 the implicit task T0#2 ends, 130 the parallel region,
// 140 the initial task, 150 the thread; then the trace is written (its directory returned).
std::string close_one_thread(TraceBuilder& t);
void two_thread_opening(TraceBuilder& t);
void two_thread_closing(TraceBuilder& t);

// Two threads. The untied task U (T0#3) starts on thread 0 inside the implicit task T0#2, opens a
// user region "phase", yields back at 60 (untied: its frame leaves thread 0), is resumed by
// thread 1 at 70 (its frame and "phase" are entered there), closes "phase" at 80 and completes at
// 90 on thread 1.
std::string untied_migration_trace(TraceBuilder& t);

// Two threads. T0#2 writes address 0xa0 (out), T0#3 reads it (in): T0#2 runs on thread 0 from 40
// to 50, T0#3 waits for it and runs on thread 1 from 60 to 70.
std::string dependence_trace(TraceBuilder& t);

}  // namespace tasklens::testing
