// A map from ids to values whose addresses stay put until their key is erased: the task model
// and the profile keep pointers to tasks (a thread's current task, a task's parent) as hints that
// spare them a lookup, and IdMap moves its values on every rehash and erase. Values live in
// blocks; freed slots are reused last-freed first (still in cache), so the memory follows the
// most values live at once, not how many were ever inserted. A value with a clear() member (the
// profile's task instances, each with its stack of frames) is cleared when erased, keeping the
// capacity of what it holds for the next one; others are reset to V().
//
// The index knows how ids are made (format/event.h: (thread + 1) << 48 | a per-thread counter):
// the newest ids of each recording thread sit in a direct-mapped table by their counter's low
// bits, so inserting, finding and erasing a short-lived task costs one compare instead of a probe
// sequence. An id whose entry a longer-lived one still holds, and ids not made that way (hand-made
// traces), go to a hash map.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "replay/id_map.h"

namespace tasklens::replay {

template <class V>
class StableIdMap {
 public:
  size_t size() const { return size_; }

  V* find(uint64_t key) {
    if (Entry* e = entry(key); e && e->key == key) return e->value;
    if (overflow_.size() == 0) return nullptr;  // the common miss: no hash lookup
    V** v = overflow_.find(key);
    return v ? *v : nullptr;
  }
  const V* find(uint64_t key) const { return const_cast<StableIdMap*>(this)->find(key); }

  // The value for `key`, default-constructed when new. `key` must not be 0.
  V& operator[](uint64_t key) {
    Entry* e = entry_or_new(key);
    if (e && e->key == key) return *e->value;
    if (overflow_.size()) {
      if (V** v = overflow_.find(key)) return **v;
    }
    V* value = allocate();
    if (e && e->key == 0) {
      e->key = key;
      e->value = value;
    } else {
      overflow_[key] = value;
    }
    ++size_;
    return *value;
  }

  // Resets the value to V(), or clear()s it, and frees its slot (a pointer kept to it sees a
  // default value).
  bool erase(uint64_t key) {
    V* value = nullptr;
    if (Entry* e = entry(key); e && e->key == key) {
      value = e->value;
      e->key = 0;
    } else if (overflow_.size() == 0 || !overflow_.erase(key, &value)) {
      return false;
    }
    if constexpr (kHasClear) {
      value->clear();
    } else {
      // Copied from a constant: a V() built on the stack and copied stalls on store-to-load
      // forwarding (seen in perf: a fifth of the erase).
      *value = kEmpty;
    }
    free_.push_back(value);
    --size_;
    return true;
  }

  // Calls f(key, value) for every entry, in no particular order.
  template <class F>
  void for_each(F&& f) {
    for (auto& table : tables_) {
      if (!table) continue;
      for (size_t i = 0; i < (size_t(1) << kEntryBits); ++i) {
        if (table[i].key) f(table[i].key, *table[i].value);
      }
    }
    overflow_.for_each([&](uint64_t key, V* value) { f(key, *value); });
  }

 private:
  static constexpr unsigned kEntryBits = 10;      // entries per recording thread: 1024
  static constexpr size_t kMaxIndexedThreads = 1024;
  static constexpr size_t kBlock = 256;
  template <class T, class = void>
  struct HasClear : std::false_type {};
  template <class T>
  struct HasClear<T, std::void_t<decltype(std::declval<T&>().clear())>> : std::true_type {};
  static constexpr bool kHasClear = HasClear<V>::value;
  inline static const V kEmpty{};

  struct Entry {
    uint64_t key = 0;  // 0: free
    V* value = nullptr;
  };

  // The entry `key` maps to, or null when its thread has no table (yet).
  Entry* entry(uint64_t key) {
    size_t t = size_t(key >> 48);
    if (t >= tables_.size()) return nullptr;
    Entry* table = tables_[t].get();
    return table ? &table[key & ((size_t(1) << kEntryBits) - 1)] : nullptr;
  }
  Entry* entry_or_new(uint64_t key) {
    size_t t = size_t(key >> 48);
    if (t == 0 || t > kMaxIndexedThreads) return nullptr;  // not a recorder-made id
    if (t >= tables_.size()) tables_.resize(t + 1);
    if (!tables_[t]) tables_[t] = std::make_unique<Entry[]>(size_t(1) << kEntryBits);
    return &tables_[t][key & ((size_t(1) << kEntryBits) - 1)];
  }

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

  std::vector<std::unique_ptr<Entry[]>> tables_;  // by key >> 48 (thread index + 1)
  IdMap<V*> overflow_;
  size_t size_ = 0;
  std::vector<std::unique_ptr<V[]>> blocks_;
  std::vector<V*> free_;  // default-valued slots
};

}  // namespace tasklens::replay
