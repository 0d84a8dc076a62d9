// A minimal protocol-buffers encoder for the Perfetto export: varints, fixed64, length-delimited
// fields and nested messages whose length is patched in when they close. Wire format:
// protobuf.dev/programming-guides/encoding (a field is a varint key `number << 3 | wire type`,
// then a varint, 8 little-endian bytes, or a varint length and that many bytes).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace tasklens::exports {

class ProtoWriter {
 public:
  enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLength = 2 };

  void varint(uint64_t v) {
    char tmp[10];
    size_t n = 0;
    while (v >= 0x80) {
      tmp[n++] = char(v | 0x80);
      v >>= 7;
    }
    tmp[n++] = char(v);
    buf_.append(tmp, n);
  }
  void key(uint32_t field, WireType w) { varint(uint64_t(field) << 3 | w); }
  void uint_field(uint32_t field, uint64_t v) {
    key(field, kVarint);
    varint(v);
  }
  // int32/int64 fields: two's complement as a varint (negative values take 10 bytes).
  void int_field(uint32_t field, int64_t v) { uint_field(field, uint64_t(v)); }
  void fixed64_field(uint32_t field, uint64_t v) {
    key(field, kFixed64);
    char b[8];
    for (int i = 0; i < 8; ++i) b[i] = char(v >> (8 * i));
    buf_.append(b, 8);
  }
  void bytes_field(uint32_t field, std::string_view s) {
    key(field, kLength);
    varint(s.size());
    buf_.append(s.data(), s.size());
  }

  // A nested message: open() writes its key and reserves one length byte, close() patches the
  // length in, moving the body when it needs more than one byte (messages over 127 bytes).
  size_t open(uint32_t field) {
    key(field, kLength);
    buf_.push_back(0);
    return buf_.size() - 1;
  }
  void close(size_t at) {
    size_t len = buf_.size() - at - 1;
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
    buf_.insert(at + 1, n - 1, '\0');
    std::memcpy(&buf_[at], tmp, n);
  }

  const std::string& data() const { return buf_; }
  size_t size() const { return buf_.size(); }
  void clear() { buf_.clear(); }

 private:
  std::string buf_;
};

}  // namespace tasklens::exports
