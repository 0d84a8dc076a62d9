// All threads' events as one stream in time order: a k-way merge of the thread streams that
// holds one decoded chunk per thread, so memory does not grow with the trace. Ordering is on the
// raw ticks (ties: lower thread first, then recording order); times are handed out in ns.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "format/event.h"
#include "format/experiment.h"
#include "format/result.h"
#include "format/stream_reader.h"

namespace tasklens::replay {

// One event of the merged stream. `ev.time` is in ns since the start of the run.
struct Record {
  format::Event ev;
  uint32_t thread;
};

class MergedStream {
 public:
  // Opens every stream of `x`. A stream that cannot be opened at all (not a tasklens stream, a
  // newer version) is left out and reported by problems(); the others are read.
  static Result<std::unique_ptr<MergedStream>> open(const format::Experiment& x);

  // The next event in time order, or nullptr at the end. The pointer stays valid until the
  // following call.
  const Record* next() {
    if (heap_.empty()) return nullptr;
    Cursor& c = cursors_[heap_[0]];
    const Record* r = &c.records[c.pos];
    ++events_read_;
    if (++c.pos == c.records.size()) {
      // The record must outlive the refill of its own cursor: hand out a copy.
      last_ = *r;
      r = &last_;
      if (!c.refill(clock_)) {
        heap_[0] = heap_.back();
        heap_.pop_back();
      }
    }
    if (heap_.size() > 1) sift_down(0);
    return r;
  }
  bool next(Record& r) {
    const Record* p = next();
    if (p) r = *p;
    return p != nullptr;
  }

  // Threads are numbered by their stream's thread index; this is one past the largest.
  uint32_t thread_count() const { return thread_count_; }
  // Damage found so far in every stream (complete once next() has returned false).
  std::vector<format::Problem> problems() const;
  uint64_t events_read() const { return events_read_; }

 private:
  struct Cursor {
    std::unique_ptr<format::StreamReader> reader;
    std::vector<uint64_t> ticks;       // the merge order
    std::vector<Record> records;       // handed out: times in ns, thread set
    size_t pos = 0;
    uint32_t thread = 0;
    bool refill(const format::Clock& clock);
  };
  // Heap of cursor indices ordered by (current event ticks, thread).
  bool before(uint32_t a, uint32_t b) const;
  void sift_down(size_t i);

  format::Clock clock_;
  Record last_;
  std::vector<Cursor> cursors_;
  std::vector<format::Problem> unreadable_;  // streams left out
  std::vector<uint32_t> heap_;
  uint32_t thread_count_ = 0;
  uint64_t events_read_ = 0;
};

}  // namespace tasklens::replay
