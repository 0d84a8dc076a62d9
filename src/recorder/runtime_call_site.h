// libomp 14 reports some constructs with a code address inside itself instead of the program's
// call site: a taskloop's `work` events and the tasks it creates all carry an address in
// __kmpc_taskloop (its implicit taskgroup, which begins before the `work` begin and ends after the
// `work` end, carries the program's). Every taskloop of a program would look like one construct.
// At the (rare) start of such a construct the recorder walks the stack to the first frame outside
// the runtime and the recorder, the program's call into the runtime, and records that instead.
#pragma once

#include <cstdint>

namespace tasklens::recorder {

// Notes the address range of the runtime's library: the object holding `runtime_symbol` (a
// function of the runtime, e.g. the OMPT lookup function). Call once, before any callback.
void note_runtime_object(const void* runtime_symbol);

// Whether `codeptr` lies in the runtime's library.
bool in_runtime(uint64_t codeptr);

// The executable span [begin, end) of the runtime's library; {0, 0} when unknown.
struct CodeSpan {
  uint64_t begin = 0, end = 0;
};
CodeSpan runtime_code();

// The return address of the program's call into the runtime that led to this callback: the
// first frame on the stack outside the runtime and outside libtasklens; 0 when not found.
uint64_t program_call_site();

// The program's call sites of the taskloops a thread is inside, innermost last (deeper than kMax,
// the innermost kept is used). Both modes name a taskloop's work events and its tasks by them
// instead of libomp's own address. Trace mode reads `depth` on every task creation, profile mode
// only on one at the runtime's address.
struct TaskloopSites {
  static constexpr int kMax = 8;
  int depth = 0;
  uint64_t sites[kMax] = {};

  // `codeptr`, or the enclosing taskloop's call site when `codeptr` is the runtime's.
  uint64_t code(uint64_t codeptr) const {
    if (__builtin_expect(depth == 0, 1) || !in_runtime(codeptr)) return codeptr;
    return sites[(depth < kMax ? depth : kMax) - 1];
  }
  // At a taskloop's `work` begin or end: the code to give it (the stack is walked at its begin,
  // once per taskloop, when libomp gave an address of its own; taskloops nest when a task of
  // one runs another).
  uint64_t work(bool begin, uint64_t codeptr) {
    if (!in_runtime(codeptr)) return codeptr;
    if (begin) {
      uint64_t site = program_call_site();
      if (depth < kMax) sites[depth] = site ? site : codeptr;
      ++depth;
    }
    uint64_t c = code(codeptr);
    if (!begin && depth > 0) --depth;
    return c;
  }
};

// libomp 14's GCC entry points (GOMP_*) leave the return address of the barrier a thread waits in
// stored while the thread runs tasks there, and the first task creation of each task begun there
// reports it as its own: a GCC-built program's task construct then appears at the `parallel` line
// (every child of BOTS strassen's tasks run in the closing barrier, for one). A thread keeps the
// code address of the barrier it is in; a creation that reports that address gets the program's
// call site from the stack instead (once per task begun in a barrier, and only for GCC builds:
// clang's calls give a task creation an address of its own).
struct BarrierSite {
  uint64_t codeptr = 0;  // of the barrier the thread is in, 0 outside one

  void on_barrier(bool begin, uint64_t code) {
    if (begin) {
      codeptr = code;
    } else if (codeptr == code) {
      codeptr = 0;
    }
  }
  // A task creation's code: `code`, or the program's call site when `code` is the barrier's.
  uint64_t creation(uint64_t code) const {
    if (__builtin_expect(code != codeptr || code == 0, 1)) return code;
    uint64_t site = program_call_site();
    return site ? site : code;
  }
};

}  // namespace tasklens::recorder
