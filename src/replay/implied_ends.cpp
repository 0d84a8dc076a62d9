#include "replay/implied_ends.h"

#include "format/event_views.h"
#include "format/kinds.h"

namespace tasklens::replay {

namespace {

using format::Endpoint;
using format::Kind;
using format::WorkType;

// The task a construct-closing event belongs to, or 0 when `e` closes no single.
uint64_t closing_task(const format::Event& e) {
  switch (e.kind) {
    case Kind::kSyncRegion:
    case Kind::kSyncRegionWait: {
      const auto s = format::ev::SyncAny::of(e);
      return s.endpoint == uint8_t(Endpoint::kBegin) && format::is_barrier(s.sync_kind) ? s.task : 0;
    }
    case Kind::kWork: {
      // Only a worksharing construct: a taskloop may run inside a single.
      const auto w = format::ev::Work::of(e);
      return w.endpoint == uint8_t(Endpoint::kBegin) && format::is_worksharing(w.work_type) ? w.task
                                                                                            : 0;
    }
    case Kind::kImplicitTask: {
      const auto it = format::ev::ImplicitTask::of(e);
      return it.endpoint == uint8_t(Endpoint::kEnd) ? it.task : 0;
    }
    default:
      return 0;
  }
}

}  // namespace

const Record* ImpliedEnds::check(const Record& r, std::vector<Open>& open) {
  const format::Event& e = r.ev;
  const auto w = format::ev::Work::of(e);
  bool single = e.kind == Kind::kWork && w.work_type == uint16_t(WorkType::kSingleExecutor);
  if (single && w.endpoint == uint8_t(Endpoint::kEnd)) {
    // The runtime reported the end itself (clang's __kmpc_end_single).
    if (!open.empty() && open.back().task == w.task) open.pop_back();
    return nullptr;
  }
  uint64_t task = closing_task(e);
  const Record* implied = nullptr;
  if (task && !open.empty() && open.back().task == task) {
    implied_ = Record{};
    implied_.thread = r.thread;
    format::ev::Work end;
    end.endpoint = uint8_t(Endpoint::kEnd);
    end.work_type = uint16_t(WorkType::kSingleExecutor);
    end.count = 1;
    end.region = open.back().region;
    end.task = open.back().task;
    end.codeptr = open.back().codeptr;
    implied_.ev = end.event(e.time);
    open.pop_back();
    implied = &implied_;
  }
  if (single && w.endpoint == uint8_t(Endpoint::kBegin)) {
    // Bounded: a damaged trace of begins alone must not grow it without end.
    if (open.size() == 64) open.erase(open.begin());
    open.push_back({w.region, w.task, w.codeptr});
  }
  return implied;
}

}  // namespace tasklens::replay
