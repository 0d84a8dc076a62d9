// Sorts more fixed-size records than fit in memory by their `time` field, for inputs that are
// mostly in time order already (a replay emits most records at the current time and some late:
// a state when it ends, a relation when its receiver is known).
//
// A record no older than the last in-order one extends the in-order stream, written as is (no
// sorting). A late record extends the first of kPiles more streams whose last record is no later
// than it (patience sorting: a replay's late records are late by little, mostly in order among
// themselves: on fib 30 three quarters of the late ones fit the first pile, 96 % the first
// three), else it goes to runs of `run_size` records sorted in memory and spilled to temporary
// files. Reading merges the streams and the runs. At equal times the in-order stream comes first,
// then the piles in order, then the runs: records of equal time keep their order of arrival, but
// for a sorted run's record, which comes after the piles' of its time.
// Memory: two runs, plus a block per file while merging; at most kMaxFiles streams and runs are
// on disk at once (more runs are merged into one first), so memory and open files stay bounded.
//
// Runs are kept (in memory and on disk) as bytes written by a Codec: every run is in time
// order, so a codec can store each record's time as the difference from the one before
// (PrvCodec: about 8 bytes for a 40-byte record). The default codec copies the bytes.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "format/result.h"

namespace tasklens::exports {

// A codec writes a record after the record `prev` of its run (runs are in time order; before the
// first, T{}) in at most kMaxBytes bytes, and reads it back into the record that holds the one
// before it.
template <class T>
struct RawCodec {
  static_assert(std::is_trivially_copyable_v<T>, "records are written to disk as bytes");
  static constexpr size_t kMaxBytes = sizeof(T);
  static uint8_t* encode(const T& r, const T& /*prev*/, uint8_t* out) {
    std::memcpy(out, &r, sizeof(T));
    return out + sizeof(T);
  }
  static const uint8_t* decode(const uint8_t* in, T& r) {
    std::memcpy(&r, in, sizeof(T));
    return in + sizeof(T);
  }
};

// A byte buffer that grows without zeroing what it adds: pages not written yet stay unmapped, so
// a run's buffer costs the memory of what it holds.
class SortBytes {
 public:
  uint8_t* data() { return p_.get(); }
  size_t size() const { return cap_; }
  // At least n bytes, keeping the first `keep`.
  void grow(size_t n, size_t keep) {
    if (n <= cap_) return;
    size_t cap = std::max(n, cap_ * 2);
    std::unique_ptr<uint8_t[]> p(new uint8_t[cap]);
    if (keep) std::memcpy(p.get(), p_.get(), keep);
    p_ = std::move(p);
    cap_ = cap;
  }

 private:
  std::unique_ptr<uint8_t[]> p_;
  size_t cap_ = 0;
};

template <class T, class Codec = RawCodec<T>>
class ExternalSorter {
 public:
  // Temporary files go to `dir` (which must exist), named run-<n>.bin.
  ExternalSorter(std::string dir, size_t run_size)
      : dir_(std::move(dir)), run_size_(std::max<size_t>(run_size, 16)) {
    runs_.resize(kStreams);  // the in-order stream and the piles
    // Room for whole runs from the start, so that they fill without copies; pages are mapped
    // only when written.
    late_.reserve(run_size_);
    runs_[0].bytes.grow(run_size_ * Codec::kMaxBytes + kBlockBytes, 0);
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
    for (size_t i = 0; i < kStreams; ++i) {
      if (r.time < last_[i].time) continue;
      Run& stream = runs_[i];
      append(stream, r, last_[i]);
      last_[i] = r;
      // In memory up to a run's size (all streams together), then written out block by block.
      if (stream.file ? stream.used >= kBlockBytes : ++in_memory_ >= run_size_) {
        write_block(stream);
      }
      return;
    }
    late_.push_back(r);
    if (late_.size() % kSortedChunk == 0) {
      std::stable_sort(late_.end() - kSortedChunk, late_.end(), ByTime{});
    }
    if (late_.size() >= run_size_) spill_late();
  }
  uint64_t count() const { return count_; }
  size_t files() const {
    size_t n = 0;
    for (const Run& r : runs_) n += r.file ? 1 : 0;
    return n;
  }

  // Ends the input. An error if a temporary file could not be written or read back.
  Result<bool> seal() {
    sort_late();
    Run memory;
    encode_all(late_, memory);
    late_.clear();
    late_.shrink_to_fit();
    runs_.push_back(std::move(memory));
    for (Run& r : runs_) {
      if (r.file) {
        write_block(r);  // what remains of the in-order stream
        if (std::fflush(r.file) != 0 || std::fseek(r.file, 0, SEEK_SET) != 0) fail("write", r);
      }
      r.cur = T{};
      advance(r);
    }
    if (!error_.empty()) return Error{error_};
    for (uint32_t i = 0; i < runs_.size(); ++i) {
      if (runs_[i].has) live_.push_back(i);
    }
    choose();
    return true;
  }

