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
  __attribute__((always_inline)) const Record* next() {
    Cursor* c = current_;
    if (!c) return nullptr;
    const Record* r = &c->records[c->pos];
    ++events_read_;
    if (__builtin_expect(++c->pos == c->count, 0)) {
      // The record must outlive the refill of its own cursor: hand out a copy.
      last_ = *r;
      next_chunk();
      return &last_;
    }
    // A thread's events come in runs (8 on average on a 2-thread fib): the current stream goes
    // on without touching the heap while it stays ahead of the heap's first.
    uint64_t t = c->events[c->pos].time;
    if (t > limit_ticks_ || (t == limit_ticks_ && c->thread > limit_thread_)) swap_with_heap();
    return r;
  }
  bool next(Record& r) {
    const Record* p = next();
    if (p) r = *p;
    return p != nullptr;
  }
  // The next records, up to `max`, into `out`; how many (0 at the end). For a reader that copies
  // them anyway (record_feed.h): each is made right there from its decoded event, not first in
  // a chunk of records next() hands out (a second copy of every record). A stream read with
  // read() is read with it only.
  size_t read(Record* out, size_t max);

  // Threads are numbered by their stream's thread index; this is one past the largest.
  uint32_t thread_count() const { return thread_count_; }
  // Damage found so far in every stream (complete once next() has returned false).
  std::vector<format::Problem> problems() const;
  uint64_t events_read() const { return events_read_; }

 private:
  struct Cursor {
    std::unique_ptr<format::StreamReader> reader;
    const format::Event* events = nullptr;  // the reader's current chunk (times in ticks)
    std::vector<Record> records;            // the same, handed out: times in ns, thread set
    size_t count = 0, pos = 0;
    uint32_t thread = 0;
    // The next chunk; its records too unless `records` is false (read() makes its own).
    bool refill(const format::Clock& clock, bool records = true);
  };
  // Heap of cursor indices ordered by (current event ticks, thread).
  bool before(uint32_t a, uint32_t b) const;
  void sift_down(size_t i);
  // The heap holds every cursor with events but the current one, whose next event comes before
  // theirs; the limit is the heap's first event.
  void swap_with_heap();   // the current cursor fell behind the heap's first: trade places
  void next_chunk();       // the current cursor used up its chunk
  void take_from_heap();   // the current cursor ended: the heap's first becomes current
  void set_limit();

  format::Clock clock_;
  Record last_;  // the last event of a chunk, handed out while the next chunk is read
  std::vector<Cursor> cursors_;
  std::vector<format::Problem> unreadable_;  // streams left out
  std::vector<uint32_t> heap_;
  Cursor* current_ = nullptr;
  uint32_t current_index_ = 0;
  uint64_t limit_ticks_ = 0;
  uint32_t limit_thread_ = 0;
  uint32_t thread_count_ = 0;
  uint64_t events_read_ = 0;
  bool records_ = true;  // the cursors make records (false once read() is used)
};

}  // namespace tasklens::replay
