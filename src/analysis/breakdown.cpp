// BreakdownPass: POT's work / overhead / idleness, accumulated per thread, region and slice.
#include "analysis/breakdown.h"

#include <algorithm>

#include "format/event_views.h"
#include "format/off_cpu.h"

namespace tasklens::analysis {

const char* verdict_code(Verdict v) {
  static const char* const k[] = {"LL", "LH", "HL", "HH"};
  return k[int(v)];
}

void BreakdownPass::begin(const replay::ReplayInfo& info) {
  segments_.assign(info.threads, Segment{});
  pending_.assign(info.threads, Pending{});
  initial_.assign(info.threads, 0);
  off_cpu_.assign(info.threads, 0);
  result_ = Breakdown{};
  team_limit_ = info.team_limit();
  if (info.experiment) result_.creation = creation_cost(*info.experiment);
  claims_.begin(info.threads, &result_.creation);
  if (info.experiment) {
    result_.recorder_start_ns = info.experiment->clock.recorder_start_ns;
    const format::OffCpu& off = format::off_cpu(*info.experiment);
    result_.preemption_measured = off.source == "perf_switch";
    result_.preempted_by_program_ns = off.preempted_by_program_ns;
    result_.run_delay_known = off.run_delay_threads > 0;
    result_.run_delay_ns = off.run_delay_ns;
  }
  switches_.load(info.experiment, info.threads);
  result_.high_threshold = high_threshold_;
  result_.run_ns = info.end_ns;
  slice_ns_ = std::max<uint64_t>(1, (info.end_ns + slices_ - 1) / slices_);
  slice_begin_ = slice_end_ = 0;
  result_.series.resize(slices_);
  for (uint32_t i = 0; i < slices_; ++i) {
    result_.series[i].begin_ns = i * slice_ns_;
    result_.series[i].end_ns = (i + 1) * slice_ns_;
  }
  ready_at_boundary_.assign(slices_ + 1, 0);
  next_boundary_ = 1;
  next_boundary_ns_ = slice_ns_;
  result_.threads.resize(info.threads);
  for (uint32_t t = 0; t < info.threads; ++t) result_.threads[t].thread = t;
  construct_index(0);  // index 0: outside parallel regions
}

uint32_t BreakdownPass::construct_index(uint64_t codeptr) {
  for (uint32_t i = 0; i < result_.regions.size(); ++i) {
    if (result_.regions[i].codeptr == codeptr) return i;
  }
  result_.regions.push_back(RegionBreakdown{});
  result_.regions.back().codeptr = codeptr;
  return uint32_t(result_.regions.size() - 1);
}

void BreakdownPass::pass_boundaries(uint64_t t) {
  while (next_boundary_ns_ <= t) {
    uint64_t b = next_boundary_ns_;
    ready_at_boundary_[next_boundary_] = ready_integral_ + (ready_ ? b - now_ : 0);
    ++next_boundary_;
    next_boundary_ns_ = next_boundary_ < ready_at_boundary_.size() ? next_boundary_ * slice_ns_
                                                                    : UINT64_MAX;
  }
}

size_t BreakdownPass::slice_of(uint64_t t) {
  if (t < slice_begin_ || t >= slice_end_) {
    slice_index_ = std::min<size_t>(t / slice_ns_, result_.series.size() - 1);
    slice_begin_ = slice_index_ * slice_ns_;
    bool last = slice_index_ == result_.series.size() - 1;
    slice_end_ = last ? UINT64_MAX : slice_begin_ + slice_ns_;
  }
  return slice_index_;
}

uint64_t BreakdownPass::ready_at(uint64_t t) const {
  if (t >= now_) return ready_integral_;
  return ready_at_boundary_[t / slice_ns_];  // t is a boundary already passed
}

void BreakdownPass::open(uint32_t thread, uint64_t t, State state, bool working,
                         uint32_t construct) {
  Segment& s = segments_[thread];
  s.open = true;
  s.state = state;
  s.working = working;
  s.claimed = 0;
  s.t0 = t;
  s.ready0 = ready_integral_;
  s.construct = construct;
}

__attribute__((always_inline)) inline void BreakdownPass::close(uint32_t thread, uint64_t t) {
  Segment& s = segments_[thread];
  if (!s.open) return;
  s.open = false;
  if (t <= s.t0) return;
  if (s.working) result_.task_body_ns += t - s.t0;
  Pending& p = pending_[thread];
  // Mostly the interval lies in the slice of the one before and adds to the same sums.
  if (s.t0 >= slice_begin_ && t <= slice_end_ && p.slice == slice_index_ &&
      p.construct == s.construct) {
    if (s.state == kWorking) {
      uint64_t claimed = std::min(s.claimed, t - s.t0);
      p.time.work_ns += t - s.t0 - claimed;
      p.time.overhead_ns += claimed;
      p.time.creation_ns += claimed;
    } else if (s.state == kRuntime) {
      uint64_t ready = ready_integral_ - s.ready0;
      p.time.overhead_ns += ready;
      p.time.idle_ns += (t - s.t0) - ready;
    } else {
      (s.state == kSerial ? p.time.serial_ns : p.time.preempted_ns) += t - s.t0;
    }
    return;
  }
  close_across_slices(thread, t);
}

void BreakdownPass::close_across_slices(uint32_t thread, uint64_t t) {
  const Segment& s = segments_[thread];
  // Split [t0, t) at slice boundaries; R is known at each of them.
  uint64_t a = s.t0, ra = s.ready0;
  // The creations' claim lies at the segment's end (it ends at their events).
  const uint64_t claim_from = t - std::min(s.claimed, t - s.t0);
  while (a < t) {
    size_t k = slice_of(a);
    uint64_t b = std::min<uint64_t>(t, slice_end_);
    Pending& p = pending_[thread];
    if (p.slice != k || p.construct != s.construct) {
      flush(thread);
      p.slice = k;
      p.construct = s.construct;
    }
    if (s.state == kWorking) {
      uint64_t claimed = b > claim_from ? b - std::max(a, claim_from) : 0;
      p.time.work_ns += b - a - claimed;
      p.time.overhead_ns += claimed;
      p.time.creation_ns += claimed;
    } else if (s.state == kRuntime) {
      uint64_t rb = b == t ? ready_integral_ : ready_at(b);
      p.time.overhead_ns += rb - ra;
      p.time.idle_ns += (b - a) - (rb - ra);
      ra = rb;
    } else {
      (s.state == kSerial ? p.time.serial_ns : p.time.preempted_ns) += b - a;
    }
    a = b;
  }
}

void BreakdownPass::flush(uint32_t thread) {
  Pending& p = pending_[thread];
  result_.series[p.slice].time += p.time;
  result_.threads[thread].time += p.time;  // result_.total is their sum (end())
  result_.regions[p.construct].time += p.time;
  p.time = TimeSplit{};
}

void BreakdownPass::track_region(const format::Event& e) {
  // Region instances, for the wall time and team size of each construct.
  if (e.kind == format::Kind::kParallelBegin) {
    const auto pb = format::ev::ParallelBegin::of(e);
    live_regions_[pb.region] = Instance{construct_index(pb.codeptr), e.time};
  } else if (e.kind == format::Kind::kParallelEnd) {
    const auto pe = format::ev::ParallelEnd::of(e);
    if (Instance* in = live_regions_.find(pe.region)) {
      RegionBreakdown& rb = result_.regions[in->construct];
      ++rb.instances;
      rb.wall_ns += e.time - in->begin_ns;
      live_regions_.erase(pe.region);
    }
  } else if (e.kind == format::Kind::kImplicitTask) {
    const auto it = format::ev::ImplicitTask::of(e);
    if (it.endpoint != uint8_t(format::Endpoint::kBegin)) return;
    if (Instance* in = live_regions_.find(it.region)) {
      RegionBreakdown& rb = result_.regions[in->construct];
      rb.max_team = std::max(rb.max_team, replay::bounded_team(it.team_size, team_limit_));
    }
  }
}

__attribute__((always_inline)) inline void BreakdownPass::update_thread(uint32_t p, uint64_t t,
                                                                       const replay::TaskModel& m) {
  const replay::ThreadInfo& th = m.thread(p);
  // The initial thread lives from the process's start to its exit; the others while the model
  // says they exist.
  bool initial = initial_[p];
  bool alive = th.exists || initial;
  State state = off_cpu_[p]                           ? kPreempted
                : initial && (!th.exists || !th.region) ? kSerial
                : th.working                          ? kWorking
                                                      : kRuntime;
  Segment& s = segments_[p];
  uint32_t construct = s.construct;
  if (th.region != s.region || !s.open) {
    const Instance* in = th.region ? live_regions_.find(th.region) : nullptr;
    construct = th.region ? (in ? in->construct : s.construct) : 0;
    s.region = th.region;
  }
  if (state == kSerial) construct = 0;
  bool working = th.exists && th.working;
  if (s.open) {
    if (alive && s.state == state && s.working == working && s.construct == construct) return;
    close(p, t);
  }
  if (alive) open(p, t, state, working, construct);
}

void BreakdownPass::claim(uint32_t p, const format::Event& e, uint64_t ns) {
  Segment& s = segments_[p];
  // Serial or preempted time stays what it is; working time claimed ends here.
  s.claimed += ns;
  bool working = s.working;
  uint32_t construct = s.construct;
  close(p, e.time);
  open(p, e.time, kWorking, working, construct);
}

void BreakdownPass::pass_switches(uint64_t t, const replay::TaskModel& m) {
  switches_.pass(t, [&](const PreemptionSwitches::Switch& sw) {
    advance(sw.time);
    off_cpu_[sw.thread] = sw.off;
    update_thread(sw.thread, sw.time, m);
  });
}

void BreakdownPass::before(const replay::Record& r, const replay::TaskModel& m) {
  if (switches_.due(r.ev.time)) pass_switches(r.ev.time, m);
}

void BreakdownPass::after(const replay::Record& r, const replay::TaskModel& m) {
  const format::Event& e = r.ev;
  // Up to the event, the ready state set after the one before holds (what before() would do).
  advance(e.time);
  static_assert(uint8_t(format::Kind::kParallelEnd) == uint8_t(format::Kind::kParallelBegin) + 1 &&
                uint8_t(format::Kind::kImplicitTask) == uint8_t(format::Kind::kParallelBegin) + 2);
  if (uint8_t(uint8_t(e.kind) - uint8_t(format::Kind::kParallelBegin)) <= 2) track_region(e);
  ready_ = m.ready_count() > 0;
  if (e.kind == format::Kind::kThreadBegin && format::ev::ThreadBegin::of(e).thread_type == 1 &&
      !initial_[r.thread]) {
    // ompt_thread_initial: the program's thread, whose time counts from the process's start.
    initial_[r.thread] = 1;
    if (!segments_[r.thread].open) open(r.thread, 0, kSerial, false, 0);
  }
  if (claims_.active()) {
    // Inline up to the claim, which most events do not make (the call was 2 % of the report).
    const Segment& s = segments_[r.thread];
    const uint64_t ns = claims_.on_event(r.thread, e, s.open && s.working).total();
    if (__builtin_expect(ns != 0, 0) && s.open && s.state == kWorking) claim(r.thread, e, ns);
  }
  if (!replay::TaskModel::may_change_thread(e.kind) && segments_[r.thread].open) return;
  update_thread(r.thread, e.time, m);
}

void BreakdownPass::end(const replay::ReplayInfo& info, const replay::TaskModel& m) {
  pass_switches(info.end_ns, m);
  advance(info.end_ns);
  for (uint32_t p = 0; p < segments_.size(); ++p) {
    close(p, info.end_ns);
    flush(p);
    result_.total += result_.threads[p].time;
    const replay::ThreadInfo& th = m.thread(p);
    ThreadBreakdown& tb = result_.threads[p];
    tb.initial = initial_[p];
    tb.begin_ns = tb.initial ? 0 : th.begin_ns;
    tb.end_ns = th.exists || tb.initial ? info.end_ns : th.end_ns;
  }
  result_.run_ns = info.end_ns;
  // Drop slices past the end (the last one may be short) and threads that never appeared.
  std::vector<ThreadBreakdown> threads;
  for (const auto& t : result_.threads) {
    if (t.time.total_ns() || t.end_ns) threads.push_back(t);
  }
  result_.threads = std::move(threads);
  std::stable_sort(result_.regions.begin(), result_.regions.end(),
                   [](const RegionBreakdown& a, const RegionBreakdown& b) {
                     return a.time.total_ns() > b.time.total_ns();
                   });
  set_verdict(result_);
}

void set_verdict(Breakdown& b) {
  double total = double(b.total.active_ns());
  b.idle_share = total > 0 ? double(b.total.idle_ns) / total : 0;
  b.overhead_share = total > 0 ? double(b.total.overhead_ns) / total : 0;
  bool hi_idle = b.idle_share >= b.high_threshold;
  bool hi_over = b.overhead_share >= b.high_threshold;
  b.verdict = hi_idle ? (hi_over ? Verdict::kHH : Verdict::kHL)
                      : (hi_over ? Verdict::kLH : Verdict::kLL);
}

}  // namespace tasklens::analysis
