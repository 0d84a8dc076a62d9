// What the exports remember of the last completed tasks: a dependence can be learned after its
// predecessor completed (the successor is created later), and the predecessor is gone from the
// live tables by then. Fixed capacity: memory does not grow with the trace.
#pragma once

#include <cstdint>
#include <vector>

#include "replay/id_map.h"

namespace tasklens::exports {

template <class V>
class RecentTasks {
 public:
  explicit RecentTasks(size_t capacity = size_t(1) << 16) : ids_(capacity, 0), values_(capacity) {}

  void add(uint64_t id, const V& v) {
    if (ids_[next_]) index_.erase(ids_[next_]);
    ids_[next_] = id;
    values_[next_] = v;
    index_[id] = uint32_t(next_ + 1);
    next_ = (next_ + 1) % ids_.size();
  }
  const V* find(uint64_t id) const {
    const uint32_t* k = index_.find(id);
    return k ? &values_[*k - 1] : nullptr;
  }

 private:
  std::vector<uint64_t> ids_;
  std::vector<V> values_;
  replay::IdMap<uint32_t> index_;
  size_t next_ = 0;
};

}  // namespace tasklens::exports
