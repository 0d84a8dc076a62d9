// A fast 32-bit checksum over chunk bytes: catches torn writes and bit rot, not an adversary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace tasklens::format {

inline uint32_t checksum(const void* data, size_t bytes, uint64_t seed = 0x9E3779B97F4A7C15ull) {
  const auto* p = static_cast<const uint8_t*>(data);
  uint64_t h = seed ^ (bytes * 0xff51afd7ed558ccdull);
  size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = (h ^ w) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, p + i, bytes - i);
  h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 32;
  return uint32_t(h);
}

}  // namespace tasklens::format
