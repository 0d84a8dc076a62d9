// The process facts the recorder reads from /proc: here the kernel's run-queue wait of a thread
// (schedstat's second field), read for the calling thread and by thread id.
#include "recorder/process_info.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <thread>

namespace tasklens::recorder {
namespace {

TEST(ProcessInfo, ARunQueueWaitIsReadForTheThreadAndByItsId) {
  if (!thread_run_delay(0)) GTEST_SKIP() << "no scheduler totals in /proc here";
  // A second thread that keeps running while this one reads its totals by its id.
  std::atomic<int> tid{0};
  std::atomic<bool> stop{false};
  std::thread other([&] {
    tid = int(gettid());
    volatile unsigned long x = 0;
    while (!stop.load(std::memory_order_relaxed)) ++x;
  });
  while (tid.load() == 0) std::this_thread::yield();
  std::optional<uint64_t> first = thread_run_delay(tid.load());
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::optional<uint64_t> second = thread_run_delay(tid.load());
  stop = true;
  other.join();
  ASSERT_TRUE(first && second);
  EXPECT_GE(*second, *first);  // a running total
  // The id of a thread not of this process (init's): unreadable. (Not the joined thread's: its
  // /proc entry may outlive the join for a moment.)
  EXPECT_FALSE(thread_run_delay(1));
}

}  // namespace
}  // namespace tasklens::recorder
