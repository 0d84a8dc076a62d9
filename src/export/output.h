// Output files of the exports: where they go, and a buffered text writer that remembers the
// first write error instead of failing silently.
#pragma once

#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "export/write_behind.h"
#include "format/result.h"
#include "format/text.h"

namespace tasklens::exports {

// `out` split into a directory and a file stem: ("a/b.prv", ".prv") -> ("a", "b"); a path
// without the suffix is taken as the stem: ("a/b", ".prv") -> ("a", "b").
struct OutputPath {
  std::string dir;
  std::string stem;
  std::string join(std::string_view suffix) const;  // dir/stem + suffix
};
OutputPath split_output(const std::string& out, std::string_view suffix);

// Creates the parent directories of `path` if needed; a one-line error if that fails.
Result<bool> make_parent_dirs(const std::string& path);

// A text file written through a large buffer. "-" is stdout.
class TextOut {
 public:
  TextOut() = default;
  ~TextOut();
  TextOut(const TextOut&) = delete;
  TextOut& operator=(const TextOut&) = delete;

  // Opens (creates or truncates) `path`; the error names the file and the reason.
  Result<bool> open(const std::string& path);
  bool is_open() const { return file_ != nullptr; }
  // From now on, full buffers are written by a thread of its own (write_behind.h) while the
  // caller fills the next one: for the big outputs.
  void write_behind();

  template <class... Args>
  void print(fmt::format_string<Args...> f, Args&&... args) {
    fmt::format_to(fmt::appender(buf_), f, std::forward<Args>(args)...);
    if (buf_.size() >= kFlushAt) flush();
  }
  void write(std::string_view s) {
    buf_.append(s.data(), s.data() + s.size());
    if (buf_.size() >= kFlushAt) flush();
  }
  // Pieces of a line, for the hot loops; call end_piece() after the last one.
  void piece(std::string_view s) { buf_.append(s.data(), s.data() + s.size()); }
  void piece(char c) { buf_.push_back(c); }
  void piece(uint64_t v) {
    fmt::format_int f(v);
    buf_.append(f.data(), f.data() + f.size());
  }
  void piece(int64_t v) {
    fmt::format_int f(v);
    buf_.append(f.data(), f.data() + f.size());
  }
  void end_piece() {
    if (buf_.size() >= kFlushAt) flush();
  }
  // Room for `n` more bytes for the hottest loops: write at most n bytes from the pointer
  // returned, then commit() the end of what was written.
  char* reserve(size_t n) {
    size_t old = buf_.size();
    buf_.resize(old + n);
    return buf_.data() + old;
  }
  void commit(const char* end) {
    buf_.resize(size_t(end - buf_.data()));
    if (buf_.size() >= kFlushAt) flush();
  }
  uint64_t bytes() const { return written_ + buf_.size(); }

  void flush();
  // Flushes and closes; the first error met while writing, if any.
  Result<bool> close();

 private:
  static constexpr size_t kFlushAt = size_t(1) << 20;
  std::string path_;
  FILE* file_ = nullptr;
  fmt::memory_buffer buf_;
  std::unique_ptr<WriteBehind> behind_;
  uint64_t written_ = 0;
  int error_ = 0;  // errno of the first failed write
};

// Durations, task ids and JSON strings as text: format/text.h.
using format::duration_text;
using format::id_text;
using format::json_quote;

// `s` with the characters a Paraver label cannot hold (newlines, ':' in some places) replaced.
std::string plain_label(std::string_view s);
// The same without the "?" of an empty one: for the parts of a label, replaced apart.
std::string plain_text(std::string_view s);

}  // namespace tasklens::exports
