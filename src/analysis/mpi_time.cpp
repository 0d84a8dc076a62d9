#include "analysis/mpi_time.h"

#include <algorithm>

#include "format/event_views.h"
#include "format/mpi_ops.h"

namespace tasklens::analysis {

namespace {

// The part of [b, e) in the sorted, disjoint `intervals`.
uint64_t overlap(const std::vector<format::OffCpuInterval>& intervals, uint64_t b, uint64_t e) {
  auto it =
      std::lower_bound(intervals.begin(), intervals.end(), b,
                       [](const format::OffCpuInterval& i, uint64_t t) { return i.end_ns <= t; });
  uint64_t sum = 0;
  for (; it != intervals.end() && it->begin_ns < e; ++it) {
    sum += std::min(e, it->end_ns) - std::max(b, it->begin_ns);
  }
  return sum;
}

}  // namespace

void MpiTimePass::begin(const replay::ReplayInfo& info) {
  open_.assign(info.threads, Open{});
  preempted_.clear();
  if (info.experiment) preempted_ = format::off_cpu(*info.experiment).preempted;
  result_ = MpiTime{};
  result_.thread_mpi_ns.assign(info.threads, 0);
}

void MpiTimePass::close(uint32_t thread, uint64_t t, uint64_t bytes,
                        const format::ev::MpiCall* end) {
  Open& o = open_[thread];
  if (!o.open) return;
  o.open = false;
  uint64_t ns = t > o.begin_ns ? t - o.begin_ns : 0;
  uint64_t off = thread < preempted_.size() && ns ? overlap(preempted_[thread], o.begin_ns, t) : 0;
  if (format::is_mpi_setup(o.op)) {
    result_.setup_ns += ns;
    result_.setup_preempted_ns += off;
  } else {
    result_.mpi_ns += ns;
    result_.mpi_preempted_ns += off;
    result_.thread_mpi_ns[thread] += ns;
    ++result_.calls;
    result_.bytes += bytes;
    if (format::is_mpi_collective(o.op)) {
      result_.collectives.push_back({o.op, o.comm, o.begin_ns, std::max(t, o.begin_ns)});
    }
    using format::MpiOp;
    if (end && (o.op == uint16_t(MpiOp::kSend) || o.op == uint16_t(MpiOp::kSsend) ||
                o.op == uint16_t(MpiOp::kRecv))) {
      bool recv = o.op == uint16_t(MpiOp::kRecv);  // its end says the source and tag received
      result_.p2p.push_back({o.op, o.comm, recv ? end->peer : o.peer, recv ? end->tag : o.tag,
                             o.begin_ns, std::max(t, o.begin_ns)});
    }
  }
  MpiOpTime& op = result_.by_op[o.op];
  ++op.calls;
  op.ns += ns;
  op.bytes += bytes;
}

void MpiTimePass::after(const replay::Record& r, const replay::TaskModel&) {
  if (__builtin_expect(r.thread >= open_.size(), 0)) grow(r.thread);
  if (format::ev::MpiCall::is(r.ev.kind) || format::ev::MpiClock::is(r.ev.kind)) on_mpi(r);
}

void MpiTimePass::grow(uint32_t thread) {
  open_.resize(thread + 1);
  result_.thread_mpi_ns.resize(thread + 1, 0);
}

void MpiTimePass::on_mpi(const replay::Record& r) {
  namespace ev = format::ev;
  if (ev::MpiCall::is(r.ev.kind)) {
    auto call = ev::MpiCall::of(r.ev);
    if (call.endpoint == uint8_t(format::Endpoint::kBegin)) {
      close(r.thread, r.ev.time, 0, nullptr);  // a begin without its end: closed here, no bytes
      open_[r.thread] = {call.mpi_op, call.comm, r.ev.time, true, call.peer, call.tag};
    } else if (open_[r.thread].open && open_[r.thread].op == call.mpi_op) {
      close(r.thread, r.ev.time, call.bytes, &call);
    }
    if (call.mpi_op == uint16_t(format::MpiOp::kInit) &&
        call.endpoint == uint8_t(format::Endpoint::kEnd)) {
      result_.world_comm = call.comm;
    }
  } else if (ev::MpiClock::is(r.ev.kind)) {
    auto c = ev::MpiClock::of(r.ev);
    MpiClockOffset off{c.local_ns, int64_t(c.root_ns - c.local_ns)};
    (c.which == 0 ? result_.init_clock : result_.finalize_clock) = off;
  }
}

double mpi_clock_offset(const std::optional<MpiClockOffset>& init,
                        const std::optional<MpiClockOffset>& finalize, uint64_t local_ns) {
  if (!init && !finalize) return 0;
  if (!init || !finalize) return double((init ? *init : *finalize).offset_ns);
  const MpiClockOffset& a = *init;
  const MpiClockOffset& b = *finalize;
  if (b.local_ns <= a.local_ns) return double(a.offset_ns);
  double slope = (double(b.offset_ns) - double(a.offset_ns)) / double(b.local_ns - a.local_ns);
  return double(a.offset_ns) + slope * (double(local_ns) - double(a.local_ns));
}

void MpiTimePass::end(const replay::ReplayInfo& info, const replay::TaskModel&) {
  for (uint32_t t = 0; t < open_.size(); ++t) close(t, info.end_ns, 0, nullptr);
}

}  // namespace tasklens::analysis
