// The simulation's event queue (src/simulate/event_queue.h) against the order it replaces: a
// binary heap of (time, worker) pairs, earliest first and the lowest worker among equal times.
#include "simulate/event_queue.h"

#include <gtest/gtest.h>

#include <functional>
#include <queue>
#include <random>

namespace tasklens::simulate::detail {
namespace {

TEST(EventQueue, EarliestFirstThenTheLowestWorker) {
  EventQueue q(5);  // not a power of two: three padding leaves
  EXPECT_TRUE(q.empty());
  q.set(3, 100);
  q.set(1, 100);
  q.set(4, 50);
  q.set(0, 200);
  EXPECT_EQ(q.top(), EventQueue::Event(50, 4));
  q.pop();
  EXPECT_EQ(q.top(), EventQueue::Event(100, 1));  // the tie goes to the lower worker
  q.set(1, 300);                                  // replaces worker 1's event
  EXPECT_EQ(q.top(), EventQueue::Event(100, 3));
  q.pop();
  EXPECT_EQ(q.top(), EventQueue::Event(200, 0));
  q.pop();
  EXPECT_EQ(q.top(), EventQueue::Event(300, 1));
  q.pop();
  EXPECT_TRUE(q.empty());
}

TEST(EventQueue, OneWorker) {
  EventQueue q(1);
  EXPECT_TRUE(q.empty());
  q.set(0, 7);
  EXPECT_EQ(q.top(), EventQueue::Event(7, 0));
  q.pop();
  EXPECT_TRUE(q.empty());
}

TEST(EventQueue, TheLastTimeIsStillAnEvent) {
  EventQueue q(2);
  q.set(1, UINT64_MAX);  // a damaged trace's saturated time
  EXPECT_FALSE(q.empty());
  EXPECT_EQ(q.top().second, 1u);
  q.set(0, UINT64_MAX - 1);
  EXPECT_EQ(q.top().second, 0u);  // the same time now: the lower worker
}

// The simulator's use: pop the earliest, then set that worker again later or not at all, and
// set other idle workers at the current time; the same sequence as the heap, event for event.
TEST(EventQueue, SameSequenceAsAHeapOfPairs) {
  for (uint32_t workers : {2u, 3u, 64u, 100u}) {
    std::mt19937_64 rng(workers);
    EventQueue q(workers);
    using Pair = std::pair<uint64_t, uint32_t>;
    std::priority_queue<Pair, std::vector<Pair>, std::greater<Pair>> heap;
    std::vector<bool> pending(workers);
    auto set = [&](uint32_t w, uint64_t t) {
      pending[w] = true;
      q.set(w, t);
      heap.push({t, w});
    };
    set(0, 0);
    for (int i = 0; i < 20000 && !heap.empty(); ++i) {
      ASSERT_EQ(q.top(), heap.top()) << workers << " workers, step " << i;
      auto [now, w] = heap.top();
      heap.pop();
      q.pop();
      pending[w] = false;
      if (rng() % 8) set(w, now + rng() % 4);  // small steps: many equal times
      for (uint32_t k = rng() % 3; k-- > 0;) {
        auto v = uint32_t(rng() % workers);
        if (!pending[v]) set(v, now);
      }
    }
  }
}

}  // namespace
}  // namespace tasklens::simulate::detail
