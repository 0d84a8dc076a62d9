// One decoding of the merged stream for several readers on other threads: a producer thread
// copies the stream's records into a ring of blocks, and each reader (a replay) takes every
// block in order. A block is reused once every reader is done with it, so memory is the ring's,
// whatever the trace's length. Sinks (the consistency check) see the records on the producer's
// thread, as it makes them.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "replay/merged_stream.h"

namespace tasklens::replay {

// A reader of every record on the decoding thread itself, a few thousand at a time as they are
// made (still in that core's cache): for a light reader, which on a thread of its own fetched
// every record from another core's cache and took a core's time slices from the replays (the
// consistency check was 7 % of report --all's samples on fib 30).
class RecordSink {
 public:
  virtual ~RecordSink() = default;
  virtual void begin(uint32_t threads) {}  // the stream's thread count, before any record
  virtual void add(const Record* records, size_t count) = 0;
  virtual void end(std::vector<format::Problem> problems) {}  // the stream's damage, at the end
};

class RecordFeed {
 public:
  // `readers`: how many readers take the blocks (each calls next_block() with its index).
  // `sinks`: fed by produce(), in order.
  RecordFeed(std::unique_ptr<MergedStream> stream, size_t readers,
             std::vector<RecordSink*> sinks = {});

  // The producer's loop (on a thread of its own): reads the whole stream, then ends the feed.
  void produce();

  // Reader `reader`'s next block of records in stream order (its previous one is given back),
  // or nullptr at the end.
  const Record* next_block(size_t reader, size_t* count);
  // The reader needs no more records (it stopped early): the producer stops waiting for it.
  void leave(size_t reader);

  uint32_t thread_count() const { return thread_count_; }
  // The stream's damage: complete once next_block() has returned nullptr.
  std::vector<format::Problem> problems() const { return stream_->problems(); }

 private:
  // Large blocks: each block handed over can wake a sleeping thread, and with more threads
  // than cores a reader that caught up slept at nearly every block (4,096 records: 15-19 k
  // voluntary context switches and 0.1-0.2 s of system time in report --all on fib 30;
  // 2 k and 0.05-0.08 s now). 6 MB in all.
  static constexpr size_t kBlocks = 4;
  static constexpr size_t kBlockRecords = 32768;
  struct Block {
    std::vector<Record> records;
    size_t count = 0;
  };
  static constexpr uint64_t kLeft = UINT64_MAX;

  static constexpr size_t kSinkBatch = 2048;  // records a sink sees at once (100 KB)
  std::unique_ptr<MergedStream> stream_;
  std::vector<RecordSink*> sinks_;
  uint32_t thread_count_ = 0;
  std::vector<Block> blocks_;
  std::mutex mutex_;
  std::condition_variable filled_;  // a block was produced, or the end came
  std::condition_variable freed_;   // a reader gave a block back
  uint64_t produced_ = 0;           // blocks produced so far
  bool ended_ = false;
  std::vector<uint64_t> taken_;  // per reader: blocks taken so far (kLeft once it left)
};

// A replay's source of records from a feed, with MergedStream's next().
class FeedReader {
 public:
  FeedReader(RecordFeed& feed, size_t reader) : feed_(feed), reader_(reader) {}
  const Record* next() {
    if (__builtin_expect(pos_ == count_, 0)) {
      block_ = feed_.next_block(reader_, &count_);
      pos_ = 0;
      if (!block_) return nullptr;
    }
    return &block_[pos_++];
  }
  void leave() { feed_.leave(reader_); }
  uint32_t thread_count() const { return feed_.thread_count(); }
  std::vector<format::Problem> problems() const { return feed_.problems(); }

 private:
  RecordFeed& feed_;
  size_t reader_;
  const Record* block_ = nullptr;
  size_t count_ = 0, pos_ = 0;
};

}  // namespace tasklens::replay
