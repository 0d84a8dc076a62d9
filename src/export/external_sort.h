// Sorts more fixed-size records than fit in memory by their `time` field: runs of `run_size`
// records are sorted in memory (stably: equal times keep their order of arrival) and spilled to
// temporary files; reading merges the runs, ties going to the earlier run, so equal times come out
// in arrival order. Memory: one run plus a read block per spilled run.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "format/result.h"

namespace tasklens::exports {

template <class T>
class ExternalSorter {
  static_assert(std::is_trivially_copyable_v<T>, "records are written to disk as bytes");

 public:
  // Temporary files go to `dir` (which must exist), named run-<n>.bin.
  ExternalSorter(std::string dir, size_t run_size)
      : dir_(std::move(dir)), run_size_(std::max<size_t>(run_size, 16)) {
    buf_.reserve(std::min<size_t>(run_size_, size_t(1) << 16));
  }
  ~ExternalSorter() {
    for (Run& r : runs_) {
      if (r.file) std::fclose(r.file);
      std::remove(r.path.c_str());
    }
  }
  ExternalSorter(const ExternalSorter&) = delete;
  ExternalSorter& operator=(const ExternalSorter&) = delete;

  void add(const T& r) {
    buf_.push_back(r);
    ++count_;
    if (buf_.size() >= run_size_) spill();
  }
  uint64_t count() const { return count_; }
  size_t spilled_runs() const { return runs_.size(); }

  // Ends the input. An error if a run could not be written or read back.
  Result<bool> seal() {
    sort_buffer();
    for (Run& r : runs_) {
      if (!r.file) continue;
      std::fflush(r.file);
      if (std::ferror(r.file) || std::fseek(r.file, 0, SEEK_SET) != 0) {
        error_ = "cannot write temporary file " + r.path + ": " + std::strerror(errno);
      }
    }
    if (!error_.empty()) return Error{error_};
    for (size_t i = 0; i < runs_.size(); ++i) {
      if (refill(runs_[i])) heap_.push_back(uint32_t(i));
    }
    memory_run_ = uint32_t(runs_.size());
    if (!buf_.empty()) heap_.push_back(memory_run_);
    std::make_heap(heap_.begin(), heap_.end(), [this](uint32_t a, uint32_t b) { return after(a, b); });
    return true;
  }

  // The next record in time order; false at the end.
  bool next(T& out) {
    if (heap_.empty()) return false;
    std::pop_heap(heap_.begin(), heap_.end(), [this](uint32_t a, uint32_t b) { return after(a, b); });
    uint32_t i = heap_.back();
    out = current(i);
    bool more;
    if (i == memory_run_) {
      more = ++buf_pos_ < buf_.size();
    } else {
      Run& r = runs_[i];
      more = ++r.pos < r.block.size() || refill(r);
    }
    if (more) {
      std::push_heap(heap_.begin(), heap_.end(), [this](uint32_t a, uint32_t b) { return after(a, b); });
    } else {
      heap_.pop_back();
    }
    return true;
  }

 private:
  struct Run {
    std::string path;
    FILE* file = nullptr;
    std::vector<T> block;
    size_t pos = 0;
  };
  static constexpr size_t kReadBlock = 8192;

  void sort_buffer() {
    std::stable_sort(buf_.begin(), buf_.end(), [](const T& a, const T& b) { return a.time < b.time; });
  }
  void spill() {
    sort_buffer();
    Run r;
    r.path = dir_ + "/run-" + std::to_string(runs_.size()) + ".bin";
    r.file = std::fopen(r.path.c_str(), "w+b");
    if (!r.file) {
      if (error_.empty()) error_ = "cannot create temporary file " + r.path + ": " + std::strerror(errno);
    } else if (std::fwrite(buf_.data(), sizeof(T), buf_.size(), r.file) != buf_.size()) {
      if (error_.empty()) error_ = "cannot write temporary file " + r.path + ": " + std::strerror(errno);
    }
    runs_.push_back(std::move(r));
    buf_.clear();
  }
  bool refill(Run& r) {
    r.block.resize(kReadBlock);
    size_t n = r.file ? std::fread(r.block.data(), sizeof(T), kReadBlock, r.file) : 0;
    r.block.resize(n);
    r.pos = 0;
    return n > 0;
  }
  const T& current(uint32_t i) const {
    return i == memory_run_ ? buf_[buf_pos_] : runs_[i].block[runs_[i].pos];
  }
  // Heap order: the smallest (time, run) on top.
  bool after(uint32_t a, uint32_t b) const {
    uint64_t ta = current(a).time, tb = current(b).time;
    return ta > tb || (ta == tb && a > b);
  }

  std::string dir_;
  size_t run_size_;
  std::vector<T> buf_;
  size_t buf_pos_ = 0;
  std::vector<Run> runs_;
  uint32_t memory_run_ = 0;
  std::vector<uint32_t> heap_;
  uint64_t count_ = 0;
  std::string error_;
};

}  // namespace tasklens::exports
