// Writes a file's blocks on a thread of its own, so that the kernel's copy of the bytes into the
// page cache (a third of a Paraver export's time: EXPORTS.md) runs while the exporter formats
// the next block. One block is in flight at a time: memory stays two blocks.
#pragma once

#include <fmt/format.h>

#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

namespace tasklens::exports {

class WriteBehind {
 public:
  explicit WriteBehind(FILE* file);
  ~WriteBehind();  // waits for the block in flight
  WriteBehind(const WriteBehind&) = delete;
  WriteBehind& operator=(const WriteBehind&) = delete;

  // Hands `block` over (it comes back empty, with the capacity of an earlier block), once the
  // block before it is written.
  void write(fmt::memory_buffer& block);
  // Waits until every block handed over is written; the errno of the first failed write, or 0.
  int finish();

 private:
  void run();

  FILE* file_;
  std::mutex mu_;
  std::condition_variable cv_;
  fmt::memory_buffer pending_;
  bool has_pending_ = false;
  bool stop_ = false;
  int error_ = 0;
  std::thread thread_;
};

}  // namespace tasklens::exports
