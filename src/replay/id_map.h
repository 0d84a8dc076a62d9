// An open-addressing hash map from 64-bit ids to values: the replay looks tasks up several times
// per event, and std::unordered_map's node allocations would dominate. Linear probing,
// backward-shift deletion, key 0 reserved for "empty" (ids are never 0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace tasklens::replay {

// Spreads arbitrary keys (addresses, hand-made ids) over the table.
struct MixHash {
  uint64_t operator()(uint64_t key) const { return (key * 0x9E3779B97F4A7C15ull) >> 20; }
};

template <class V, class Hash = MixHash>
class IdMap {
 public:
  IdMap() { rehash(64); }

  size_t size() const { return size_; }

  V* find(uint64_t key) {
    if (key == 0) return nullptr;
    for (size_t i = slot(key);; i = (i + 1) & mask_) {
      if (keys_[i] == key) return &values_[i];
      if (keys_[i] == 0) return nullptr;
    }
  }
  const V* find(uint64_t key) const { return const_cast<IdMap*>(this)->find(key); }

  // The value for `key`, default-constructed when new. `key` must not be 0.
  V& operator[](uint64_t key) {
    if ((size_ + 1) * 4 > (mask_ + 1) * 3) rehash((mask_ + 1) * 2);
    size_t i = slot(key);
    for (; keys_[i] != 0; i = (i + 1) & mask_) {
      if (keys_[i] == key) return values_[i];
    }
    keys_[i] = key;
    values_[i] = V();
    ++size_;
    return values_[i];
  }

  // Removes `key`; its value is moved to *erased first when given.
  bool erase(uint64_t key, V* erased = nullptr) {
    if (key == 0) return false;
    size_t i = slot(key);
    for (; keys_[i] != key; i = (i + 1) & mask_) {
      if (keys_[i] == 0) return false;
    }
    if (erased) *erased = std::move(values_[i]);
    // Shift later members of the probe run back so that no lookup stops early.
    for (size_t j = (i + 1) & mask_; keys_[j] != 0; j = (j + 1) & mask_) {
      size_t home = slot(keys_[j]);
      bool movable = (j > i) ? (home <= i || home > j) : (home <= i && home > j);
      if (movable) {
        keys_[i] = keys_[j];
        values_[i] = std::move(values_[j]);
        i = j;
      }
    }
    keys_[i] = 0;
    if constexpr (!std::is_trivially_copyable_v<V>) values_[i] = V();  // release what it holds
    --size_;
    return true;
  }

  template <class F>
  void for_each(F&& f) {
    for (size_t i = 0; i <= mask_; ++i) {
      if (keys_[i]) f(keys_[i], values_[i]);
    }
  }

 private:
  size_t slot(uint64_t key) const { return size_t(Hash()(key)) & mask_; }
  void rehash(size_t capacity) {
    std::vector<uint64_t> old_keys = std::move(keys_);
    std::vector<V> old_values = std::move(values_);
    keys_.assign(capacity, 0);
    values_.assign(capacity, V());
    mask_ = capacity - 1;
    size_ = 0;
    for (size_t i = 0; i < old_keys.size(); ++i) {
      if (old_keys[i]) (*this)[old_keys[i]] = std::move(old_values[i]);
    }
  }

  std::vector<uint64_t> keys_;
  std::vector<V> values_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace tasklens::replay
