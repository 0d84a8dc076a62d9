// Sorts more fixed-size records than fit in memory by their `time` field, for inputs that are
// mostly in time order already (a replay emits most records at the current time and some late:
// a state when it ends, a relation when its receiver is known).
//
// A record no older than the last in-order one extends the in-order stream, written as is (no
// sorting). A late record goes to runs of `run_size` records sorted in memory and spilled to
// temporary files. Reading merges the in-order stream and the runs. Records of the in-order
// stream keep their order of arrival; late records are ordered by time only (their order among
// equal times is unspecified), and come after in-order records of the same time.
// Memory: two runs, plus a block per file while merging; at most kMaxLateFiles late runs are on
// disk at once (more are merged into one first), so memory and open files stay bounded.
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
    runs_.emplace_back();  // run 0: the in-order stream
  }
  ~ExternalSorter() {
    for (Run& r : runs_) {
      if (!r.file) continue;
      std::fclose(r.file);
      std::remove(r.path.c_str());
    }
  }
  ExternalSorter(const ExternalSorter&) = delete;
  ExternalSorter& operator=(const ExternalSorter&) = delete;

  void add(const T& r) {
    ++count_;
    if (r.time >= last_in_order_) {
      last_in_order_ = r.time;
      Run& in_order = runs_[0];
      in_order.block.push_back(r);
      // In memory up to a run's size, then written out block by block.
      if (in_order.block.size() >= (in_order.file ? kBlock : run_size_)) write_block(in_order);
    } else {
      late_.push_back(r);
      if (late_.size() >= run_size_) spill_late();
    }
  }
  uint64_t count() const { return count_; }
  size_t files() const {
    size_t n = 0;
    for (const Run& r : runs_) n += r.file ? 1 : 0;
    return n;
  }

  // Ends the input. An error if a temporary file could not be written or read back.
  Result<bool> seal() {
    std::sort(late_.begin(), late_.end(), [](const T& a, const T& b) { return a.time < b.time; });
    Run memory;
    memory.block = std::move(late_);
    runs_.push_back(std::move(memory));
    for (Run& r : runs_) {
      if (!r.file) continue;
      write_block(r);  // what remains of the in-order stream
      if (std::fflush(r.file) != 0 || std::fseek(r.file, 0, SEEK_SET) != 0) fail("write", r);
      r.block.clear();
      if (!refill(r)) continue;
    }
    if (!error_.empty()) return Error{error_};
    for (uint32_t i = 0; i < runs_.size(); ++i) {
      if (runs_[i].pos < runs_[i].block.size()) heap_.push_back(i);
    }
    std::make_heap(heap_.begin(), heap_.end(), After{this});
    return true;
  }

  // The next record in time order; false at the end.
  bool next(T& out) {
    if (heap_.empty()) return false;
    std::pop_heap(heap_.begin(), heap_.end(), After{this});
    Run& r = runs_[heap_.back()];
    out = r.block[r.pos];
    if (++r.pos < r.block.size() || refill(r)) {
      std::push_heap(heap_.begin(), heap_.end(), After{this});
    } else {
      heap_.pop_back();
    }
    return true;
  }

 private:
  struct Run {
    std::string path;
    FILE* file = nullptr;  // nullptr: the run is all in `block`
    std::vector<T> block;  // records being written, or read back
    size_t pos = 0;
  };
  // Heap order: the smallest (time, run) on top.
  struct After {
    const ExternalSorter* s;
    bool operator()(uint32_t a, uint32_t b) const {
      const Run& x = s->runs_[a];
      const Run& y = s->runs_[b];
      uint64_t ta = x.block[x.pos].time, tb = y.block[y.pos].time;
      return ta > tb || (ta == tb && a > b);
    }
  };
  static constexpr size_t kBlock = 8192;
  static constexpr size_t kMaxLateFiles = 32;

  void fail(const char* what, const Run& r) {
    if (error_.empty()) {
      error_ = std::string("cannot ") + what + " temporary file " + r.path + ": " + std::strerror(errno);
    }
  }
  bool open(Run& r) {
    if (r.file) return true;
    r.path = dir_ + "/run-" + std::to_string(next_file_++) + ".bin";
    r.file = std::fopen(r.path.c_str(), "w+b");
    if (!r.file) fail("create", r);
    return r.file != nullptr;
  }
  void write_block(Run& r) {
    if (r.block.empty() || !open(r)) return;
    if (std::fwrite(r.block.data(), sizeof(T), r.block.size(), r.file) != r.block.size()) {
      fail("write", r);
    }
    r.block.clear();
  }
  void spill_late() {
    std::sort(late_.begin(), late_.end(), [](const T& a, const T& b) { return a.time < b.time; });
    Run r;
    if (open(r) && std::fwrite(late_.data(), sizeof(T), late_.size(), r.file) != late_.size()) {
      fail("write", r);
    }
    runs_.push_back(std::move(r));
    late_.clear();
    if (runs_.size() - 1 >= kMaxLateFiles) merge_late_runs();
  }
  // Merges the late runs on disk (all but run 0) into one.
  void merge_late_runs() {
    std::vector<uint32_t> heap;
    for (uint32_t i = 1; i < runs_.size(); ++i) {
      Run& r = runs_[i];
      if (!r.file) continue;
      if (std::fflush(r.file) != 0 || std::fseek(r.file, 0, SEEK_SET) != 0) fail("write", r);
      if (refill(r)) heap.push_back(i);
    }
    Run merged;
    std::vector<T> out;
    out.reserve(kBlock);
    std::make_heap(heap.begin(), heap.end(), After{this});
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), After{this});
      Run& r = runs_[heap.back()];
      out.push_back(r.block[r.pos]);
      if (++r.pos < r.block.size() || refill(r)) {
        std::push_heap(heap.begin(), heap.end(), After{this});
      } else {
        heap.pop_back();
      }
      if (out.size() == kBlock) {
        merged.block.swap(out);
        write_block(merged);
        out.swap(merged.block);
      }
    }
    merged.block.swap(out);
    write_block(merged);
    for (size_t i = 1; i < runs_.size(); ++i) {
      if (!runs_[i].file) continue;
      std::fclose(runs_[i].file);
      std::remove(runs_[i].path.c_str());
    }
    runs_.resize(1);
    runs_.push_back(std::move(merged));
  }
  bool refill(Run& r) {
    if (!r.file) return false;
    r.block.resize(kBlock);
    size_t n = std::fread(r.block.data(), sizeof(T), kBlock, r.file);
    r.block.resize(n);
    r.pos = 0;
    return n > 0;
  }

  std::string dir_;
  size_t run_size_;
  std::vector<Run> runs_;  // [0]: in order; then the late runs, the last one in memory
  std::vector<T> late_;
  uint64_t last_in_order_ = 0;
  std::vector<uint32_t> heap_;
  uint64_t count_ = 0;
  size_t next_file_ = 0;
  std::string error_;
};

}  // namespace tasklens::exports
