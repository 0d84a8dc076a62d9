// A minimal protocol-buffers encoder for the Perfetto export: varints, fixed64, length-delimited
// fields and nested messages whose length is patched in when they close. Wire format:
// protobuf.dev/programming-guides/encoding (a field is a varint key `number << 3 | wire type`,
// then a varint, 8 little-endian bytes, or a varint length and that many bytes).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace tasklens::exports {

class ProtoWriter {
 public:
  enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLength = 2 };

  void varint(uint64_t v) { len_ = size_t(put(room(10), v) - buf_.data()); }
  void key(uint32_t field, WireType w) { varint(uint64_t(field) << 3 | w); }
  // The commonest field: key and value with one check for room.
  void uint_field(uint32_t field, uint64_t v) {
    char* p = put(room(20), uint64_t(field) << 3 | kVarint);
    len_ = size_t(put(p, v) - buf_.data());
  }
  // int32/int64 fields: two's complement as a varint (negative values take 10 bytes).
  void int_field(uint32_t field, int64_t v) { uint_field(field, uint64_t(v)); }
  void fixed64_field(uint32_t field, uint64_t v) {
    key(field, kFixed64);
    char* p = room(8);
    for (int i = 0; i < 8; ++i) p[i] = char(v >> (8 * i));
    len_ += 8;
  }
  void bytes_field(uint32_t field, std::string_view s) {
    key(field, kLength);
    varint(s.size());
    std::memcpy(room(s.size()), s.data(), s.size());
    len_ += s.size();
  }

  // A nested message: open() writes its key and reserves one length byte, close() patches the
  // length in, moving the body when it needs more than one byte (messages over 127 bytes).
  size_t open(uint32_t field) {
    key(field, kLength);
    *room(1) = 0;
    return len_++;
  }
  void close(size_t at) {
    size_t len = len_ - at - 1;
    if (len < 0x80) {
      buf_[at] = char(len);
      return;
    }
    char tmp[10];
    size_t n = 0;
    for (uint64_t v = len; ; v >>= 7) {
      tmp[n++] = char(v >= 0x80 ? (v & 0x7f) | 0x80 : v);
      if (v < 0x80) break;
    }
    room(n - 1);
    std::memmove(&buf_[at + n], &buf_[at + 1], len);
    std::memcpy(&buf_[at], tmp, n);
    len_ += n - 1;
  }

  std::string_view data() const { return std::string_view(buf_.data(), len_); }
  size_t size() const { return len_; }
  void clear() { len_ = 0; }

 private:
  static char* put(char* p, uint64_t v) {
    while (v >= 0x80) {
      *p++ = char(v | 0x80);
      v >>= 7;
    }
    *p++ = char(v);
    return p;
  }
  // Room for n more bytes at the end (not counted until the caller advances len_).
  char* room(size_t n) {
    if (len_ + n > buf_.size()) buf_.resize(std::max(2 * buf_.size(), len_ + n + 4096));
    return &buf_[len_];
  }

  std::string buf_;  // bytes [0, len_) written; the rest is room
  size_t len_ = 0;
};

}  // namespace tasklens::exports
