// Paths through the task graph as shared, reference-counted lists of segments, newest first: the
// task graph pass keeps, with each longest-path length it tracks, the path that has it. A segment
// is a stretch of one task's running time. Paths share their common beginnings, and a segment is
// reused as soon as no path holds it any more, so memory follows the paths still in use (those
// of live tasks), not the run's length.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tasklens::analysis {

// What a segment's time is and how the path came to its task (the caller's codes).
struct PathLabel {
  uint32_t creates = 0;  // tasks its task created within the segment
  uint32_t runtime_ns = 0;  // of its time, the runtime's (task creation), not its task's work
  uint8_t kind = 0;      // e.g. a task body's time or the runtime's
  uint8_t via = 0;       // the edge from the segment before it
  uint8_t detail = 0;    // about that edge (e.g. the dependence type)
  bool serial = false;   // its task runs outside any parallel region (the initial task)
};

class PathArena {
 public:
  using Ref = uint32_t;  // 0: the empty path
  using Label = PathLabel;
  struct Segment {
    uint64_t task = 0;
    uint64_t ns = 0;
    uint32_t construct = 0;  // the caller's key for the task's construct
    Ref prev = 0;            // the path before this segment
    uint32_t refs = 0;
    Label label;
  };

  // A new path: `prev` followed by a segment. It takes over the caller's reference to `prev`;
  // the caller holds the one reference to the result.
  Ref extend(Ref prev, uint64_t task, uint32_t construct, uint64_t ns, Label label = {}) {
    Ref r;
    if (!free_.empty()) {
      r = free_.back();
      free_.pop_back();
    } else {
      segments_.emplace_back();
      r = Ref(segments_.size() - 1);
    }
    segments_[r] = Segment{task, ns, construct, prev, 1, label};
    return r;
  }
  Ref acquire(Ref r) {
    if (r) ++segments_[r].refs;
    return r;
  }
  void release(Ref r) {
    while (r && --segments_[r].refs == 0) {
      Ref prev = segments_[r].prev;
      free_.push_back(r);
      r = prev;  // the freed segment held one reference to it
    }
  }
  // Replaces *slot's path with `r` (one more reference to r).
  void assign(Ref* slot, Ref r) {
    acquire(r);
    release(*slot);
    *slot = r;
  }
  const Segment& segment(Ref r) const { return segments_[r]; }
  size_t in_use() const { return segments_.size() - 1 - free_.size(); }

 private:
  std::vector<Segment> segments_ = std::vector<Segment>(1);  // [0]: the empty path
  std::vector<Ref> free_;
};

}  // namespace tasklens::analysis
