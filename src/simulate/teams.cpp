// The simulation's parallel regions (simulation.h): a fork gives each simulated team member its
// chain of recorded implicit tasks; members meet at barriers.
#include "simulate/simulation.h"

namespace tasklens::simulate::detail {

uint32_t Simulation::chain_next(const DagRegion& r, uint32_t size, uint32_t k) const {
  for (size_t i = size_t(k) + size; i < r.members.size(); i += size) {
    if (r.members[i] != kNone) return uint32_t(i);
  }
  return kNone;
}

uint32_t Simulation::chain_first(const DagRegion& r, uint32_t size, uint32_t j) const {
  for (size_t i = j; i < r.members.size(); i += size) {
    if (r.members[i] != kNone) return uint32_t(i);
  }
  return kNone;
}

void Simulation::fork(uint32_t encountering, uint32_t w, uint32_t region) {
  const DagRegion& r = dag_.regions[region];
  RegionState& rs = regions_[region];
  rs.size = r.nested ? 1 : uint32_t(workers_.size());
  rs.encountering = encountering;
  ts_[encountering].wait = Wait::kJoin;
  for (uint32_t k = 0; k < r.members.size(); ++k) {
    if (r.members[k] == kNone) continue;
    TaskState& s = ts_[r.members[k]];
    s.region = region;
    s.team_index = k;
  }
  for (uint32_t j = 0; j < rs.size; ++j) {
    uint32_t k = chain_first(r, rs.size, j);
    if (k == kNone) continue;
    ++rs.team;
    uint32_t target = j == 0 ? w : j;
    start(r.members[k], target);
    if (target != w) wake(target);
  }
  if (rs.team == 0) ts_[encountering].wait = Wait::kNone;
}

void Simulation::check_barrier(uint32_t region) {
  RegionState& rs = regions_[region];
  if (rs.arrived < rs.team || rs.arrived == 0 || rs.live_explicit) return;
  ++rs.gen;
  rs.arrived = 0;
  for (uint32_t t : rs.waiting) wake(ts_[t].worker);
  rs.waiting.clear();
}

// Replaces the implicit task on top of w's stack by another of its team member's chain.
void Simulation::switch_member(uint32_t w, uint32_t task) {
  workers_[w].stack.back() = task;
  ts_[task].worker = w;
}

// An implicit task reached a barrier (or its end, `at_end`).
void Simulation::member_stop(uint32_t task, uint32_t w, bool at_end) {
  TaskState& s = ts_[task];
  const DagRegion& r = dag_.regions[s.region];
  RegionState& rs = regions_[s.region];
  uint32_t next = chain_next(r, rs.size, s.team_index);
  if (next != kNone) {
    switch_member(w, r.members[next]);
    return;
  }
  if (at_end) {
    workers_[w].stack.pop_back();
    if (++rs.done == rs.team) {
      ts_[rs.encountering].wait = Wait::kNone;
      wake(ts_[rs.encountering].worker);
    }
    return;
  }
  ++rs.arrived;
  s.wait = Wait::kBarrier;
  s.wait_gen = rs.gen;
  rs.waiting.push_back(task);
  check_barrier(s.region);
}

}  // namespace tasklens::simulate::detail
