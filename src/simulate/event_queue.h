// EventQueue: the simulation's pending events, at most one per worker, earliest first and the
// lowest worker first among equal times. A tournament (winner) tree over the workers: setting or
// clearing a worker's event replays only the matches on its path to the root, log2(P) compares
// of two integers and no element moved, where a binary heap of (time, worker) pairs sifts pairs
// down and up (the heap was a third of the simulation's instructions at 64 workers).
// Memory: two words per worker, whatever the number of tasks. Internal to src/simulate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace tasklens::simulate::detail {

class EventQueue {
 public:
  using Event = std::pair<uint64_t, uint32_t>;  // (time, worker)

  explicit EventQueue(uint32_t workers) {
    while (leaves_ < workers) leaves_ *= 2;
    time_.assign(leaves_, kNone);
    win_.resize(2 * size_t(leaves_));
    for (uint32_t w = 0; w < leaves_; ++w) win_[leaves_ + w] = w;
    for (uint32_t i = leaves_; i-- > 1;) win_[i] = win_[2 * i];  // all kNone: the lower index
  }

  bool empty() const { return time_[win_[1]] == kNone; }
  Event top() const { return {time_[win_[1]], win_[1]}; }
  // Worker w's event at time t, replacing the one it had. A time of 2^64 - 1 (a damaged
  // trace's saturated sum) is queued at 2^64 - 2: the top value means "no event".
  void set(uint32_t w, uint64_t t) {
    time_[w] = t < kNone ? t : kNone - 1;
    replay(w);
  }
  void pop() {
    uint32_t w = win_[1];
    time_[w] = kNone;
    replay(w);
  }

 private:
  static constexpr uint64_t kNone = UINT64_MAX;

  // The matches on w's path, from its leaf up. A left subtree's workers all have lower numbers
  // than the right's: a tie goes left. Where the winner stays the same and it is not w, nothing
  // above changes.
  void replay(uint32_t w) {
    for (uint32_t i = (leaves_ + w) / 2; i; i /= 2) {
      uint32_t a = win_[2 * i], b = win_[2 * i + 1];
      uint32_t was = win_[i], now = time_[b] < time_[a] ? b : a;
      win_[i] = now;
      if (now == was && was != w) break;
    }
  }

  uint32_t leaves_ = 1;         // the workers rounded up to a power of two
  std::vector<uint64_t> time_;  // per worker: its event's time, kNone without one
  std::vector<uint32_t> win_;   // [1, leaves_): each match's winner; [leaves_, 2 leaves_): w
};

}  // namespace tasklens::simulate::detail
