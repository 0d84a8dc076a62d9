// A tiny JSON emitter into a caller-provided buffer: no allocation, no exceptions, so the
// recorder can write its metadata even from a crash handler. Output that does not fit is cut and
// `overflowed()` says so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

namespace tasklens::format {

// The most digits u64_text writes (2^64 - 1 in decimal: 20).
inline constexpr size_t kU64Digits = 20;

// `v` in `base` (10 or 16, lower case) into out[0..kU64Digits), without a terminator; returns
// the length. By hand, not snprintf, which POSIX does not allow in a signal handler.
inline size_t u64_text(uint64_t v, unsigned base, char* out) {
  char rev[kU64Digits];
  size_t n = 0;
  do {
    rev[n++] = "0123456789abcdef"[v % base];
    v /= base;
  } while (v);
  for (size_t i = 0; i < n; ++i) out[i] = rev[n - 1 - i];
  return n;
}

class JsonOut {
 public:
  JsonOut(char* buf, size_t cap) : buf_(buf), cap_(cap) {}

  JsonOut& begin_object() { return open('{'); }
  JsonOut& end_object() { return close('}'); }
  JsonOut& begin_array() { return open('['); }
  JsonOut& end_array() { return close(']'); }

  // Object member name; the value follows with one of the value calls.
  JsonOut& key(std::string_view k) {
    comma();
    quoted(k);
    raw(":");
    after_key_ = true;
    return *this;
  }
  JsonOut& str(std::string_view s) {
    comma();
    quoted(s);
    return *this;
  }
  // Integers are formatted by hand, not by snprintf, which POSIX does not allow in a signal
  // handler (the recorder's crash path writes its metadata with these).
  JsonOut& u64(uint64_t v) {
    comma();
    digits(v, 10);
    return *this;
  }
  JsonOut& i64(int64_t v) {
    comma();
    if (v < 0) put('-');
    digits(v < 0 ? 0 - uint64_t(v) : uint64_t(v), 10);
    return *this;
  }
  // Not on the crash path (profile mode's statistics at exit).
  JsonOut& f64(double v) { return fmt("%.17g", v); }
  JsonOut& boolean(bool v) {
    comma();
    raw(v ? "true" : "false");
    return *this;
  }
  JsonOut& hex(uint64_t v) {
    comma();
    raw("\"0x");
    digits(v, 16);
    put('"');
    return *this;
  }

  // A value that is already JSON text (e.g. a fragment made by another JsonOut).
  JsonOut& json(std::string_view text) {
    comma();
    raw(text);
    return *this;
  }

  // Shorthands for "key": value.
  JsonOut& kv(std::string_view k, std::string_view v) { return key(k).str(v); }
  JsonOut& kv_u64(std::string_view k, uint64_t v) { return key(k).u64(v); }
  JsonOut& kv_i64(std::string_view k, int64_t v) { return key(k).i64(v); }
  JsonOut& kv_f64(std::string_view k, double v) { return key(k).f64(v); }
  JsonOut& kv_bool(std::string_view k, bool v) { return key(k).boolean(v); }

  size_t size() const { return len_; }
  const char* data() const { return buf_; }
  bool overflowed() const { return overflow_; }

 private:
  JsonOut& open(char c) {
    comma();
    char s[2] = {c, 0};
    raw(s);
    first_ = true;
    return *this;
  }
  JsonOut& close(char c) {
    char s[2] = {c, 0};
    raw(s);
    first_ = false;
    return *this;
  }
  void comma() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_) raw(",");
    first_ = false;
  }
  JsonOut& fmt(const char* f, ...) __attribute__((format(printf, 2, 3)));
  void digits(uint64_t v, unsigned base) {
    char tmp[kU64Digits];
    raw(std::string_view(tmp, u64_text(v, base, tmp)));
  }
  void raw(std::string_view s) {
    for (char c : s) put(c);
  }
  void put(char c) {
    if (len_ + 1 < cap_) {
      buf_[len_++] = c;
      buf_[len_] = 0;
    } else {
      overflow_ = true;
    }
  }
  void quoted(std::string_view s) {
    put('"');
    for (unsigned char c : s) {
      if (c == '"' || c == '\\') {
        put('\\');
        put(char(c));
      } else if (c < 0x20) {
        raw("\\u00");
        put("0123456789abcdef"[c >> 4]);
        put("0123456789abcdef"[c & 15]);
      } else {
        put(char(c));
      }
    }
    put('"');
  }

  char* buf_;
  size_t cap_;
  size_t len_ = 0;
  bool first_ = true;
  bool after_key_ = false;
  bool overflow_ = false;
};

}  // namespace tasklens::format