  // The next record in time order; false at the end.
  bool next(T& out) { return next(&out, 1) == 1; }

  // The next records in time order, up to n of them: how many (0 at the end).
  // The current run gives records while its next one comes before the other runs' smallest
  // (kept from the last choice: the other runs do not move meanwhile); then the few runs (a
  // stream, three piles, a handful of late runs) are scanned again. On fib the next record
  // comes from another run about every other record: a scan of a few heads costs less than a
  // heap's push and pop. Records are given by the block, so that the loop keeps its state in
  // registers (a call per record was a fifth of the merge's instructions).
  size_t next(T* out, size_t n) {
    size_t k = 0;
    while (k < n && cur_ != kNoRun) {
      Run& r = runs_[cur_];
      uint64_t other_time = other_time_;
      bool after_other = cur_ > other_;  // at equal times, the other run comes first
      for (;;) {
        out[k++] = r.cur;
        if (!advance(r)) {
          live_.erase(std::find(live_.begin(), live_.end(), cur_));
          choose();
          break;
        }
        if (r.cur.time > other_time || (r.cur.time == other_time && after_other)) {
          choose();
          break;
        }
        if (k == n) return k;
      }
    }
    return k;
  }

 private:
  struct Run {
    std::string path;
    FILE* file = nullptr;  // nullptr: the run is all in `bytes`
    SortBytes bytes;       // encoded records being written, or read back: [0, used)
    size_t used = 0;
    size_t pos = 0;     // reading: the next record in `bytes`
    bool eof = false;   // reading: the file has nothing more
    T cur{};            // reading: the current record (the codec's context for the next)
    bool has = false;
  };
  // Heap order: the smallest (time, run) on top.
  struct After {
    const ExternalSorter* s;
    bool operator()(uint32_t a, uint32_t b) const {
      uint64_t ta = s->runs_[a].cur.time, tb = s->runs_[b].cur.time;
      return ta > tb || (ta == tb && a > b);
    }
  };
  static constexpr size_t kBlockBytes = size_t(256) << 10;
  static constexpr size_t kPiles = 3;
  static constexpr size_t kSortedChunk = 16384;   // late records sorted as they come (sort_late())
  static constexpr size_t kStreams = 1 + kPiles;  // runs_[0, kStreams): appended in order
  static constexpr size_t kMaxFiles = 33;
  static constexpr uint32_t kNoRun = UINT32_MAX;

  static void append(Run& r, const T& rec, const T& prev) {
    r.bytes.grow(r.used + Codec::kMaxBytes + 4096, r.used);
    r.used = size_t(Codec::encode(rec, prev, r.bytes.data() + r.used) - r.bytes.data());
  }
  static void encode_all(const std::vector<T>& recs, Run& r) {
    r.bytes.grow(recs.size() * Codec::kMaxBytes, 0);
    T prev{};
    for (const T& rec : recs) {
      append(r, rec, prev);
      prev = rec;
    }
  }
  struct ByTime {
    bool operator()(const T& a, const T& b) const { return a.time < b.time; }
  };
  // late_ is sorted chunk by chunk as it fills (add(), on the thread adding, where a replay
  // leaves time to spare), so that sorting it, between the replay and the merge when it is the
  // last run, is mostly merging those chunks. Both steps are stable: records of equal time keep
  // their order of arrival, as one stable sort would.
  void sort_late() {
    size_t n = late_.size();
    std::stable_sort(late_.begin() + ptrdiff_t(n - n % kSortedChunk), late_.end(), ByTime{});
    for (size_t width = kSortedChunk; width < n; width *= 2) {
      for (size_t lo = 0; lo + width < n; lo += 2 * width) {
        auto first = late_.begin() + ptrdiff_t(lo);
        std::inplace_merge(first, first + ptrdiff_t(width),
                           late_.begin() + ptrdiff_t(std::min(n, lo + 2 * width)), ByTime{});
      }
    }
  }

