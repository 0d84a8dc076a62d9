// BlockPipe: records handed from one thread to another in blocks, in order, whole.
#include "export/block_pipe.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

namespace tasklens::exports {
namespace {

using Pipe = BlockPipe<uint64_t>;

// What the consumer got, read on a thread of its own while `produce` runs on this one.
template <class Produce>
std::vector<uint64_t> through_pipe(Produce produce) {
  Pipe pipe;
  std::vector<uint64_t> got;
  std::thread consumer([&] {
    size_t n = 0;
    while (const uint64_t* block = pipe.next_block(&n)) got.insert(got.end(), block, block + n);
  });
  produce(pipe);
  pipe.close();
  consumer.join();
  return got;
}

TEST(BlockPipe, HandsOverEveryRecordInOrderThroughMoreBlocksThanTheRing) {
  // Several times the ring, and a last block that is not full.
  const uint64_t n = Pipe::kBlocks * Pipe::kBlockRecords * 3 + 17;
  std::vector<uint64_t> got = through_pipe([&](Pipe& pipe) {
    for (uint64_t i = 0; i < n; ++i) {
      if (i % 2) {
        pipe.push(i * 7);
      } else {
        pipe.slot() = i * 7;
        pipe.commit();
      }
    }
  });
  ASSERT_EQ(got.size(), n);
  for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], i * 7) << "record " << i;
}

// Records written in place by the block (the Paraver merge), in pieces of uneven sizes that end
// inside and at the end of blocks.
TEST(BlockPipe, RecordsWrittenByTheBlockArriveInOrder) {
  const uint64_t n = Pipe::kBlocks * Pipe::kBlockRecords * 2 + 5;
  std::vector<uint64_t> got = through_pipe([&](Pipe& pipe) {
    uint64_t i = 0;
    for (size_t piece = 1; i < n; piece = piece % 5000 + 777) {
      size_t room = 0;
      uint64_t* p = pipe.room(&room);
      ASSERT_GT(room, 0u);
      size_t k = std::min<uint64_t>({piece, room, n - i});
      for (size_t j = 0; j < k; ++j) p[j] = (i + j) * 3;
      pipe.commit(k);
      i += k;
    }
  });
  ASSERT_EQ(got.size(), n);
  for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], i * 3) << "record " << i;
}

TEST(BlockPipe, AFullLastBlockIsHandedOverOnceAndAnEmptyPipeEnds) {
  std::vector<uint64_t> got = through_pipe([](Pipe& pipe) {
    for (uint64_t i = 0; i < Pipe::kBlockRecords; ++i) pipe.push(i);
  });
  EXPECT_EQ(got.size(), Pipe::kBlockRecords);
  EXPECT_TRUE(through_pipe([](Pipe&) {}).empty());
}

}  // namespace
}  // namespace tasklens::exports
