// The process facts the recorder reads from /proc: here the kernel's run-queue wait of a thread
// (schedstat's second field), read for the calling thread and by thread id.
#include "recorder/process_info.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace tasklens::recorder {
namespace {

TEST(ProcessInfo, ARunQueueWaitIsReadForTheThreadAndByItsId) {
  uint64_t self = 0;
  if (!thread_run_delay(0, &self)) GTEST_SKIP() << "no scheduler totals in /proc here";
  // A second thread that keeps running while this one reads its totals by its id.
  std::atomic<int> tid{0};
  std::atomic<bool> stop{false};
  std::thread other([&] {
    tid = int(gettid());
    volatile unsigned long x = 0;
    while (!stop.load(std::memory_order_relaxed)) ++x;
  });
  while (tid.load() == 0) std::this_thread::yield();
  uint64_t first = 0, second = 0;
  EXPECT_TRUE(thread_run_delay(tid.load(), &first));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_TRUE(thread_run_delay(tid.load(), &second));
  stop = true;
  other.join();
  EXPECT_GE(second, first);  // a running total
  // The id of a thread not of this process (init's): unreadable, nothing stored. (Not the
  // joined thread's: its /proc entry may outlive the join for a moment.)
  uint64_t gone = 12345;
  EXPECT_FALSE(thread_run_delay(1, &gone));
  EXPECT_EQ(gone, 12345u);
}

}  // namespace
}  // namespace tasklens::recorder
