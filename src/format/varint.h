// LEB128 varints and zigzag mapping, the building blocks of the chunk codec.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tasklens::format {

constexpr size_t kMaxVarintBytes = 10;

inline uint64_t zigzag(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }
inline int64_t unzigzag(uint64_t v) { return int64_t(v >> 1) ^ -int64_t(v & 1); }

// Writes v at p; returns the byte after it.
inline uint8_t* put_varint(uint8_t* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = uint8_t(v) | 0x80;
    v >>= 7;
  }
  *p++ = uint8_t(v);
  return p;
}

// Reads a varint from [p, end); returns nullptr when it runs past `end` or is over-long.
inline const uint8_t* get_varint(const uint8_t* p, const uint8_t* end, uint64_t* v) {
  if (__builtin_expect(p < end && *p < 0x80, 1)) {  // most values fit in one byte
    *v = *p;
    return p + 1;
  }
  uint64_t result = 0;
  for (unsigned shift = 0; shift < 64 && p < end; shift += 7) {
    uint8_t byte = *p++;
    result |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80)) {
      *v = result;
      return p;
    }
  }
  return nullptr;
}

}  // namespace tasklens::format
