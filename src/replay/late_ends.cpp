#include "replay/late_ends.h"

#include "format/event_views.h"
#include "replay/task_model.h"

namespace tasklens::replay {

using format::Endpoint;
using format::Kind;

const std::vector<Record>& LateEnds::fix(const Record& r, const TaskModel& m) {
  out_.clear();
  Thread& th = threads_[r.thread];
  const format::Event& e = r.ev;
  switch (e.kind) {
    case Kind::kImplicitTask: {
      const auto it = format::ev::ImplicitTask::of(e);
      if (it.endpoint == uint8_t(Endpoint::kBegin)) {
        th.late_task = 0;  // its late reports, if any, come before its next implicit task
        // Bounded: a damaged trace of begins alone must not grow it without end.
        if (th.implicit.size() == 256) th.implicit.erase(th.implicit.begin());
        th.implicit.push_back({it.task, it.region, it.index, it.flags, it.team_size});
        break;
      }
      // libomp may name no task at an implicit task's end (format::ev::task_or): the innermost.
      if (th.late_task && (it.task == th.late_task || it.task == 0)) {
        th.late_task = 0;  // the last of the late reports
        return out_;
      }
      const uint64_t task =
          format::ev::task_or(it.task, th.implicit.empty() ? 0 : th.implicit.back().task);
      for (size_t i = th.implicit.size(); i-- > 0;) {
        if (th.implicit[i].task != task) continue;
        th.implicit.erase(th.implicit.begin() + long(i));
        break;
      }
      break;
    }
    case Kind::kSyncRegion:
    case Kind::kSyncRegionWait: {
      const auto s = format::ev::SyncAny::of(e);
      const bool begin = s.endpoint == uint8_t(Endpoint::kBegin);
      // The late task's barrier events, whatever their order, are over with it (an end that
      // names no task is its own).
      if (th.late_task && (s.task == th.late_task || (s.task == 0 && !begin))) return out_;
      const bool wait = e.kind == Kind::kSyncRegionWait;
      Barrier* top = th.barriers.empty() || (s.task && th.barriers.back().task != s.task)
                         ? nullptr
                         : &th.barriers.back();
      if (begin) {
        if (wait && top && !top->in_wait) {
          top->in_wait = true;
        } else if (th.barriers.size() < 64) {  // bounded: a damaged trace of begins alone
          th.barriers.push_back({s.task, s.codeptr, s.sync_kind, !wait, wait});
        }
        break;
      }
      if (!top) break;
      if (wait) {
        top->in_wait = false;
      } else {
        top->in_region = false;
      }
      if (!top->in_region && !top->in_wait) th.barriers.pop_back();
      break;
    }
    case Kind::kParallelEnd:
      move_ends(r, m);
      break;
    case Kind::kThreadEnd:
      th = Thread{};
      break;
    default:
      break;
  }
  out_.push_back(r);
  return out_;
}

void LateEnds::move_ends(const Record& r, const TaskModel& m) {
  const uint64_t region = format::ev::ParallelEnd::of(r.ev).region;
  // An end that names no region (a damaged trace) ends no team: initial tasks name none either.
  if (!region) return;
  for (uint32_t q = 0; q < threads_.size(); ++q) {
    Thread& th = threads_[q];
    if (q == r.thread || th.implicit.empty() || th.late_task) continue;
    const Implicit imp = th.implicit.back();
    // Running an explicit task is no wait (the region cannot have ended then: a damaged trace).
    if (imp.region != region || m.thread(q).current != imp.task) continue;
    Record end{};
    end.thread = q;
    if (!th.barriers.empty() && th.barriers.back().task == imp.task) {
      const Barrier b = th.barriers.back();
      th.barriers.pop_back();
      // What libomp reports later: no region at these ends, the barrier's code address.
      format::ev::SyncAny s;
      s.endpoint = uint8_t(Endpoint::kEnd);
      s.sync_kind = b.sync_kind;
      s.task = b.task;
      s.codeptr = b.codeptr;
      if (b.in_wait) {
        end.ev = s.event(r.ev.time, Kind::kSyncRegionWait);
        out_.push_back(end);
      }
      if (b.in_region) {
        end.ev = s.event(r.ev.time, Kind::kSyncRegion);
        out_.push_back(end);
      }
    }
    format::ev::ImplicitTask it;
    it.endpoint = uint8_t(Endpoint::kEnd);
    it.index = imp.index;
    it.flags = imp.flags;
    it.task = imp.task;
    it.team_size = imp.team_size;
    end.ev = it.event(r.ev.time);
    out_.push_back(end);
    th.implicit.pop_back();
    th.late_task = imp.task;
  }
}

}  // namespace tasklens::replay
