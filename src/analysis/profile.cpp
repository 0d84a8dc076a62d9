// ProfilePass: builds the task-aware call trees (implicit-task trees with stub nodes, one merged
// tree per task construct) event by event.
#include "analysis/profile.h"

#include <algorithm>

#include "format/kinds.h"

namespace tasklens::analysis {

using format::Kind;
using format::TaskStatus;
using format::is_barrier;

const char* node_kind_name(NodeKind k) {
  switch (k) {
    case NodeKind::kProgram: return "program";
    case NodeKind::kParallel: return "parallel";
    case NodeKind::kTask: return "task";
    case NodeKind::kStub: return "stub";
    case NodeKind::kCreate: return "create_task";
    case NodeKind::kBarrier: return "barrier";
    case NodeKind::kTaskwait: return "taskwait";
    case NodeKind::kTaskgroup: return "taskgroup";
    case NodeKind::kReduction: return "reduction";
    case NodeKind::kWork: return "work";
    case NodeKind::kMasked: return "masked";
    case NodeKind::kMutexWait: return "mutex_wait";
    case NodeKind::kTaskyield: return "taskyield";
    case NodeKind::kUser: return "user_region";
    case NodeKind::kParam: return "parameter";
  }
  return "?";
}

namespace {

bool is_implicit_barrier(uint16_t kind) {
  using format::SyncKind;
  return kind == uint16_t(SyncKind::kBarrierImplicit) ||
         kind == uint16_t(SyncKind::kBarrierImplicitWorkshare) ||
         kind == uint16_t(SyncKind::kBarrierImplicitParallel);
}

void add_visit(NodeMetrics& m, uint64_t incl, uint64_t excl, uint32_t fragments) {
  ++m.visits;
  m.fragments += fragments;
  m.inclusive.add(incl);
  m.exclusive.add(excl);
}

// `into` becomes the statistic of both series of samples.
void merge(Stat& into, const Stat& s) {
  if (s.count == 0) return;
  into.min = into.count == 0 || s.min < into.min ? s.min : into.min;
  into.max = std::max(into.max, s.max);
  into.sum += s.sum;
  into.count += s.count;
}

void merge(NodeMetrics& into, const NodeMetrics& m) {
  into.visits += m.visits;
  into.fragments += m.fragments;
  merge(into.inclusive, m.inclusive);
  merge(into.exclusive, m.exclusive);
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
  result_ = Profile{};
  result_.threads = info.threads;
  result_.max_active_per_thread.assign(info.threads, 0);
  result_.thread_time_ns.assign(info.threads, 0);
  threads_.assign(info.threads, ThreadState{});
  children_.clear();
  construct_by_code_.clear();
  runs_ = replay::StableIdMap<Run>();
  param_splits_.clear();
  visits_.clear();
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
  if (parent != kNoNode) {
    result_.nodes[parent].children.push_back(index);
  } else if (kind != NodeKind::kTask) {
    result_.roots.push_back(index);
  }
  children_.emplace(ChildKey{parent, kind, sub, code, value}, index);
  return index;
}

uint32_t ProfilePass::construct_index(uint64_t codeptr) {
  auto it = construct_by_code_.find(codeptr);
  if (it != construct_by_code_.end()) return it->second;
  auto index = uint32_t(result_.tasks.size());
  TaskConstruct c;
  c.codeptr = codeptr;
  c.root = node(kNoNode, NodeKind::kTask, 0, codeptr);
  result_.tasks.push_back(std::move(c));
  result_.task_roots.push_back(result_.tasks.back().root);
  construct_by_code_.emplace(codeptr, index);
  return index;
}

ProfilePass::ThreadState& ProfilePass::thread_state(uint32_t thread) {
  if (thread >= threads_.size()) threads_.resize(thread + 1);
  return threads_[thread];
}

// Inlined (as set_active): called for most events, and clang kept both out of line.
__attribute__((always_inline)) ProfilePass::Run* ProfilePass::current_run(uint32_t thread) {
  ThreadState& ts = thread_state(thread);
  if (Run* r = find_run(ts.current, ts.current_hint)) return r;
  return ts.implicit.empty() ? nullptr : find_run(ts.implicit.back().first, ts.implicit_hint);
}

ProfilePass::Run& ProfilePass::new_run(uint64_t id) {
  Run& r = runs_[id];
  r.clear();
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
    splits.push_back(ParamSplit{label, {}});
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
  }
  visits_ = std::vector<NodeMetrics>();
}

void ProfilePass::push(Run& r, uint32_t node_index, FrameType type, uint64_t now, uint64_t match) {
  r.frames.push_back(Frame{node_index, type, clock(r, now), 0, r.fragments, match});
}

void ProfilePass::close_top(Run& r, uint64_t now, uint32_t thread) {
  Frame f = r.frames.back();
  r.frames.pop_back();
  uint64_t c = clock(r, now);
  uint64_t incl = c > f.enter ? c - f.enter : 0;
  uint64_t excl = incl > f.child ? incl - f.child : 0;
  uint32_t fragments = r.implicit ? 1 : r.fragments - f.frag0 + 1;
  add_visit(visits(f.node, thread), incl, excl, fragments);
  if (!r.frames.empty()) r.frames.back().child += incl;
}

template <class Pred>
bool ProfilePass::close_to(Run& r, uint64_t now, uint32_t thread, Pred pred) {
  size_t i = r.frames.size();
  while (i > 0 && !pred(r.frames[i - 1])) --i;
  if (i == 0) return false;
  while (r.frames.size() >= i) close_top(r, now, thread);
  return true;
}

__attribute__((always_inline)) void ProfilePass::set_active(uint32_t thread, uint32_t construct,
                                                           int delta) {
  ThreadState& ts = thread_state(thread);
  if (ts.active_by_construct.size() <= construct) ts.active_by_construct.resize(construct + 1, 0);
  uint32_t& mine = ts.active_by_construct[construct];
  if (delta > 0) {
    ++ts.active;
    ++mine;
    if (thread < result_.max_active_per_thread.size()) {
      result_.max_active_per_thread[thread] =
          std::max(result_.max_active_per_thread[thread], ts.active);
    }
    TaskConstruct& c = result_.tasks[construct];
    c.max_active_per_thread = std::max(c.max_active_per_thread, mine);
  } else {
    if (ts.active) --ts.active;
    if (mine) --mine;
  }
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
      RegionInfo info{enc ? top_node(*enc) : kNoNode, e.c, enc ? enc->id : 0, p};
      regions_[e.a] = info;
      break;
    }
    case Kind::kParallelEnd:
      regions_.erase(e.a);
      break;
    case Kind::kTaskCreate:
      on_create(e, p, m.task_code(e.a));
      break;
    case Kind::kTaskSchedule:
      on_schedule(e, p);
      break;
    case Kind::kSyncRegion:
      if (is_barrier(e.sub)) {
        on_region(e, p, NodeKind::kBarrier, e.sub, m.sync_code(e, p));
      } else if (e.sub == uint16_t(format::SyncKind::kTaskwait)) {
        on_region(e, p, NodeKind::kTaskwait, 0, e.c);
      } else if (e.sub == uint16_t(format::SyncKind::kTaskgroup)) {
        on_region(e, p, NodeKind::kTaskgroup, 0, e.c);
      } else if (e.sub == uint16_t(format::SyncKind::kReduction)) {
        on_region(e, p, NodeKind::kReduction, e.sub, e.c);
      }
      break;
    case Kind::kReduction:
      on_region(e, p, NodeKind::kReduction, e.sub, e.c);
      break;
    case Kind::kWork:
      on_region(e, p, NodeKind::kWork, e.sub, e.c);
      break;
    case Kind::kMasked:
      on_region(e, p, NodeKind::kMasked, 0, e.c);
      break;
    case Kind::kUserRegion:
      on_region(e, p, NodeKind::kUser, 0, e.a);
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

// A creation lasts until the creator thread's next event, dependences aside (see profile.h).
void ProfilePass::resolve_pending(const format::Event& e, uint32_t thread) {
  ThreadState& ts = thread_state(thread);
  // The new task's dependences are reported inside its creation.
  if ((e.kind == Kind::kDependence && e.a == ts.pending_task) ||
      (e.kind == Kind::kTaskDependence && e.b == ts.pending_task)) {
    return;
  }
  uint64_t creator = ts.pending_creator;
  ts.pending_creator = 0;
  result_.tasks[ts.pending_construct].creation.add(e.time - ts.pending_since);
  Run* r = find_run(creator, ts.current_hint);
  if (!r || r->frames.empty() || r->frames.back().type != FrameType::kCreate) return;
  auto status = TaskStatus(e.op);
  bool switched_out = e.kind == Kind::kTaskSchedule && e.a == creator && e.b != creator &&
                      (status == TaskStatus::kSwitch || status == TaskStatus::kYield);
  if (switched_out) {
    r->frames.back().type = FrameType::kSched;  // the task runs in the creation
  } else {
    close_top(*r, e.time, thread);
  }
}

void ProfilePass::on_implicit_task(const format::Event& e, uint32_t thread) {
  ThreadState& ts = thread_state(thread);
  if (e.op != uint8_t(format::Endpoint::kBegin)) {
    end_implicit(e.a ? e.a : ts.current, thread, e.time);
    return;
  }
  uint32_t root;
  uint64_t parallel_code = 0, encountering = 0;
  if (e.flags & format::task_flag::kInitial) {
    root = node(kNoNode, NodeKind::kProgram, 0, 0);
  } else {
    uint32_t parent = kNoNode;
    if (const RegionInfo* ri = regions_.find(e.b)) {
      parent = ri->parent_node;
      parallel_code = ri->codeptr;
      if (ri->thread == thread) encountering = ri->encountering;
    }
    root = node(parent, NodeKind::kParallel, 0, parallel_code);
  }
  Run& r = new_run(e.a);
  r.implicit = r.started = r.running = true;
  r.thread = thread;
  r.since = e.time;
  r.created_ns = e.time;
  r.parallel_code = parallel_code;
  r.encountering = encountering;
  push(r, root, FrameType::kRoot, e.time);
  ts.implicit.emplace_back(e.a, ts.current);
  ts.current = e.a;
}

void ProfilePass::end_implicit(uint64_t id, uint32_t thread, uint64_t now) {
  ThreadState& ts = thread_state(thread);
  Run* r = runs_.find(id);
  uint64_t incl = 0;
  // No run: the id began twice (a damaged or duplicated chunk) and its run ended already. It
  // still leaves this thread's stack, or end() would pop it forever.
  if (r) {
    incl = r->frames.empty() ? 0 : clock(*r, now) - r->frames.front().enter;
    while (!r->frames.empty()) close_top(*r, now, thread);
    // On the primary thread the region ran inside the encountering task's current node.
    if (Run* enc = runs_.find(r->encountering); enc && !enc->frames.empty()) {
      enc->frames.back().child += incl;
    }
  }
  for (size_t i = ts.implicit.size(); i > 0; --i) {
    if (ts.implicit[i - 1].first != id) continue;
    ts.current = ts.implicit[i - 1].second;
    ts.implicit.erase(ts.implicit.begin() + long(i - 1));
    if (ts.implicit.empty() && thread < result_.thread_time_ns.size()) {
      result_.thread_time_ns[thread] += incl;
      result_.total_time_ns += incl;
    }
    break;
  }
  if (r) runs_.erase(id);
}

void ProfilePass::on_create(const format::Event& e, uint32_t thread, uint64_t code) {
  // `taskwait depend(...)` makes a task that never runs: it is the taskwait, not a task.
  if (e.flags & format::task_flag::kTaskwait) return;
  uint32_t c = construct_index(code);
  ++result_.tasks[c].created;
  Run& x = new_run(e.a);
  x.construct = c;
  x.created_ns = e.time;
  ThreadState& ts = thread_state(thread);
  ts.created_hint = &x;
  Run* creator = current_run(thread);
  if (!creator) return;
  ts.pending_creator = creator->id;
  ts.pending_task = e.a;
  ts.pending_construct = c;
  ts.pending_since = e.time;
  push(*creator, node(top_node(*creator), NodeKind::kCreate, 0, code), FrameType::kCreate, e.time,
       c);
}

void ProfilePass::on_schedule(const format::Event& e, uint32_t thread) {
  auto status = TaskStatus(e.op);
  if (status == TaskStatus::kLateFulfill || status == TaskStatus::kEarlyFulfill) return;
  if (e.a == e.b) return;  // picked up again at once: no switch
  uint64_t now = e.time;
  if (e.a) {
    if (Run* prior = find_run(e.a, thread_state(thread).current_hint)) {
      switch (status) {
        case TaskStatus::kComplete:
        case TaskStatus::kDetach:
        case TaskStatus::kTaskwaitComplete:
        case TaskStatus::kCancel:
          if (prior->implicit) break;
          if (prior->started) {
            task_end(*prior, thread, now, true);
          } else {
            if (status == TaskStatus::kCancel) ++result_.tasks[prior->construct].discarded;
            runs_.erase(e.a);
          }
          break;
        default:
          suspend(*prior, now, status == TaskStatus::kYield);
          break;
      }
    }
  }
  ThreadState& ts = thread_state(thread);
  ts.current = 0;
  if (!e.b) return;
  Run* next = find_run(e.b, ts.created_hint);
  if (!next) {
    // A task whose creation is not in the trace: an instance of an unknown construct.
    uint32_t c = construct_index(0);
    next = &new_run(e.b);
    next->construct = c;
    next->created_ns = now;
  }
  if (!next->implicit && !next->started) {
    task_begin(*next, thread, now);
  } else {
    resume(*next, thread, now);
  }
}

void ProfilePass::task_begin(Run& x, uint32_t thread, uint64_t now) {
  x.started = true;
  x.thread = thread;
  TaskConstruct& c = result_.tasks[x.construct];
  ++c.instances;
  c.start_delay.add(now - std::min(now, x.created_ns));
  set_active(thread, x.construct, +1);
  resume(x, thread, now);
  push(x, c.root, FrameType::kRoot, now);
}

void ProfilePass::resume(Run& x, uint32_t thread, uint64_t now) {
  ThreadState& ts = thread_state(thread);
  ts.current = x.id;
  ts.current_hint = &x;
  if (x.running && !x.implicit) {
    // Still running elsewhere as far as we know (lost events): stop it there first.
    exit_stub(x, now);
    x.clock = clock(x, now);
    x.running = false;
  }
  // Scheduling points the task was switched out at end when it runs again.
  while (!x.frames.empty() && x.frames.back().type == FrameType::kSched) {
    close_top(x, now, thread);
  }
  if (x.implicit) return;
  TaskConstruct& c = result_.tasks[x.construct];
  if (x.thread != thread) {
    ++c.migrations;
    set_active(x.thread, x.construct, -1);
    set_active(thread, x.construct, +1);
    x.thread = thread;
  }
  x.running = true;
  x.since = now;
  ++x.fragments;
  ++c.fragments;
  enter_stub(x, thread, now);
}

void ProfilePass::suspend(Run& x, uint64_t now, bool yield) {
  if (yield) push(x, node(top_node(x), NodeKind::kTaskyield, 0, 0), FrameType::kSched, now);
  if (x.implicit || !x.running) return;
  exit_stub(x, now);
  x.clock = clock(x, now);
  x.running = false;
}

void ProfilePass::task_end(Run& x, uint32_t thread, uint64_t now, bool finished) {
  uint64_t total = clock(x, now);
  while (!x.frames.empty()) close_top(x, now, thread);
  if (x.running) exit_stub(x, now);
  x.running = false;
  TaskConstruct& c = result_.tasks[x.construct];
  c.time.add(total);
  if (!finished) ++c.unfinished;
  for (const auto& [name, value] : x.params) {
    std::vector<ParamValue>& values = param_split(x.construct, name).values;
    int64_t v = value;
    auto at = std::lower_bound(values.begin(), values.end(), v,
                               [](const ParamValue& pv, int64_t w) { return pv.value < w; });
    if (at == values.end() || at->value != v) at = values.insert(at, ParamValue{v, {}});
    at->time.add(total);
  }
  set_active(x.thread, x.construct, -1);
  runs_.erase(x.id);
}

void ProfilePass::enter_stub(Run& task, uint32_t thread, uint64_t now) {
  ThreadState& ts = thread_state(thread);
  if (ts.implicit.empty()) return;
  uint64_t owner = ts.implicit.back().first;
  Run* imp = find_run(owner, ts.implicit_hint);
  if (!imp) return;
  uint32_t n = node(top_node(*imp), NodeKind::kStub, 0, result_.tasks[task.construct].codeptr);
  push(*imp, n, FrameType::kStub, now, task.id);
  task.stub_owner = owner;
  task.stub_owner_hint = imp;
}

void ProfilePass::exit_stub(Run& task, uint64_t now) {
  uint64_t owner = task.stub_owner;
  task.stub_owner = 0;
  Run* imp = find_run(owner, task.stub_owner_hint);
  if (!imp) return;
  uint64_t id = task.id;
  close_to(*imp, now, imp->thread,
           [id](const Frame& f) { return f.type == FrameType::kStub && f.match == id; });
}

void ProfilePass::on_region(const format::Event& e, uint32_t thread, NodeKind kind, uint16_t sub,
                            uint64_t code) {
  Run* r = current_run(thread);
  if (!r) return;
  uint64_t match = (uint64_t(kind) << 56) | (uint64_t(sub) << 40);
  if (kind == NodeKind::kUser) match |= code;
  auto ep = format::Endpoint(e.op);
  if (ep == format::Endpoint::kBegin || ep == format::Endpoint::kBeginEnd) {
    // The end-of-region barrier: the same node whether a thread reports the parallel
    // construct's address or none.
    if (kind == NodeKind::kBarrier && is_implicit_barrier(sub) && r->implicit &&
        code == r->parallel_code) {
      code = 0;
    }
    push(*r, node(top_node(*r), kind, sub, code), FrameType::kRegion, e.time, match);
    if (ep == format::Endpoint::kBegin) return;
  }
  bool found = close_to(*r, e.time, thread, [match](const Frame& f) {
    return f.type == FrameType::kRegion && f.match == match;
  });
  if (!found) ++result_.unmatched_ends;
}

void ProfilePass::on_mutex(const format::Event& e, uint32_t thread) {
  Run* r = current_run(thread);
  if (!r) return;
  if (e.kind == Kind::kMutexAcquire) {
    // A test lock may fail, with no `acquired` to end the wait: not followed.
    using format::MutexKind;
    if (e.sub == uint16_t(MutexKind::kTestLock) || e.sub == uint16_t(MutexKind::kTestNestLock)) {
      return;
    }
    push(*r, node(top_node(*r), NodeKind::kMutexWait, e.sub, e.c), FrameType::kMutex, e.time, e.a);
    return;
  }
  // acquired, or a nest lock acquired again by its owner (reported as nest_lock begin)
  if (e.kind == Kind::kNestLock && e.op != uint8_t(format::Endpoint::kBegin)) return;
  if (!r->frames.empty() && r->frames.back().type == FrameType::kMutex &&
      r->frames.back().match == e.a) {
    close_top(*r, e.time, thread);
  }
}

void ProfilePass::on_param(const format::Event& e, uint32_t thread) {
  Run* r = current_run(thread);
  if (!r) return;
  // A new value of the parameter just set replaces it.
  if (!r->frames.empty() && r->frames.back().type == FrameType::kParam &&
      result_.nodes[r->frames.back().node].code == e.a) {
    close_top(*r, e.time, thread);
  }
  auto value = int64_t(e.b);
  push(*r, node(top_node(*r), NodeKind::kParam, 0, e.a, value), FrameType::kParam, e.time);
  for (auto& [name, v] : r->params) {
    if (name == e.a) {
      v = value;
      return;
    }
  }
  r->params.emplace_back(e.a, value);
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

  // Hottest first: children, roots and task constructs by inclusive time.
  auto hotter = [this](uint32_t a, uint32_t b) {
    return result_.nodes[a].total.inclusive.sum > result_.nodes[b].total.inclusive.sum;
  };
  for (ProfileNode& n : result_.nodes) {
    std::stable_sort(n.children.begin(), n.children.end(), hotter);
  }
  std::stable_sort(result_.roots.begin(), result_.roots.end(), hotter);
  std::stable_sort(result_.tasks.begin(), result_.tasks.end(),
                   [](const TaskConstruct& a, const TaskConstruct& b) {
                     return a.time.sum > b.time.sum;
                   });
  result_.task_roots.clear();
  for (const TaskConstruct& c : result_.tasks) result_.task_roots.push_back(c.root);
}

}  // namespace tasklens::analysis
