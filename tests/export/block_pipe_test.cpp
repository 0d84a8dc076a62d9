// BlockPipe: records handed from one thread to another in blocks, in order, whole.
#include "export/block_pipe.h"

#include <gtest/gtest.h>

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

TEST(BlockPipe, AFullLastBlockIsHandedOverOnceAndAnEmptyPipeEnds) {
  std::vector<uint64_t> got = through_pipe([](Pipe& pipe) {
    for (uint64_t i = 0; i < Pipe::kBlockRecords; ++i) pipe.push(i);
  });
  EXPECT_EQ(got.size(), Pipe::kBlockRecords);
  EXPECT_TRUE(through_pipe([](Pipe&) {}).empty());
}

}  // namespace
}  // namespace tasklens::exports
