// OverheadsPass: ompP's timings per region and construct, and every thread's time split into work
// and the five overhead classes.
#include "analysis/overheads.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/overheads_state.h"

namespace tasklens::analysis {

using format::Event;
using format::Kind;
using replay::TaskInfo;
using replay::TaskModel;
using replay::TaskState;

namespace {

struct CostNames {
  const char* name;
  const char* key;
  const char* short_name;
};

const CostNames& names(Cost c) {
  static const CostNames k[kCostCount] = {
      {"work", "work", "Work"},
      {"synchronization", "synchronization", "Synch"},
      {"imbalance", "imbalance", "Imbal"},
      {"limited parallelism", "limited_parallelism", "Limpar"},
      {"thread management", "thread_management", "Mgmt"},
      {"task management", "task_management", "Tasks"},
      {"preempted", "preempted", "Preempt"},
  };
  return k[size_t(c)];
}

}  // namespace

const char* cost_name(Cost c) {
  return names(c).name;
}
const char* cost_key(Cost c) {
  return names(c).key;
}
const char* cost_short(Cost c) {
  return names(c).short_name;
}

uint64_t CostTimes::total_ns() const {
  uint64_t sum = 0;
  for (uint64_t v : ns) sum += v;
  return sum;
}

uint64_t CostTimes::overhead_ns() const {
  uint64_t sum = 0;
  for (Cost c : kOverheadClasses) sum += (*this)[c];
  return sum;
}

CostTimes& CostTimes::operator+=(const CostTimes& o) {
  for (size_t i = 0; i < kCostCount; ++i) ns[i] += o.ns[i];
  return *this;
}

ConstructTimes& ConstructTimes::operator+=(const ConstructTimes& o) {
  count += o.count;
  exec_ns += o.exec_ns;
  body_ns += o.body_ns;
  exit_bar_ns += o.exit_bar_ns;
  enter_ns += o.enter_ns;
  exit_ns += o.exit_ns;
  task_ns += o.task_ns;
  return *this;
}

ConstructTimes ConstructOverheads::total() const {
  ConstructTimes sum;
  for (const auto& t : threads) sum += t;
  return sum;
}

uint64_t Amdahl::predicted_ns(uint32_t threads) const {
  if (threads == 0) threads = 1;
  double t1 = double(t1_ns);
  return uint64_t(std::llround(t1 * alpha / threads + t1 * (1 - alpha)));
}

double Amdahl::speedup(uint32_t threads) const {
  uint64_t tp = predicted_ns(threads);
  return tp ? double(t1_ns) / double(tp) : 0;
}

Amdahl amdahl(const Overheads& o, uint32_t threads) {
  Amdahl a;
  if (threads <= 1) {
    a.measured = true;
    a.alpha = o.coverage;
    a.t1_ns = o.run_ns;
  } else {
    uint64_t serial = o.run_ns > o.parallel_ns ? o.run_ns - o.parallel_ns : 0;
    serial -= std::min(serial, o.serial_preempted_ns);  // the machine's, not the serial code's
    uint64_t work = o.program[Cost::kWork];
    a.t1_ns = serial + work;
    a.alpha = a.t1_ns ? double(work) / double(a.t1_ns) : 0;
  }
  a.max_speedup = a.alpha >= 1 ? std::numeric_limits<double>::infinity() : 1 / (1 - a.alpha);
  return a;
}

// ---- the end of a region instance ----------------------------------------------------

void OverheadsPass::State::finalize(Instance& in, uint64_t te) {
  uint64_t wall = te > in.begin_ns ? te - in.begin_ns : 0;
  if (in.team == 0) in.team = replay::bounded_team(in.requested, team_limit);
  for (uint32_t p : in.members) {
    ThreadState& ts = threads[p];
    auto has = [&] {
      for (size_t d = 0; d < ts.contexts.size(); ++d) {
        if (ts.contexts[d].inst == &in) return true;
      }
      return false;
    };
    if (!has()) continue;
    // A region nested in this one that never ended ends now.
    while (ts.contexts.back().inst != &in) {
      Instance* inner = ts.contexts.back().inst;
      uint64_t id = inner->id;
      finalize(*inner, te);
      erase_instance(id);
    }
    close(p, te);
    size_t depth = ts.contexts.size() - 1;
    Context& x = ts.contexts[depth];
    pop_to(ts, depth, 1, te);
    while (!x.held.empty()) release_held(ts, depth, x.held.size() - 1, te);
    ConstructTimes& ct = timing(x, 0);
    uint64_t enter = x.begin_ns > in.begin_ns ? x.begin_ns - in.begin_ns : 0;
    uint64_t parts = enter + x.end_barrier_ns + x.shutdown_ns;
    ++ct.count;
    ct.exec_ns += wall;
    ct.enter_ns += enter;
    ct.exit_bar_ns += x.end_barrier_ns;
    ct.exit_ns += x.shutdown_ns;
    ct.body_ns += wall - std::min(wall, parts);
    ct.task_ns += x.task_work;
    CostTimes implicit_cost = x.frames[0].cost;
    commit(ts, depth, 0, implicit_cost);
    ts.contexts.pop_back();
    ts.t0 = te;
    ts.at0 = integral();
  }
  RegionOverheads& r = regions[in.region];
  // Threads of the team that never started: all their time is startup.
  for (uint32_t i = 0; i < in.team; ++i) {
    if (i < in.started_index.size() && in.started_index[i]) continue;
    in.cost[Cost::kThreadManagement] += wall;
    if (r.threads.size() <= i) r.threads.resize(i + 1);
    r.threads[i][Cost::kThreadManagement] += wall;
    ConstructOverheads& par = r.constructs[0];
    par.cost[Cost::kThreadManagement] += wall;
    if (par.threads.size() <= i) par.threads.resize(i + 1);
    ++par.threads[i].count;
    par.threads[i].exec_ns += wall;
    par.threads[i].enter_ns += wall;
  }
  uint64_t total = uint64_t(in.team) * wall;
  ++r.instances;
  r.wall_ns += wall;
  r.total_ns += total;
  r.max_team = std::max(r.max_team, in.team);
  r.cost += in.cost;
  ++result->instances;
  result->max_team = std::max(result->max_team, in.team);
  if (in.level == 1) {
    result->parallel_ns += wall;
    result->program += in.cost;
    result->program_total_ns += total;
  }
  const uint64_t classed = in.cost.total_ns();
  if (total != classed) {
    // In unsigned arithmetic, saturated at +-(2^63 - 1): a damaged trace's times reach 2^63 ns,
    // where the signed difference or sum would overflow (and the report negates the total).
    constexpr uint64_t kMax = uint64_t(INT64_MAX);
    int64_t diff = total > classed ? int64_t(std::min(total - classed, kMax))
                                   : -int64_t(std::min(classed - total, kMax));
    if (__builtin_add_overflow(result->unaccounted_ns, diff, &result->unaccounted_ns)) {
      result->unaccounted_ns = diff > 0 ? INT64_MAX : -INT64_MAX;
    }
    ++result->unaccounted_instances;
  }
}

OverheadsPass::OverheadsPass() : s_(std::make_unique<State>()) {}
OverheadsPass::~OverheadsPass() = default;

void OverheadsPass::begin(const replay::ReplayInfo& info) {
  s_ = std::make_unique<State>();
  result_ = Overheads{};
  s_->result = &result_;
  s_->threads.resize(info.threads);
  result_.threads = info.threads;
  if (info.experiment) s_->creation = creation_cost(*info.experiment);
  s_->team_limit = info.team_limit();
  s_->claims.begin(info.threads, &s_->creation);
  s_->switches.load(info.experiment, info.threads);
  s_->preempted.load(info.experiment, info.threads);
}

void OverheadsPass::before(const replay::Record& r, const replay::TaskModel& m) {
  s_->model = &m;
  if (s_->switches.due(r.ev.time)) s_->pass_switches(r.ev.time);
  s_->advance(r.ev.time);
  if (r.thread >= s_->threads.size()) return;
  // The same claim as the breakdown's: the thread worked since its event before.
  CreationClaims::Claim claim;
  if (s_->claims.active()) claim = s_->claims.on_event(r.thread, r.ev, m.working(r.thread));
  s_->close(r.thread, r.ev.time, claim.total());
}

void OverheadsPass::after(const replay::Record& r, const replay::TaskModel& m) {
  State& s = *s_;
  s.model = &m;
  if (r.thread >= s.threads.size()) s.threads.resize(r.thread + 1);
  const Event& e = r.ev;
  for (const replay::Transition& tr : m.transitions()) {
    if (tr.to == TaskState::kReady &&
        (tr.from == TaskState::kInitialized || tr.from == TaskState::kRunning)) {
      s.runnable[tr.task] = 1;
    } else if (tr.from == TaskState::kReady) {
      s.runnable.erase(tr.task);
    }
    // Created (the model marks it Initialized -> Initialized) and not ready at once, or sent
    // back to wait for a dependence found late: blocked until it leaves that state.
    if (tr.to == TaskState::kInitialized) {
      const TaskInfo* t = m.task(tr.task);
      if (t && t->is_explicit() && t->state == TaskState::kInitialized) s.blocked[tr.task] = 1;
    } else if (tr.from == TaskState::kInitialized && s.blocked.size()) {
      s.blocked.erase(tr.task);
    }
    if (tr.to == TaskState::kCompleted) s.on_task_completed(tr.task);
  }
  if (e.kind == Kind::kTaskCreate) s.on_task_created(r.thread, e);
  if (e.kind == Kind::kTaskSchedule) s.on_task_body_end(r.thread, e);
  s.on_event(r.thread, e);
  auto& ts = s.threads[r.thread];
  ts.t0 = e.time;
  ts.at0 = s.integral();
}

void OverheadsPass::end(const replay::ReplayInfo& info, const replay::TaskModel& m) {
  State& s = *s_;
  s.model = &m;
  s.pass_switches(info.end_ns);
  s.advance(info.end_ns);
  // Regions still open when the trace ends (a cut-short run) end with it, innermost first.
  std::vector<std::pair<uint32_t, uint64_t>> open;
  for (const auto& [id, in] : s.instances) open.emplace_back(in->level, id);
  std::sort(open.rbegin(), open.rend());
  for (const auto& [level, id] : open) {
    if (auto* in = s.instance(id)) {
      s.finalize(*in, std::max(info.end_ns, in->begin_ns));
      s.erase_instance(id);
    }
  }
  result_.run_ns = info.end_ns;
  result_.threads = std::max<uint32_t>(result_.threads, uint32_t(s.threads.size()));
  result_.coverage =
      info.end_ns ? std::min(1.0, double(result_.parallel_ns) / double(info.end_ns)) : 0;
  result_.regions = std::move(s.regions);
  std::stable_sort(
      result_.regions.begin(), result_.regions.end(),
      [](const RegionOverheads& a, const RegionOverheads& b) { return a.wall_ns > b.wall_ns; });
  s_ = std::make_unique<State>();
}

}  // namespace tasklens::analysis
