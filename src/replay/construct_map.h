// Which task construct a code address is a copy of: a compiler that unrolls a loop or inlines a
// function copies a task construct, and each copy reports its own address. The replay's task
// model asks this once per task creation; symbols::Symbolizer answers from the debug info.
#pragma once

#include <cstdint>

namespace tasklens::replay {

class ConstructMap {
 public:
  // The construct `codeptr` is a copy of (0 stays 0).
  virtual uint64_t construct(uint64_t codeptr) = 0;

 protected:
  ~ConstructMap() = default;
};

}  // namespace tasklens::replay