  void fail(const char* what, const Run& r) {
    if (error_.empty()) {
      error_ =
          std::string("cannot ") + what + " temporary file " + r.path + ": " + std::strerror(errno);
    }
  }
  bool open(Run& r) {
    if (r.file) return true;
    r.path = dir_ + "/run-" + std::to_string(next_file_++) + ".bin";
    r.file = std::fopen(r.path.c_str(), "w+b");
    if (!r.file) fail("create", r);
    return r.file != nullptr;
  }
  // Writes what the run holds in memory to its file (lost if that fails: seal() says so).
  void write_block(Run& r) {
    if (r.used && open(r) && std::fwrite(r.bytes.data(), 1, r.used, r.file) != r.used) {
      fail("write", r);
    }
    r.used = 0;
  }
  void spill_late() {
    sort_late();
    // Written block by block through one buffer (no run-sized allocation per spill).
    Run r;
    std::swap(r.bytes, spill_buffer_);
    T prev{};
    for (const T& rec : late_) {
      append(r, rec, prev);
      prev = rec;
      if (r.used >= kBlockBytes) write_block(r);
    }
    write_block(r);
    std::swap(r.bytes, spill_buffer_);
    runs_.push_back(std::move(r));
    late_.clear();
    if (runs_.size() >= kMaxFiles) merge_late_runs();
  }
  // Merges the late runs on disk (all but the streams) into one.
  void merge_late_runs() {
    std::vector<uint32_t> heap;
    for (uint32_t i = kStreams; i < runs_.size(); ++i) {
      Run& r = runs_[i];
      if (!r.file) continue;
      if (std::fflush(r.file) != 0 || std::fseek(r.file, 0, SEEK_SET) != 0) fail("write", r);
      r.cur = T{};
      if (advance(r)) heap.push_back(i);
    }
    Run merged;
    T prev{};
    std::make_heap(heap.begin(), heap.end(), After{this});
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), After{this});
      Run& r = runs_[heap.back()];
      append(merged, r.cur, prev);
      prev = r.cur;
      if (advance(r)) {
        std::push_heap(heap.begin(), heap.end(), After{this});
      } else {
        heap.pop_back();
      }
      if (merged.used >= kBlockBytes) write_block(merged);
    }
    write_block(merged);
    merged.bytes = {};
    for (size_t i = kStreams; i < runs_.size(); ++i) {
      if (!runs_[i].file) continue;
      std::fclose(runs_[i].file);
      std::remove(runs_[i].path.c_str());
    }
    runs_.resize(kStreams);
    runs_.push_back(std::move(merged));
  }
  // cur_: the live run with the smallest (time, run); other_: the same among the others.
  void choose() {
    cur_ = other_ = kNoRun;
    uint64_t cur_time = 0;
    for (uint32_t i : live_) {  // in run order: at equal times the first run found wins
      uint64_t t = runs_[i].cur.time;
      if (cur_ == kNoRun || t < cur_time) {
        other_ = cur_;
        other_time_ = cur_time;
        cur_ = i;
        cur_time = t;
      } else if (other_ == kNoRun || t < other_time_) {
        other_ = i;
        other_time_ = t;
      }
    }
    if (other_ == kNoRun) other_time_ = UINT64_MAX;  // alone: stays the current run to its end
  }
  // Decodes the run's next record into r.cur; false at its end.
  [[gnu::always_inline]] bool advance(Run& r) {
    if (r.file && !r.eof && r.used - r.pos < Codec::kMaxBytes) refill(r);
    if (r.pos >= r.used) return r.has = false;
    r.pos = size_t(Codec::decode(r.bytes.data() + r.pos, r.cur) - r.bytes.data());
    return r.has = true;
  }
  // Keeps the bytes not read yet and reads a block after them.
  void refill(Run& r) {
    size_t left = r.used - r.pos;
    r.bytes.grow(left + kBlockBytes, r.used);
    std::memmove(r.bytes.data(), r.bytes.data() + r.pos, left);
    size_t n = std::fread(r.bytes.data() + left, 1, kBlockBytes, r.file);
    if (n < kBlockBytes) {
      if (std::ferror(r.file)) fail("read", r);
      r.eof = true;
    }
    r.used = left + n;
    r.pos = 0;
  }

  std::string dir_;
  size_t run_size_;
  std::vector<Run> runs_;  // the streams (in-order, piles); then the late runs, the last in memory
  std::vector<T> late_;
  SortBytes spill_buffer_;
  T last_[kStreams] = {};         // each stream's last record
  size_t in_memory_ = 0;          // records of the streams before their first blocks are written
  std::vector<uint32_t> live_;    // runs with records left, in run order
  uint32_t cur_ = kNoRun;         // the run holding the smallest record (see next())
  uint32_t other_ = kNoRun;       // the run holding the smallest record of the others
  uint64_t other_time_ = 0;       // its time
  uint64_t count_ = 0;
  size_t next_file_ = 0;
  std::string error_;
};

}  // namespace tasklens::exports
