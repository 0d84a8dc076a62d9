// What the exports remember of the last completed tasks: a dependence can be learned after its
// predecessor completed (the successor is created later), and the predecessor is gone from the
// live tables by then. A direct-mapped cache: a task may be forgotten early when another one
// hashes to its slot. Fixed capacity: memory does not grow with the trace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tasklens::exports {

template <class V>
class RecentTasks {
 public:
  // `capacity` is rounded up to a power of two.
  explicit RecentTasks(size_t capacity = size_t(1) << 16) {
    size_t n = 1;
    while (n < capacity) n <<= 1;
    slots_.resize(n);
    mask_ = n - 1;
  }

  void add(uint64_t id, const V& v) { slots_[slot(id)] = Slot{id, v}; }
  const V* find(uint64_t id) const {
    const Slot& s = slots_[slot(id)];
    return s.id == id && id ? &s.value : nullptr;
  }

 private:
  struct Slot {
    uint64_t id = 0;
    V value{};
  };
  size_t slot(uint64_t id) const { return size_t((id * 0x9E3779B97F4A7C15ull) >> 40) & mask_; }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
};

}  // namespace tasklens::exports
