// A map from 64-bit ids to values whose addresses stay put until their key is erased: the task
// model keeps pointers to tasks (a thread's current task, a task's parent) as hints that spare
// it a hash lookup, and IdMap moves its values on every rehash and erase. Values live in blocks;
// freed slots are reused last-freed first (still in cache), so the memory follows the most
// values live at once, not how many were ever inserted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "replay/id_map.h"

namespace tasklens::replay {

template <class V>
class StableIdMap {
 public:
  size_t size() const { return index_.size(); }

  V* find(uint64_t key) {
    V** v = index_.find(key);
    return v ? *v : nullptr;
  }
  const V* find(uint64_t key) const { return const_cast<StableIdMap*>(this)->find(key); }

  // The value for `key`, default-constructed when new. `key` must not be 0.
  V& operator[](uint64_t key) {
    V*& slot = index_[key];
    if (!slot) slot = allocate();
    return *slot;
  }

  // Resets the value to V() (a pointer kept to it sees a default value) and frees its slot.
  bool erase(uint64_t key) {
    V* value = nullptr;
    if (!index_.erase(key, &value)) return false;
    // Copied from a constant: a V() built on the stack and copied stalls on store-to-load
    // forwarding (seen in perf: a fifth of the erase).
    *value = kEmpty;
    free_.push_back(value);
    return true;
  }

 private:
  static constexpr size_t kBlock = 256;
  inline static const V kEmpty{};

  V* allocate() {
    if (free_.empty()) {
      blocks_.push_back(std::make_unique<V[]>(kBlock));
      V* block = blocks_.back().get();
      for (size_t i = kBlock; i-- > 0;) free_.push_back(block + i);
    }
    V* value = free_.back();
    free_.pop_back();
    return value;
  }

  IdMap<V*> index_;
  std::vector<std::unique_ptr<V[]>> blocks_;
  std::vector<V*> free_;  // default-valued slots
};

}  // namespace tasklens::replay
