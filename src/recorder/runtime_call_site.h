// libomp 14 reports some constructs with a code address inside itself instead of the program's
// call site: a taskloop's `work` events, the tasks it creates and its implicit taskgroup all carry
// an address in __kmpc_taskloop. Every taskloop of a program would then look like one construct.
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

}  // namespace tasklens::recorder
