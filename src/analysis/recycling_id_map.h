// A map from 64-bit ids to values that own buffers (the profile's task instances, each with its
// stack of frames): values keep their address until erased, and an erased value is emptied with
// its clear(), not destroyed, so the value that takes its slot next reuses its buffers. Without
// that, every task instance allocated and freed its frame stack (a fifth of the profile pass).
// replay::StableIdMap keeps addresses too, but frees what its values hold and cannot list them.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "replay/id_map.h"

namespace tasklens::analysis {

// V::clear() must reset V to its default state and may keep the capacity of its members.
template <class V>
class RecyclingIdMap {
 public:
  size_t size() const { return index_.size(); }

  V* find(uint64_t key) {
    V** v = index_.find(key);
    return v ? *v : nullptr;
  }

  // The value for `key`; a new one is in its default state. `key` must not be 0.
  V& operator[](uint64_t key) {
    V*& slot = index_[key];
    if (!slot) {
      if (free_.empty()) {
        slot = &storage_.emplace_back();  // a deque does not move what it holds
      } else {
        slot = free_.back();  // the slot freed last: likely still in cache
        free_.pop_back();
      }
    }
    return *slot;
  }

  bool erase(uint64_t key) {
    V* value = nullptr;
    if (!index_.erase(key, &value)) return false;
    value->clear();
    free_.push_back(value);
    return true;
  }

  template <class F>
  void for_each(F&& f) {
    index_.for_each([&](uint64_t key, V* value) { f(key, *value); });
  }

 private:
  replay::IdMap<V*> index_;
  std::deque<V> storage_;
  std::vector<V*> free_;  // cleared values, ready for a new key
};

}  // namespace tasklens::analysis
