// RecordFeed: the merged stream's records handed to several readers in blocks.
#include "replay/record_feed.h"

#include <algorithm>

namespace tasklens::replay {

RecordFeed::RecordFeed(std::unique_ptr<MergedStream> stream, size_t readers,
                       std::vector<RecordSink*> sinks)
    : stream_(std::move(stream)), sinks_(std::move(sinks)), blocks_(kBlocks), taken_(readers, 0) {
  thread_count_ = stream_->thread_count();
  for (Block& b : blocks_) b.records.resize(kBlockRecords);
}

void RecordFeed::produce() {
  for (RecordSink* s : sinks_) s->begin(thread_count_);
  for (uint64_t n = 0;; ++n) {
    Block& b = blocks_[n % kBlocks];
    {
      // Block n takes block n - kBlocks's place: every reader must be past it. A reader that
      // took t blocks still reads block t - 1 (taking a block gives the one before back).
      std::unique_lock<std::mutex> lock(mutex_);
      freed_.wait(lock, [&] {
        if (n < kBlocks) return true;
        for (uint64_t t : taken_) {
          if (t != kLeft && t + kBlocks <= n + 1) return false;
        }
        return true;
      });
    }
    size_t count = 0;
    while (count < kBlockRecords) {
      Record* at = b.records.data() + count;
      size_t got = stream_->read(at, std::min(kSinkBatch, kBlockRecords - count));
      if (!got) break;
      for (RecordSink* s : sinks_) s->add(at, got);
      count += got;
    }
    if (count < kBlockRecords) {
      for (RecordSink* s : sinks_) s->end(stream_->problems());
    }
    b.count = count;
    std::lock_guard<std::mutex> lock(mutex_);
    if (count) ++produced_;
    if (count < kBlockRecords) ended_ = true;
    filled_.notify_all();
    if (ended_) return;
  }
}

const Record* RecordFeed::next_block(size_t reader, size_t* count) {
  std::unique_lock<std::mutex> lock(mutex_);
  uint64_t& taken = taken_[reader];
  if (taken == kLeft) return nullptr;
  filled_.wait(lock, [&] { return produced_ > taken || ended_; });
  if (produced_ <= taken) return nullptr;
  const Block& b = blocks_[taken % kBlocks];
  ++taken;
  freed_.notify_one();  // the block before is given back (only the producer waits for that)
  *count = b.count;
  return b.records.data();
}

void RecordFeed::leave(size_t reader) {
  std::lock_guard<std::mutex> lock(mutex_);
  taken_[reader] = kLeft;
  freed_.notify_one();
}

}  // namespace tasklens::replay
