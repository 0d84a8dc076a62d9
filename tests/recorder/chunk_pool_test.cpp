// ChunkPool: a fixed number of chunks, taken and given back, handed to the writer oldest first.
#include "recorder/chunk_pool.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <thread>
#include <vector>

namespace tasklens::recorder {
namespace {

TEST(ChunkPool, HoldsWholeChunksAndAtLeastFour) {
  ChunkPool small;
  ASSERT_TRUE(small.init(1));
  EXPECT_EQ(small.chunk_count(), 4u);
  ChunkPool pool;
  ASSERT_TRUE(pool.init(10 * kChunkBytes + kChunkBytes / 2));
  EXPECT_EQ(pool.chunk_count(), 10u);
}

TEST(ChunkPool, GivesEachChunkOnceUntilItComesBack) {
  ChunkPool pool;
  ASSERT_TRUE(pool.init(6 * kChunkBytes));
  std::vector<Chunk*> taken;
  while (Chunk* c = pool.try_take()) taken.push_back(c);
  ASSERT_EQ(taken.size(), 6u);
  for (size_t i = 0; i < taken.size(); ++i) {
    for (size_t j = i + 1; j < taken.size(); ++j) EXPECT_NE(taken[i], taken[j]);
  }
  EXPECT_EQ(pool.in_use(), 6u);
  EXPECT_EQ(pool.peak_in_use(), 6u);
  pool.give_back(taken[2]);
  EXPECT_EQ(pool.in_use(), 5u);
  EXPECT_EQ(pool.try_take(), taken[2]);
  EXPECT_EQ(pool.peak_in_use(), 6u);
}

TEST(ChunkPool, WaitingTimesOutWhenNothingComesBack) {
  ChunkPool pool;
  ASSERT_TRUE(pool.init(4 * kChunkBytes));
  for (int i = 0; i < 4; ++i) ASSERT_NE(pool.try_take(), nullptr);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(pool.take_waiting(20), nullptr);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(20));
}

TEST(ChunkPool, AWaitingThreadGetsTheChunkGivenBack) {
  ChunkPool pool;
  ASSERT_TRUE(pool.init(4 * kChunkBytes));
  std::vector<Chunk*> taken;
  for (int i = 0; i < 4; ++i) taken.push_back(pool.try_take());
  Chunk* got = nullptr;
  std::thread waiter([&] { got = pool.take_waiting(10000); });
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  pool.give_back(taken[1]);
  waiter.join();
  EXPECT_EQ(got, taken[1]);
}

// How many of the `n` chunks from `first` have all their pages resident.
size_t resident_chunks(const Chunk* first, size_t n) {
  size_t page = size_t(sysconf(_SC_PAGESIZE)), per = kChunkBytes / page, whole = 0;
  std::vector<unsigned char> in(per);
  for (size_t i = 0; i < n; ++i) {
    void* at = const_cast<uint8_t*>(reinterpret_cast<const uint8_t*>(first) + i * kChunkBytes);
    if (mincore(at, kChunkBytes, in.data()) != 0) return 0;
    size_t pages = 0;
    for (unsigned char b : in) pages += b & 1;
    whole += pages == per;
  }
  return whole;
}

TEST(ChunkPool, StartUpWarmsOnlyTheChunksAskedFor) {
  // A short run takes a chunk or two per thread: warming all 16 small-page chunks cost it
  // 0.5-0.7 ms at start and their freeing at exit (docs/PERFORMANCE-RECORDING.md).
  ChunkPool pool;
  ASSERT_TRUE(pool.init(64 * kChunkBytes, 4));
  Chunk* first = pool.try_take();  // taking writes nothing into the chunk
  ASSERT_NE(first, nullptr);
  size_t warm = resident_chunks(first, kSmallPagesBytes / kChunkBytes);
  if (warm == 0) GTEST_SKIP() << "no MADV_POPULATE_WRITE (Linux < 5.14): nothing is warmed";
  EXPECT_EQ(warm, 4u);
}

TEST(ChunkPool, TheWriterIsCalledOnlyWhenTheWarmChunksRunLow) {
  ChunkPool pool;
  ASSERT_TRUE(pool.init(64 * kChunkBytes, 8));
  EXPECT_FALSE(pool.wants_warming());
  // 8 warm: the first three takes leave at least kWarmLowWater (5) warm ones ahead.
  for (int i = 0; i < 3; ++i) {
    bool wake = false;
    ASSERT_NE(pool.try_take(&wake), nullptr);
    EXPECT_FALSE(wake) << "take " << i;
  }
  EXPECT_FALSE(pool.wants_warming());
  bool wake = false;
  ASSERT_NE(pool.try_take(&wake), nullptr);
  EXPECT_TRUE(wake);
  EXPECT_TRUE(pool.wants_warming());  // from now on the writer keeps kWarmChunks ahead
  pool.warm_ahead(kWarmChunks);
  wake = false;
  ASSERT_NE(pool.try_take(&wake), nullptr);
  EXPECT_FALSE(wake);
  // A chunk given back and taken again is warm already: no call.
  Chunk* c = pool.try_take(&wake);
  pool.give_back(c);
  wake = false;
  EXPECT_EQ(pool.try_take(&wake), c);
  EXPECT_FALSE(wake);
}

TEST(ChunkPool, ARunThatFillsChunksStartsTheWarmingOnce) {
  // A thread's second chunk (ThreadBuffer's refill) starts the writer's warming, before the
  // warm chunks run low.
  ChunkPool pool;
  ASSERT_TRUE(pool.init(64 * kChunkBytes, 8));
  EXPECT_FALSE(pool.wants_warming());
  EXPECT_TRUE(pool.start_warming());
  EXPECT_TRUE(pool.wants_warming());
  EXPECT_FALSE(pool.start_warming());
}

TEST(ChunkPool, TheWriterGetsFullChunksOldestFirst) {
  ChunkPool pool;
  ASSERT_TRUE(pool.init(4 * kChunkBytes));
  EXPECT_TRUE(pool.full_queue_empty());
  Chunk* a = pool.try_take();
  Chunk* b = pool.try_take();
  Chunk* c = pool.try_take();
  EXPECT_EQ(pool.push_full(a), 1u);
  EXPECT_EQ(pool.push_full(b), 2u);
  EXPECT_EQ(pool.push_full(c), 3u);
  EXPECT_FALSE(pool.full_queue_empty());
  std::vector<Chunk*> order;
  for (Chunk* x = pool.pop_all_full(); x; x = x->next) order.push_back(x);
  EXPECT_EQ(order, (std::vector<Chunk*>{a, b, c}));
  EXPECT_TRUE(pool.full_queue_empty());
  EXPECT_EQ(pool.pop_all_full(), nullptr);
}

TEST(ChunkPool, ManyProducersLoseNoChunk) {
  ChunkPool pool;
  constexpr int kThreads = 4, kEach = 8;
  ASSERT_TRUE(pool.init(kThreads * kEach * kChunkBytes));
  std::vector<std::thread> producers;
  for (int t = 0; t < kThreads; ++t) {
    producers.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        Chunk* c = pool.try_take();
        ASSERT_NE(c, nullptr);
        c->thread = uint32_t(t);
        c->count = uint32_t(i);
        pool.push_full(c);
      }
    });
  }
  for (auto& p : producers) p.join();
  std::vector<int> next(kThreads, 0);
  size_t n = 0;
  for (Chunk* x = pool.pop_all_full(); x; x = x->next, ++n) {
    // Each producer's chunks come out in the order it pushed them.
    EXPECT_EQ(x->count, uint32_t(next[x->thread]++));
  }
  EXPECT_EQ(n, size_t(kThreads * kEach));
}

}  // namespace
}  // namespace tasklens::recorder
