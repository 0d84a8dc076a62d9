#include "replay/implied_ends.h"

namespace tasklens::replay {

namespace {

using format::Endpoint;
using format::Kind;
using format::WorkType;

bool is_barrier(uint16_t sub) {
  auto k = format::SyncKind(sub);
  return k != format::SyncKind::kTaskwait && k != format::SyncKind::kTaskgroup &&
         k != format::SyncKind::kReduction;
}

// The task a construct-closing event belongs to, or 0 when `e` closes no single.
uint64_t closing_task(const format::Event& e) {
  switch (e.kind) {
    case Kind::kSyncRegion:
    case Kind::kSyncRegionWait:
      return e.op == uint8_t(Endpoint::kBegin) && is_barrier(e.sub) ? e.b : 0;
    case Kind::kWork:
      return e.op == uint8_t(Endpoint::kBegin) ? e.b : 0;
    case Kind::kImplicitTask:
      return e.op == uint8_t(Endpoint::kEnd) ? e.a : 0;
    default:
      return 0;
  }
}

}  // namespace

const Record* ImpliedEnds::check(const Record& r, std::vector<Open>& open) {
  const format::Event& e = r.ev;
  bool single = e.kind == Kind::kWork && e.sub == uint16_t(WorkType::kSingleExecutor);
  if (single && e.op == uint8_t(Endpoint::kEnd)) {
    // The runtime reported the end itself (clang's __kmpc_end_single).
    if (!open.empty() && open.back().task == e.b) open.pop_back();
    return nullptr;
  }
  uint64_t task = closing_task(e);
  const Record* implied = nullptr;
  if (task && !open.empty() && open.back().task == task) {
    implied_ = Record{};
    implied_.thread = r.thread;
    implied_.ev.time = e.time;
    implied_.ev.kind = Kind::kWork;
    implied_.ev.op = uint8_t(Endpoint::kEnd);
    implied_.ev.sub = uint16_t(WorkType::kSingleExecutor);
    implied_.ev.flags = 1;
    implied_.ev.a = open.back().region;
    implied_.ev.b = open.back().task;
    implied_.ev.c = open.back().codeptr;
    open.pop_back();
    implied = &implied_;
  }
  if (single && e.op == uint8_t(Endpoint::kBegin)) {
    // Bounded: a damaged trace of begins alone must not grow it without end.
    if (open.size() == 64) open.erase(open.begin());
    open.push_back({e.a, e.b, e.c});
  }
  return implied;
}

}  // namespace tasklens::replay
