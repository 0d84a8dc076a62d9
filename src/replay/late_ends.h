// Ends the runtime reports late, moved by the replay to where they happened, so that every pass
// and export sees a region's team end with the region. libomp reports a worker's end of a
// region's closing barrier (sync_region_wait and sync_region end), and its implicit task's end,
// only when the next region or the program's exit releases the worker: a region followed by
// 170 ms of serial code had the worker "in the barrier" for those 170 ms (docs/LIBOMP.md). The
// same holds for a team's initial task in a host `teams` league.
//
// At a region's parallel_end, each other thread whose innermost implicit task belongs to that
// region, and is the task it runs, gets the ends it will report later at the parallel_end's
// time: its barrier's (if it is in one) and its implicit task's. The late reports are then left
// out when they come. Most come at the next region; some by a few hundred ns only (a worker's
// implicit-task end 145 ns after parallel_end, its barrier ended before). A worker that runs an
// explicit task there (a damaged trace) is left as it is.
#pragma once

#include <cstdint>
#include <vector>

#include "format/event.h"
#include "format/kinds.h"
#include "replay/merged_stream.h"

namespace tasklens::replay {

class TaskModel;

class LateEnds {
 public:
  explicit LateEnds(uint32_t threads) : threads_(threads) {}

  // Whether `r` needs fix(): a cheap test on its kind, true for a few kinds only.
  bool involved(const Record& r) const {
    using format::Kind;
    constexpr uint64_t kKinds = (uint64_t(1) << uint8_t(Kind::kImplicitTask)) |
                                (uint64_t(1) << uint8_t(Kind::kParallelEnd)) |
                                (uint64_t(1) << uint8_t(Kind::kThreadEnd)) |
                                (uint64_t(1) << uint8_t(Kind::kSyncRegion)) |
                                (uint64_t(1) << uint8_t(Kind::kSyncRegionWait));
    const unsigned kind = uint8_t(r.ev.kind);
    if (kind >= 64 || !((kKinds >> kind) & 1)) return false;
    // Taskwaits and taskgroups are most of the sync events of a task program: no look at them.
    if (kind == uint8_t(Kind::kSyncRegion) || kind == uint8_t(Kind::kSyncRegionWait)) {
      return format::is_barrier(r.ev.sub) && r.thread < threads_.size();
    }
    return r.thread < threads_.size();
  }

  // The records to apply in place of `r`, in order: the ends moved to a parallel_end and then
  // `r`; `r` alone; or nothing, for a late report already supplied. `m`: the model before `r`.
  // Valid until the next call.
  const std::vector<Record>& fix(const Record& r, const TaskModel& m);

 private:
  // At `parallel_end` (record `r`): the other threads' ends, into out_.
  void move_ends(const Record& r, const TaskModel& m);

  struct Implicit {
    uint64_t task, region;
    uint16_t index;
    uint32_t flags;
    uint64_t team_size;
  };
  struct Barrier {
    uint64_t task, codeptr;
    uint16_t sync_kind;
    bool in_region, in_wait;  // between its sync_region begin and end; its wait's
  };
  struct Thread {
    std::vector<Implicit> implicit;  // innermost last
    std::vector<Barrier> barriers;   // open barriers, innermost last
    uint64_t late_task = 0;          // its ends were supplied: its late reports are left out
  };
  std::vector<Thread> threads_;
  std::vector<Record> out_;
};

}  // namespace tasklens::replay
