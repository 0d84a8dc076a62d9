// TimelinePass's tasks and per-thread stacks of frames: which task's regions are open on a
// thread, entered and left as tasks switch (the events that drive them: timeline.cpp).
#include "export/timeline.h"

#include <algorithm>

namespace tasklens::exports {

// ---- tasks ------------------------------------------------------------------------------------

void TimelineTask::clear() {
  std::vector<uint32_t> o = std::move(open);
  std::vector<uint64_t> s = std::move(successors);
  std::vector<DepIn> d = std::move(deps_in);
  *this = TimelineTask{};
  o.clear();
  s.clear();
  d.clear();
  open = std::move(o);
  successors = std::move(s);
  deps_in = std::move(d);
}

TimelineTask* TimelinePass::find(uint64_t id) {
  return tasks_.find(id);
}

TimelineTask& TimelinePass::add(uint64_t id, uint64_t t) {
  // A reused id forgets the old task; its frame, if it still runs, is stray and leaves now, so
  // every frame on a stack keeps a live task; what the sink shows of its state ends too.
  if (TimelineTask* old = find(id)) {
    if (old->thread != kNoThread) leave_stray(*old, t);
    if (open_ && !closed_ && shows_task(*old)) sink_.task_forgotten(t, *old);
  }
  TimelineTask& T = tasks_[id];
  T.clear();
  T.id = id;
  return T;
}

TimelineTask& TimelinePass::task(uint64_t id, uint32_t th, uint64_t t) {
  if (TimelineTask* known = find(id)) return *known;
  // Not created in the trace (a lost chunk): an explicit task of unknown construct, born here.
  TimelineTask& n = add(id, t);
  n.flags = format::task_flag::kExplicit;
  n.region = regions_.intern(Construct::kTask, 0);
  n.creator_thread = th;
  n.created_ns = t;
  return n;
}

void TimelinePass::erase(uint64_t id, uint64_t t) {
  TimelineTask* T = find(id);
  if (!T) return;
  if (T->thread != kNoThread) leave_stray(*T, t);
  tasks_.erase(id);
}

void TimelinePass::leave_stray(TimelineTask& T, uint64_t t) {
  uint32_t th = T.thread;
  ++stats_.stray_frames;
  remove_frame(th, t, T.id);
  T.thread = kNoThread;  // even if its frame was not found
  announce(th, t);
}

// ---- stacks -----------------------------------------------------------------------------------

uint64_t TimelinePass::top(uint32_t th) const {
  const auto& f = stacks_[th].frames;
  return f.empty() ? 0 : f.back();
}

void TimelinePass::push(uint32_t th, uint64_t t, TimelineTask& T) {
  Stack& s = stacks_[th];
  SwitchInfo how;
  how.first = !T.started;
  how.from_thread = T.last_thread;
  how.out_ns = T.last_out_ns;
  T.started = true;
  T.thread = th;
  s.frames.push_back(T.id);
  s.announced = T.id;
  if (emitting(th)) {
    sink_.task_switch(th, t, &T, how);
    sink_.enter(th, t, T.region, T);
    for (uint32_t r : T.open) sink_.enter(th, t, r, T);
  }
  if (how.first) T.deps_in.clear();
}

void TimelinePass::take_top(uint32_t th, uint64_t t) {
  Stack& s = stacks_[th];
  uint64_t id = s.frames.back();
  s.frames.pop_back();
  TimelineTask* T = find(id);
  if (!T) return;
  if (emitting(th)) {
    for (size_t i = T->open.size(); i-- > 0;) sink_.leave(th, t, T->open[i], *T);
    sink_.leave(th, t, T->region, *T);
  }
  T->thread = kNoThread;
  T->last_thread = th;
  T->last_out_ns = t;
}

void TimelinePass::remove_frame(uint32_t th, uint64_t t, uint64_t id) {
  auto& f = stacks_[th].frames;
  if (std::find(f.begin(), f.end(), id) == f.end()) return;
  while (f.back() != id) take_top(th, t);
  take_top(th, t);
}

void TimelinePass::announce(uint32_t th, uint64_t t) {
  Stack& s = stacks_[th];
  uint64_t now = s.frames.empty() ? 0 : s.frames.back();
  if (now == s.announced) return;
  s.announced = now;
  if (!emitting(th)) return;
  SwitchInfo how;
  how.resumed_here = true;
  sink_.task_switch(th, t, now ? find(now) : nullptr, how);
}

TimelineTask& TimelinePass::activate(uint32_t th, uint64_t t, uint64_t id) {
  Stack& s = stacks_[th];
  TimelineTask& T = task(id, th, t);
  if (T.thread == th) {
    // On this stack (every frame holds a live task, see add()); if below the top, the frames
    // above it leave (their tasks keep their context).
    if (s.frames.back() == id) return T;
    while (s.frames.back() != id) take_top(th, t);
    announce(th, t);
    return T;
  }
  // Still held by another thread's stack (its switch-out was not seen): take it off there.
  if (T.thread != kNoThread) leave_stray(T, t);
  push(th, t, T);
  return T;
}

void TimelinePass::finish_body(uint32_t th, uint64_t t, uint64_t id) {
  TimelineTask& T = task(id, th, t);
  if (T.is_taskwait_depend()) {
    end_taskwait_depend(T, th, t);
    if (!T.started) return;  // it never ran (libomp): no body to end
  }
  if (T.thread == th) {
    auto& f = stacks_[th].frames;
    while (f.back() != id) take_top(th, t);
    stats_.implicit_leaves += T.open.size();
    take_top(th, t);
  } else if (T.thread != kNoThread) {
    stats_.implicit_leaves += T.open.size();
    leave_stray(T, t);
  }
  T.open.clear();  // the body ended: nothing of it is open any more
  if (T.started && emitting(th)) sink_.task_end(th, t, T);
}

void TimelinePass::enter_in(uint32_t th, uint64_t t, uint64_t id, uint32_t region) {
  TimelineTask& T = activate(th, t, id);
  T.open.push_back(region);
  if (emitting(th)) sink_.enter(th, t, region, T);
}

void TimelinePass::leave_in(uint32_t th, uint64_t t, uint64_t id, Construct kind, uint64_t key,
                            bool any_key) {
  TimelineTask* T = find(id);
  size_t i = T ? T->open.size() : 0;
  while (i > 0) {
    const Region& r = regions_.at(T->open[i - 1]);
    if (r.kind == kind && (any_key || r.key == key)) break;
    --i;
  }
  if (i == 0) {
    ++stats_.unmatched_leaves;
    return;
  }
  activate(th, t, id);
  // Regions opened inside it and not closed end with it.
  while (T->open.size() >= i) {
    uint32_t r = T->open.back();
    T->open.pop_back();
    if (T->open.size() >= i) ++stats_.implicit_leaves;
    if (emitting(th)) sink_.leave(th, t, r, *T);
  }
}

}  // namespace tasklens::exports
