// A progress line on stderr for long work (only when stderr is a terminal): rewritten in place,
// erased when done.
#pragma once

#include <cstdint>
#include <string>

#include "replay/replay.h"

namespace tasklens::cli {

class ProgressLine {
 public:
  explicit ProgressLine(std::string what);
  ~ProgressLine() { done(); }
  replay::Progress callback();
  void update(uint64_t done, uint64_t expected);
  void done();

 private:
  std::string what_;
  bool enabled_;
  bool shown_ = false;
  uint64_t start_ns_;
};

}  // namespace tasklens::cli
