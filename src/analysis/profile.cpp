// ProfilePass: builds the task-aware call trees (implicit-task trees with stub nodes, one merged
// tree per task construct) event by event.
#include "analysis/profile.h"

#include <algorithm>

#include "format/event_views.h"
#include "format/kinds.h"

namespace tasklens::analysis {

using format::is_barrier;
using format::Kind;
using format::TaskStatus;

namespace {

void add_visit(NodeMetrics& m, uint64_t incl, uint64_t excl, uint32_t fragments) {
  ++m.visits;
  m.fragments += fragments;
  m.inclusive.add(incl);
  m.exclusive.add(excl);
}

void merge(NodeMetrics& into, const NodeMetrics& m) {
  into.visits += m.visits;
  into.fragments += m.fragments;
  into.inclusive.merge(m.inclusive);
  into.exclusive.merge(m.exclusive);
}

}  // namespace

size_t ProfilePass::ChildKeyHash::operator()(const ChildKey& k) const {
  uint64_t h = k.parent;
  h = h * 0x9E3779B97F4A7C15ull + uint64_t(k.kind);
  h = h * 0x9E3779B97F4A7C15ull + k.sub;
  h = h * 0x9E3779B97F4A7C15ull + k.code;
  h = h * 0x9E3779B97F4A7C15ull + uint64_t(k.value);
  return size_t(h ^ (h >> 29));
}

void ProfilePass::begin(const replay::ReplayInfo& info) {
  experiment_ = info.experiment;
  counter_count_ =
      experiment_
          ? uint32_t(std::min<size_t>(experiment_->metadata.counters.size(), format::kMaxCounters))
          : 0;
  bad_counter_samples_ = 0;
  result_ = Profile{};
  result_.threads = info.threads;
  result_.max_active_per_thread.assign(info.threads, 0);
  result_.thread_time_ns.assign(info.threads, 0);
  threads_.assign(info.threads, ThreadState{});
  children_.clear();
  construct_by_code_.clear();
  last_construct_[0] = last_construct_[1] = {0, kNoNode};
  runs_ = replay::StableIdMap<Run>();
  param_splits_.clear();
  visits_.clear();
  node_counters_.clear();
  for (uint32_t i = 0; i < counter_count_; ++i) {
    result_.counter_names.push_back(experiment_->metadata.counters[i]);
  }
  regions_ = replay::IdMap<RegionInfo>();
}

uint32_t ProfilePass::node(uint32_t parent, NodeKind kind, uint16_t sub, uint64_t code,
                           int64_t value) {
  // Most nodes have a handful of children: scan them; the map serves roots and wide nodes.
  if (parent != kNoNode && result_.nodes[parent].children.size() <= 16) {
    for (uint32_t c : result_.nodes[parent].children) {
      const ProfileNode& n = result_.nodes[c];
      if (n.kind == kind && n.code == code && n.sub == sub && n.value == value) return c;
    }
  } else {
    auto it = children_.find(ChildKey{parent, kind, sub, code, value});
    if (it != children_.end()) return it->second;
  }
  if (parent != kNoNode) {
    // Past kMaxProfileDepth levels the parent stands for the deeper contexts (profile.h). Only a
    // new node walks up, and at most that far.
    uint32_t levels = 1;  // the new node's, counting from its root's 1
    for (uint32_t a = parent; a != kNoNode && levels <= kMaxProfileDepth;
         a = result_.nodes[a].parent) {
      ++levels;
    }
    if (levels > kMaxProfileDepth) return parent;
  }
  auto index = uint32_t(result_.nodes.size());
  ProfileNode n;
  n.kind = kind;
  n.sub = sub;
  n.parent = parent;
  n.code = code;
  n.value = value;
  if ((kind == NodeKind::kUser || kind == NodeKind::kParam) && experiment_) {
    n.name = experiment_->string(code);
  }
  n.threads.resize(result_.threads);
  result_.nodes.push_back(std::move(n));
  visits_.resize(visits_.size() + result_.threads + 1);
  node_counters_.resize(node_counters_.size() + counter_count_);
  if (parent != kNoNode) {
    result_.nodes[parent].children.push_back(index);
  } else if (kind != NodeKind::kTask) {
    result_.roots.push_back(index);
  }
  children_.emplace(ChildKey{parent, kind, sub, code, value}, index);
  return index;
}

uint32_t ProfilePass::construct_index(uint64_t codeptr) {
  // The last two constructs asked (fib's two task constructs alternate), newest first.
  for (int i = 0; i < 2; ++i) {
    if (last_construct_[i].first == codeptr && last_construct_[i].second != kNoNode) {
      return last_construct_[i].second;
    }
  }
  last_construct_[1] = last_construct_[0];
  auto it = construct_by_code_.find(codeptr);
  if (it != construct_by_code_.end()) {
    last_construct_[0] = {codeptr, it->second};
    return it->second;
  }
  auto index = uint32_t(result_.tasks.size());
  TaskConstruct c;
  c.codeptr = codeptr;
  c.root = node(kNoNode, NodeKind::kTask, 0, codeptr);
  for (uint32_t i = 0; i < counter_count_; ++i) {
    c.counters.emplace_back(experiment_->metadata.counters[i], Stat{});
  }
  result_.tasks.push_back(std::move(c));
  result_.task_roots.push_back(result_.tasks.back().root);
  construct_by_code_.emplace(codeptr, index);
  last_construct_[0] = {codeptr, index};
  return index;
}

// Inlined (as set_active): called for most events, and clang kept both out of line.
__attribute__((always_inline)) ProfilePass::Run* ProfilePass::current_run(uint32_t thread) {
  ThreadState& ts = thread_state(thread);
  if (Run* r = find_run(ts.current, ts.current_hint)) return r;
  return ts.implicit.empty() ? nullptr : find_run(ts.implicit.back().first, ts.implicit_hint);
}

ProfilePass::Run& ProfilePass::new_run(uint64_t id) {
  Run& r = runs_[id];
  // A new entry is clear already (runs_ clears the runs it erases); one of that id is not.
  if (r.id != 0 || id == 0) r.clear();
  r.id = id;
  return r;
}

ParamSplit& ProfilePass::param_split(uint32_t construct, uint64_t name) {
  if (param_splits_.size() <= construct) param_splits_.resize(construct + 1);
  std::vector<ParamSplit>& splits = result_.tasks[construct].params;
  for (const auto& [id, index] : param_splits_[construct]) {
    if (id == name) return splits[index];
  }
  // Splits are by label: two name ids with one label ("?" for unknown ids) share one.
  std::string label = experiment_ ? experiment_->string(name) : std::to_string(name);
  auto split = std::find_if(splits.begin(), splits.end(),
                            [&](const ParamSplit& s) { return s.name == label; });
  if (split == splits.end()) {
    splits.push_back(ParamSplit{label, {}, 0});
    split = splits.end() - 1;
  }
  auto index = uint32_t(split - splits.begin());
  param_splits_[construct].emplace_back(name, index);
  return splits[index];
}

NodeMetrics& ProfilePass::visits(uint32_t node, uint32_t thread) {
  size_t stride = size_t(result_.threads) + 1;
  return visits_[node * stride + std::min(thread, result_.threads)];
}

void ProfilePass::collect_visits() {
  for (uint32_t i = 0; i < result_.nodes.size(); ++i) {
    ProfileNode& n = result_.nodes[i];
    for (uint32_t t = 0; t <= result_.threads; ++t) {
      const NodeMetrics& m = visits(i, t);
      merge(n.total, m);
      if (t < result_.threads) n.threads[t] = m;
    }
    if (counter_count_) {
      auto first = node_counters_.begin() + long(size_t(i) * counter_count_);
      n.counters.assign(first, first + counter_count_);
    }
  }
  visits_ = std::vector<NodeMetrics>();
  node_counters_ = std::vector<Stat>();
}

void ProfilePass::push(Run& r, uint32_t node_index, FrameType type, uint64_t now, uint64_t match) {
  r.frames.emplace_back(node_index, type, clock(r, now), r.fragments, match);
  if (counter_count_) {
    r.frame_counters.insert(r.frame_counters.end(), r.counter_sum.begin(),
                            r.counter_sum.begin() + counter_count_);
  }
}

void ProfilePass::close_top(Run& r, uint64_t now, uint32_t thread) {
  Frame f = r.frames.back();
  r.frames.pop_back();
  uint64_t c = clock(r, now);
  uint64_t incl = c > f.enter ? c - f.enter : 0;
  uint64_t excl = incl > f.child ? incl - f.child : 0;
  uint32_t fragments = r.implicit ? 1 : r.fragments - f.frag0 + 1;
  add_visit(visits(f.node, thread), incl, excl, fragments);
  if (counter_count_ && r.frame_counters.size() >= counter_count_) {
    // The counters' advance over the frame (profile.h): at the task's switches only.
    size_t at = r.frame_counters.size() - counter_count_;
    for (uint32_t i = 0; i < counter_count_; ++i) {
      uint64_t enter = r.frame_counters[at + i];
      node_counters_[size_t(f.node) * counter_count_ + i].add(
          r.counter_sum[i] >= enter ? r.counter_sum[i] - enter : 0);
    }
    r.frame_counters.resize(at);
  }
  if (!r.frames.empty()) r.frames.back().child += incl;
}

void ProfilePass::after(const replay::Record& rec, const replay::TaskModel& m) {
  const format::Event& e = rec.ev;
  uint32_t p = rec.thread;
  if (thread_state(p).pending_creator) resolve_pending(e, p);
  switch (e.kind) {
    case Kind::kImplicitTask:
      on_implicit_task(e, p);
      break;
    case Kind::kParallelBegin: {
      Run* enc = current_run(p);
      const auto pb = format::ev::ParallelBegin::of(e);
      RegionInfo info{enc ? top_node(*enc) : kNoNode, pb.codeptr, enc ? enc->id : 0, p};
      regions_[pb.region] = info;
      break;
    }
    case Kind::kParallelEnd: {
      regions_.erase(format::ev::ParallelEnd::of(e).region);
      break;
    }
    case Kind::kTaskCreate: {
      const auto tc = format::ev::TaskCreate::of(e);
      // `taskwait depend`: the task that stands for it is its creator's taskwait, named by its
      // call's address, as a taskwait is (its flags are the event's: no lookup per creation).
      if (format::is_taskwait_depend(tc.flags)) {
        on_region(format::Endpoint::kBegin, e.time, p, NodeKind::kTaskwait, 0, tc.codeptr);
      } else {
        on_create(e, p, m.task_code(tc.task));
      }
      break;
    }
    case Kind::kTaskSchedule: {
      const auto s = format::ev::TaskSchedule::of(e);
      // The status first: the task's lookup only for the rare taskwait_complete.
      const replay::TaskInfo* t =
          s.status == uint8_t(format::TaskStatus::kTaskwaitComplete) ? m.task(s.prior) : nullptr;
      if (t && t->is_taskwait_depend()) {
        on_region(format::Endpoint::kEnd, e.time, p, NodeKind::kTaskwait, 0, t->codeptr);
      } else {
        on_schedule(e, p);
      }
      break;
    }
    case Kind::kSyncRegion: {
      const auto s = format::ev::SyncRegion::of(e);
      if (is_barrier(s.sync_kind)) {
        on_region(e, p, NodeKind::kBarrier, s.sync_kind, m.sync_code(e, p));
      } else if (s.sync_kind == uint16_t(format::SyncKind::kTaskwait)) {
        on_region(e, p, NodeKind::kTaskwait, 0, s.codeptr);
      } else if (s.sync_kind == uint16_t(format::SyncKind::kTaskgroup)) {
        on_region(e, p, NodeKind::kTaskgroup, 0, s.codeptr);
      } else if (s.sync_kind == uint16_t(format::SyncKind::kReduction)) {
        on_region(e, p, NodeKind::kReduction, s.sync_kind, s.codeptr);
      }
      break;
    }
    case Kind::kReduction: {
      const auto s = format::ev::Reduction::of(e);
      on_region(e, p, NodeKind::kReduction, s.sync_kind, s.codeptr);
      break;
    }
    case Kind::kWork: {
      const auto w = format::ev::Work::of(e);
      on_region(e, p, NodeKind::kWork, w.work_type, w.codeptr);
      break;
    }
    case Kind::kMasked:
      on_region(e, p, NodeKind::kMasked, 0, format::ev::Masked::of(e).codeptr);
      break;
    case Kind::kUserRegion:
      on_region(e, p, NodeKind::kUser, 0, format::ev::UserRegion::of(e).name);
      break;
    case Kind::kUserParam:
      on_param(e, p);
      break;
    case Kind::kMutexAcquire:
    case Kind::kMutexAcquired:
    case Kind::kNestLock:
      on_mutex(e, p);
      break;
    default:
      break;
  }
}

void ProfilePass::on_region(const format::Event& e, uint32_t thread, NodeKind kind, uint16_t sub,
                            uint64_t code) {
  on_region(format::Endpoint(format::ev::EndpointAny::of(e).endpoint), e.time, thread, kind, sub,
            code);
}

void ProfilePass::on_region(format::Endpoint ep, uint64_t time, uint32_t thread, NodeKind kind,
                            uint16_t sub, uint64_t code) {
  Run* r = current_run(thread);
  if (!r) return;
  uint64_t match = (uint64_t(kind) << 56) | (uint64_t(sub) << 40);
  if (kind == NodeKind::kUser) match |= code;
  if (ep == format::Endpoint::kBegin || ep == format::Endpoint::kBeginEnd) {
    // The end-of-region barrier: the same node whether a thread reports the parallel
    // construct's address or none.
    if (kind == NodeKind::kBarrier && format::is_implicit_barrier(sub) && r->implicit &&
        code == r->parallel_code) {
      code = 0;
    }
    push(*r, node(top_node(*r), kind, sub, code), FrameType::kRegion, time, match);
    if (ep == format::Endpoint::kBegin) return;
  }
  bool found = close_to(*r, time, thread, [match](const Frame& f) {
    return f.type == FrameType::kRegion && f.match == match;
  });
  if (!found) ++result_.unmatched_ends;
}

void ProfilePass::on_mutex(const format::Event& e, uint32_t thread) {
  Run* r = current_run(thread);
  if (!r) return;
  if (e.kind == Kind::kMutexAcquire) {
    const auto a = format::ev::MutexAcquire::of(e);
    // A test lock may fail, with no `acquired` to end the wait: not followed.
    using format::MutexKind;
    if (a.mutex_kind == uint16_t(MutexKind::kTestLock) ||
        a.mutex_kind == uint16_t(MutexKind::kTestNestLock)) {
      return;
    }
    push(*r, node(top_node(*r), NodeKind::kMutexWait, a.mutex_kind, a.codeptr), FrameType::kMutex,
         e.time, a.wait_id);
    return;
  }
  // acquired, or a nest lock acquired again by its owner (reported as nest_lock begin)
  uint64_t wait_id = format::ev::MutexAcquired::of(e).wait_id;
  if (e.kind == Kind::kNestLock) {
    const auto n = format::ev::NestLock::of(e);
    if (n.endpoint != uint8_t(format::Endpoint::kBegin)) return;
    wait_id = n.wait_id;
  }
  if (!r->frames.empty() && r->frames.back().type == FrameType::kMutex &&
      r->frames.back().match == wait_id) {
    close_top(*r, e.time, thread);
  }
}

void ProfilePass::on_param(const format::Event& e, uint32_t thread) {
  const auto up = format::ev::UserParam::of(e);
  Run* r = current_run(thread);
  if (!r) return;
  // A new value of the parameter just set replaces it.
  if (!r->frames.empty() && r->frames.back().type == FrameType::kParam &&
      result_.nodes[r->frames.back().node].code == up.name) {
    close_top(*r, e.time, thread);
  }
  auto value = int64_t(up.value);
  push(*r, node(top_node(*r), NodeKind::kParam, 0, up.name, value), FrameType::kParam, e.time);
  for (auto& p : r->params) {
    if (p.name == up.name) {
      p.again = true;  // the first value describes the instance
      return;
    }
  }
  r->params.push_back({up.name, value, false});
}

ParamSplit& split_named(std::vector<ParamSplit>& splits, const std::string& name) {
  auto split = std::find_if(splits.begin(), splits.end(),
                            [&](const ParamSplit& s) { return s.name == name; });
  if (split == splits.end()) split = splits.insert(splits.end(), ParamSplit{name, {}, 0});
  return *split;
}

void sort_splits(std::vector<ParamSplit>& splits) {
  std::sort(splits.begin(), splits.end(),
            [](const ParamSplit& a, const ParamSplit& b) { return a.name < b.name; });
}

void sort_profile(Profile& p) {
  auto hotter = [&p](uint32_t a, uint32_t b) {
    return p.nodes[a].total.inclusive.sum > p.nodes[b].total.inclusive.sum;
  };
  for (ProfileNode& n : p.nodes) std::stable_sort(n.children.begin(), n.children.end(), hotter);
  std::stable_sort(p.roots.begin(), p.roots.end(), hotter);
  std::stable_sort(
      p.tasks.begin(), p.tasks.end(),
      [](const TaskConstruct& a, const TaskConstruct& b) { return a.time.sum > b.time.sum; });
  p.task_roots.clear();
  for (const TaskConstruct& c : p.tasks) {
    if (c.root != kNoNode) p.task_roots.push_back(c.root);
  }
}

void ProfilePass::end(const replay::ReplayInfo& info, const replay::TaskModel&) {
  uint64_t now = info.end_ns;
  for (uint32_t t = 0; t < threads_.size(); ++t) {
    ThreadState& ts = threads_[t];
    if (!ts.pending_creator) continue;
    format::Event none{};
    none.time = std::max(now, ts.pending_since);
    resolve_pending(none, t);
  }
  // Instances still running or suspended: their time so far, counted as unfinished.
  std::vector<uint64_t> open;
  runs_.for_each([&](uint64_t id, Run& r) {
    if (!r.implicit && r.started) open.push_back(id);
  });
  std::sort(open.begin(), open.end());
  for (uint64_t id : open) {
    Run& r = *runs_.find(id);
    task_end(r, r.thread, now, false);
  }
  for (uint32_t t = 0; t < threads_.size(); ++t) {
    while (!threads_[t].implicit.empty()) end_implicit(threads_[t].implicit.back().first, t, now);
  }
  runs_ = replay::StableIdMap<Run>();
  collect_visits();
  result_.bad_counter_samples = bad_counter_samples_;

  sort_profile(result_);
}

}  // namespace tasklens::analysis
