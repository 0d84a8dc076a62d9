// TaskGraphPass: work and span of the run's DAG of strands, measured online.
#include "analysis/task_graph.h"

#include <algorithm>

#include "format/kinds.h"

namespace tasklens::analysis {

using format::Endpoint;
using format::Kind;
using format::SyncKind;
using format::is_barrier;

void TaskGraphPass::begin(const replay::ReplayInfo& info) {
  result_ = TaskGraph{};
  result_.threads = info.threads;
  running_.assign(info.threads, Running{});
  nodes_ = replay::StableIdMap<Node>();
  regions_ = replay::IdMap<Region>();
  ended_with_deps_ = replay::IdMap<uint64_t>();
}

void TaskGraphPass::flush(uint32_t thread, uint64_t t) {
  Running& r = running_[thread];
  if (r.task && t > r.since) {
    if (Node* n = nodes_.find(r.task)) n->span += t - r.since;
    result_.work_ns += t - r.since;
  }
  r.since = t;
}

uint64_t TaskGraphPass::span_of(uint64_t id) {
  const Node* n = nodes_.find(id);
  return n ? n->span : 0;
}

void TaskGraphPass::raise(uint64_t id, uint64_t span) {
  if (Node* n = nodes_.find(id); n && n->span < span) n->span = span;
}

void TaskGraphPass::after(const replay::Record& r, const replay::TaskModel& m) {
  const format::Event& e = r.ev;
  const uint32_t p = r.thread;
  if (p >= running_.size()) return;
  // The strand that ran up to this event belongs to the task that ran before it.
  flush(p, e.time);
  const replay::ThreadInfo& th = m.thread(p);
  switch (e.kind) {
    case Kind::kParallelBegin:
      regions_[e.a].fork_span = span_of(th.current);
      break;
    case Kind::kParallelEnd:
      // The encountering task (current again) continues after the whole region.
      if (const Region* region = regions_.find(e.a)) {
        raise(th.current, region->max_end);
        regions_.erase(e.a);
      }
      break;
    case Kind::kImplicitTask:
      if (e.op == uint8_t(Endpoint::kBegin)) {
        Node& n = nodes_[e.a];
        n.clear();
        n.id = e.a;
        n.region = e.b;
        // A region whose parallel_begin is not in the trace starts at 0.
        if (e.b) n.span = regions_[e.b].fork_span;
      }
      break;
    case Kind::kTaskCreate: {
      Node& n = nodes_[e.a];
      n.clear();
      n.id = e.a;
      n.parent = e.b;
      const replay::TaskInfo* info = m.task(e.a);
      n.region = info ? info->region : th.region;
      n.has_deps = e.op != 0;
      n.span = span_of(th.current);  // it may start once its creator got this far
      if (Node* parent = nodes_.find(e.b)) ++parent->live_children;
      if (e.flags & format::task_flag::kExplicit) ++result_.tasks;
      break;
    }
    case Kind::kSyncRegion: {
      uint64_t id = e.b ? e.b : th.current;
      Node* n = nodes_.find(id);
      if (!n) break;
      if (e.op == uint8_t(Endpoint::kBegin)) {
        if (is_barrier(e.sub)) {
          if (Region* region = regions_.find(n->region)) {
            region->max_end = std::max(region->max_end, n->span);  // its arrival
          }
        }
      } else if (e.op == uint8_t(Endpoint::kEnd)) {
        if (e.sub == uint16_t(SyncKind::kTaskwait)) {
          n->span = std::max(n->span, n->children_end);
        } else if (e.sub == uint16_t(SyncKind::kTaskgroup)) {
          n->span = std::max(n->span, n->descendants_end);
        } else if (is_barrier(e.sub)) {
          if (const Region* region = regions_.find(n->region)) {
            n->span = std::max(n->span, region->max_end);
          }
        }
      }
      break;
    }
    default:
      break;
  }
  for (const replay::Edge& edge : m.new_edges()) {
    ++result_.dependence_edges;
    Node* pred = nodes_.find(edge.pred);
    if (pred && !pred->completed) {
      pred->successors.push_back(edge.succ);
    } else if (const uint64_t* end = ended_with_deps_.find(edge.pred)) {
      raise(edge.succ, *end);
    } else if (pred) {
      raise(edge.succ, pred->span);
    }
  }
  for (const replay::Transition& tr : m.transitions()) {
    if (tr.to == replay::TaskState::kCompleted) on_complete(tr.task);
  }
  running_[p].task = th.exists && m.working(p) ? th.current : 0;
}

void TaskGraphPass::on_complete(uint64_t id) {
  Node* n = nodes_.find(id);
  if (!n || n->completed) return;
  n->completed = true;
  const uint64_t end = n->span;
  result_.span_ns = std::max(result_.span_ns, end);
  for (uint64_t s : n->successors) raise(s, end);
  n->successors.clear();
  if (n->has_deps) ended_with_deps_[id] = end;
  if (Region* region = regions_.find(n->region)) region->max_end = std::max(region->max_end, end);
  if (Node* parent = nodes_.find(n->parent)) {
    parent->children_end = std::max(parent->children_end, end);
    for (Node* a = parent; a && a->descendants_end < end; a = nodes_.find(a->parent)) {
      a->descendants_end = end;
    }
    if (parent->live_children) --parent->live_children;
    release(*parent);
  }
  release(*n);
}

void TaskGraphPass::release(Node& n) {
  // A completed task stays while it has children: they still walk up through it.
  if (n.completed && n.live_children == 0) nodes_.erase(n.id);
}

void TaskGraphPass::end(const replay::ReplayInfo& info, const replay::TaskModel& m) {
  for (uint32_t p = 0; p < running_.size(); ++p) flush(p, info.end_ns);
  nodes_.for_each([&](uint64_t, Node& n) { result_.span_ns = std::max(result_.span_ns, n.span); });
  result_.run_ns = info.end_ns;
  uint32_t threads = 0;
  for (uint32_t p = 0; p < m.thread_count(); ++p) {
    const replay::ThreadInfo& th = m.thread(p);
    if (th.exists || th.end_ns) ++threads;
  }
  result_.threads = std::max<uint32_t>(threads, 1);
  result_.parallelism = result_.span_ns ? double(result_.work_ns) / double(result_.span_ns) : 0;
  result_.bound_ns = std::max<uint64_t>((result_.work_ns + result_.threads - 1) / result_.threads,
                                        result_.span_ns);
}

}  // namespace tasklens::analysis
