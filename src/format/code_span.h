// CodeSpan: a span of code addresses, such as the runtime library's (metadata runtime.code).
#pragma once

#include <cstdint>

namespace tasklens::format {

// A span of code addresses [begin, end): the runtime library's, whose addresses in events are
// the runtime's own rather than the program's call sites (replay: task_model.h,
// mutex_call_sites.h). Empty ({0, 0}) when not recorded: then nothing is inside it.
struct CodeSpan {
  uint64_t begin = 0, end = 0;
  bool contains(uint64_t code) const { return code >= begin && code < end; }
};

}  // namespace tasklens::format
