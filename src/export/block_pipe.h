// Records handed from one thread to another in blocks, so that two stages of an export run on
// two cores (Paraver: the replay and the sort's intake; the sort's merge and the formatting).
// One producer, one consumer; a ring of kBlocks blocks: the producer waits when the consumer is
// kBlocks blocks behind, so memory stays the ring's. A lock is taken once per block, not per
// record.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace tasklens::exports {

template <class T>
class BlockPipe {
 public:
  static constexpr size_t kBlocks = 8;
  static constexpr size_t kBlockRecords = 4096;

  BlockPipe() {
    for (auto& b : blocks_) b.resize(kBlockRecords);
    fill_ = blocks_[0].data();
    end_ = fill_ + kBlockRecords;
  }

  // Producer: one more record, or written in place: slot(), then commit().
  void push(const T& r) {
    slot() = r;
    commit();
  }
  T& slot() { return *fill_; }
  void commit() {
    if (++fill_ == end_) hand_over();
  }
  // Producer: records written in place by the block: room for *n at room(n), then commit(k) for
  // the first k of them.
  T* room(size_t* n) {
    *n = size_t(end_ - fill_);
    return fill_;
  }
  void commit(size_t k) {
    fill_ += k;
    if (fill_ == end_) hand_over();
  }
  // Producer: no more records (the consumer gets the last block, then the end).
  void close() {
    std::lock_guard<std::mutex> lock(mu_);
    size_t n = size_t(fill_ - blocks_[produced_ % kBlocks].data());
    if (n) counts_[produced_++ % kBlocks] = n;
    closed_ = true;
    cv_.notify_all();
  }

  // Consumer: the next block (the one it returned before is given back), nullptr at the end.
  const T* next_block(size_t* count) {
    std::unique_lock<std::mutex> lock(mu_);
    if (holding_) {
      ++consumed_;
      holding_ = false;
      cv_.notify_all();
    }
    cv_.wait(lock, [&] { return produced_ > consumed_ || closed_; });
    if (produced_ == consumed_) return nullptr;
    holding_ = true;
    *count = counts_[consumed_ % kBlocks];
    return blocks_[consumed_ % kBlocks].data();
  }

 private:
  void hand_over() {
    std::unique_lock<std::mutex> lock(mu_);
    counts_[produced_++ % kBlocks] = kBlockRecords;
    cv_.notify_all();
    cv_.wait(lock, [&] { return produced_ - consumed_ < kBlocks; });
    fill_ = blocks_[produced_ % kBlocks].data();
    end_ = fill_ + kBlockRecords;
  }

  std::vector<T> blocks_[kBlocks];
  size_t counts_[kBlocks] = {};
  T* fill_;  // the producer's next record, in block produced_ % kBlocks
  T* end_;
  std::mutex mu_;
  std::condition_variable cv_;
  uint64_t produced_ = 0;  // blocks handed over
  uint64_t consumed_ = 0;  // blocks given back
  bool holding_ = false;   // the consumer holds block consumed_ % kBlocks
  bool closed_ = false;
};

}  // namespace tasklens::exports
