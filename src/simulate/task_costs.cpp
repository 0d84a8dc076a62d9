// TaskCostPass: creation and scheduling costs from the events around each task (task_costs.h).
#include "simulate/task_costs.h"

#include <algorithm>

#include "format/event_views.h"
#include "format/kinds.h"

namespace tasklens::simulate {

using format::Kind;

uint64_t median_of(std::vector<uint64_t>& v) {
  if (v.empty()) return 0;
  auto mid = v.begin() + std::ptrdiff_t((v.size() - 1) / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

uint64_t trimmed_mean_of(std::vector<uint64_t>& v) {
  if (v.empty()) return 0;
  const size_t cut = v.size() / 20;
  std::sort(v.begin(), v.end());
  unsigned __int128 sum = 0;
  for (size_t i = cut; i < v.size() - cut; ++i) sum += v[i];
  return uint64_t((sum + (v.size() - 2 * cut) / 2) / (v.size() - 2 * cut));
}

const ConstructCosts* TaskCosts::find(uint64_t codeptr) const {
  for (const ConstructCosts& c : constructs) {
    if (c.codeptr == codeptr) return &c;
  }
  return nullptr;
}

void TaskCostPass::begin(const replay::ReplayInfo& info) {
  threads_.assign(info.threads, Thread{});
  samples_.clear();
  taskwaits_.clear();
  result_ = TaskCosts{};
  ready_rise_ = ready_ = 0;
  preempted_.load(info.experiment, info.threads);
}

TaskCostPass::Samples& TaskCostPass::of(uint64_t codeptr) {
  uint32_t& i = index_[codeptr ? codeptr : 1];
  if (!i) {
    samples_.emplace_back().codeptr = codeptr;
    i = uint32_t(samples_.size());
  }
  return samples_[i - 1];
}

uint64_t TaskCostPass::sample(uint32_t thread, uint64_t a, uint64_t b) {
  if (b <= a) return 0;
  return b - a - std::min(b - a, preempted_.within(thread, a, b));
}

void TaskCostPass::after(const replay::Record& r, const replay::TaskModel& m) {
  const format::Event& e = r.ev;
  const uint32_t p = r.thread;
  if (p >= threads_.size()) return;
  Thread& th = threads_[p];
  // The explicit task this event switched in for its first fragment, on this thread.
  uint64_t first_in = 0;
  if (e.kind == Kind::kTaskSchedule) {
    const auto s = format::ev::TaskSchedule::of(e);
    const replay::TaskInfo* n = m.task(s.next);
    if (n && n->is_explicit() && n->fragments == 1 && n->thread == p) first_in = s.next;
  }
  const bool dependence_record = e.kind == Kind::kDependence || e.kind == Kind::kTaskDependence;
  if (th.created && !dependence_record) {
    Samples& s = of(th.created_code);
    s.creation.push_back(sample(p, th.created_ns, e.time));
    if (first_in == th.created && th.created_undeferred) {
      // Run at once at its creation. In a team of one (which more threads would defer) the
      // time from the create call to its switch-in is the runtime's (dependences, dispatch):
      // its scheduling. In a larger team the program asked for it (if(0)): no deque start.
      ++result_.ran_immediately;
      if (th.team <= 1) {
        s.schedule.push_back(sample(p, th.created_ns, e.time));
        ++result_.ran_immediately_team_of_one;
      }
      first_in = 0;
    }
    th.created = 0;
  }
  // The task whose taskwait this event is a record of (sync_region or its wait), 0 if none.
  uint64_t taskwait_of = 0;
  uint8_t endpoint = 0;
  if (e.kind == Kind::kSyncRegion || e.kind == Kind::kSyncRegionWait) {
    const auto sr = format::ev::SyncAny::of(e);
    if (sr.sync_kind == uint16_t(format::SyncKind::kTaskwait)) {
      taskwait_of = format::ev::task_or(sr.task, m.thread(p).current);
      endpoint = sr.endpoint;
    }
  }
  const bool region_record = e.kind == Kind::kSyncRegion;
  if (th.taskwait_task) {
    // Its end, with nothing on this thread between but the taskwait's own wait records.
    const bool own = taskwait_of == th.taskwait_task;
    if (own && region_record && endpoint == uint8_t(format::Endpoint::kEnd)) {
      taskwaits_.push_back(sample(p, th.taskwait_ns, e.time));
    }
    if (!own || region_record) th.taskwait_task = 0;
  }
  if (first_in && !th.working) {
    // From the end of its last body, or from when a task became ready if none was then.
    uint64_t from = std::max(th.body_end, ready_rise_);
    if (from <= e.time) of(m.task_code(first_in)).schedule.push_back(sample(p, from, e.time));
  }
  if (e.kind == Kind::kTaskCreate) {
    const auto tc = format::ev::TaskCreate::of(e);
    th.created = tc.task;
    th.created_ns = e.time;
    th.created_code = m.task_code(tc.task);
    th.created_undeferred = tc.flags & format::task_flag::kUndeferred;
  } else if (taskwait_of && region_record && endpoint == uint8_t(format::Endpoint::kBegin)) {
    const replay::TaskInfo* t = m.task(taskwait_of);
    if (t && t->live_children == 0) {
      th.taskwait_task = taskwait_of;
      th.taskwait_ns = e.time;
    }
  } else if (e.kind == Kind::kImplicitTask) {
    const auto it = format::ev::ImplicitTask::of(e);
    if (it.endpoint == uint8_t(format::Endpoint::kBegin)) {
      th.team = (it.flags & format::task_flag::kInitial) ? 1 : it.team_size;
    }
  }
  const uint64_t ready = m.ready_count();
  if (ready_ == 0 && ready > 0) ready_rise_ = e.time;
  ready_ = ready;
  const bool working = m.thread(p).exists && m.working(p);
  if (th.working && !working) th.body_end = e.time;
  th.working = working;
}

void TaskCostPass::end(const replay::ReplayInfo&, const replay::TaskModel&) {
  std::vector<uint64_t> all;
  for (Samples& s : samples_) {
    ConstructCosts& c = result_.constructs.emplace_back();
    c.codeptr = s.codeptr;
    c.schedule.samples = s.schedule.size();
    c.creation.samples = s.creation.size();
    all.insert(all.end(), s.schedule.begin(), s.schedule.end());
    c.schedule.ns = trimmed_mean_of(s.schedule);
    c.creation.ns = trimmed_mean_of(s.creation);
  }
  result_.schedule.samples = all.size();
  result_.schedule.ns = trimmed_mean_of(all);
  result_.taskwait.samples = taskwaits_.size();
  result_.taskwait.ns = trimmed_mean_of(taskwaits_);
  std::vector<Samples>().swap(samples_);
  std::vector<uint64_t>().swap(taskwaits_);
}

}  // namespace tasklens::simulate
