// Puts the events of one object at one time next to each other before the sort, so that the
// .prv writes them on one line (`2:object:time:type:value:type:value…`, which it does for
// neighbours). A replay makes the events of one time in the order of its callbacks, the rows
// interleaved: at a task switch the thread row's construct, instance and region, the task row's
// executing thread, then the first thread row's ready tasks. Grouped, fib 30's event lines go
// from 28.9 M to 21.4 M, its .prv from 1,999 to 1,842 MB (a line's object and time written once).
//
// The events of one time are held (where they are: the intake's block), each put after the last
// held event of its row, and handed on when a record of another time comes: rows in the order of
// their first event, the events of a row in their order (Paraver orders records by time only; an
// object's events of one time keep theirs). Other records pass at once. The sort takes every
// record whatever the order: grouping changes only which records are neighbours.
#pragma once

#include <cstddef>
#include <cstdint>

#include "export/prv_record.h"

namespace tasklens::exports {

class PrvEventGrouper {
 public:
  // `r` must stay where it is until flush() or keep().
  template <class Sink>
  void add(const PrvRecord& r, Sink&& sink) {
    if (r.kind != 2) {
      if (r.time > time_) flush(sink);  // so that the events held are not later than it
      sink(r);
      return;
    }
    if (r.time != time_ || n_ == kMaxHeld) {
      flush(sink);
      time_ = r.time;
    } else if (n_ && held_[n_ - 1]->row != r.row) {
      // After the last held event of its row, if one of the last few has it (a row's events
      // are kept together, so that is its last): fib has 3 to 6 events a time.
      size_t stop = n_ > kLookBack ? n_ - kLookBack : 0;
      for (size_t i = n_ - 1; i-- > stop;) {
        if (held_[i]->row == r.row) {
          for (size_t k = n_; k > i + 1; --k) held_[k] = held_[k - 1];
          held_[i + 1] = &r;
          ++n_;
          return;
        }
      }
    }
    held_[n_++] = &r;
  }

  template <class Sink>
  void flush(Sink&& sink) {
    for (size_t i = 0; i < n_; ++i) sink(*held_[i]);
    n_ = 0;
  }

  // The records added so far are about to move or go: the held ones are copied.
  void keep() {
    PrvRecord copy[kMaxHeld];
    for (size_t i = 0; i < n_; ++i) copy[i] = *held_[i];
    for (size_t i = 0; i < n_; ++i) {
      kept_[i] = copy[i];
      held_[i] = &kept_[i];
    }
  }

 private:
  static constexpr size_t kLookBack = 16;  // bounds the work per event (many rows: not grouped)
  static constexpr size_t kMaxHeld = 64;   // more events of one time: handed on as they come
  const PrvRecord* held_[kMaxHeld];        // events of time_, a row's together
  PrvRecord kept_[kMaxHeld];
  size_t n_ = 0;
  uint64_t time_ = 0;
};

}  // namespace tasklens::exports
