// read_trace: a recorded experiment's facts, by the test's own bookkeeping.
#include "integration/trace_facts.h"

#include <set>
#include <sstream>
#include <utility>

#include "format/kinds.h"
#include "replay/merged_stream.h"

namespace tasklens::testing {
namespace {

using format::Event;
using format::Kind;
using format::TaskStatus;

bool is_completion(TaskStatus s) {
  return s == TaskStatus::kComplete || s == TaskStatus::kCancel ||
         s == TaskStatus::kLateFulfill || s == TaskStatus::kTaskwaitComplete;
}

// Edges from dependence addresses, in creation order: a reader depends on the last writer of its
// address; a writer depends on the readers since the last writer, or on the last writer if none.
class EdgeRebuilder {
 public:
  void item(uint64_t task, uint64_t addr, format::DependenceType type) {
    Address& a = addresses_[addr];
    auto edge = [&](uint64_t from) {
      if (from && from != task) edges_.insert({from, task});
    };
    if (type == format::DependenceType::kIn) {
      edge(a.last_writer);
      a.readers.push_back(task);
      return;
    }
    if (a.readers.empty()) edge(a.last_writer);
    for (uint64_t r : a.readers) edge(r);
    a.readers.clear();
    a.last_writer = task;
  }
  uint64_t edges() const { return edges_.size(); }

 private:
  struct Address {
    uint64_t last_writer = 0;
    std::vector<uint64_t> readers;
  };
  std::unordered_map<uint64_t, Address> addresses_;
  std::set<std::pair<uint64_t, uint64_t>> edges_;
};

enum class State { kCreated, kRunning, kSuspended, kDone };

}  // namespace

uint64_t TraceFacts::count(Kind kind, int op, int sub) const {
  uint64_t n = 0;
  for (const auto& stream : by_thread) {
    for (const Event& e : stream) {
      n += e.kind == kind && (op < 0 || e.op == op) && (sub < 0 || e.sub == sub);
    }
  }
  return n;
}

uint64_t TraceFacts::explicit_not_once() const {
  uint64_t n = 0;
  for (const auto& [id, t] : tasks) {
    if (t.implicit || format::is_taskwait_depend(t.flags)) continue;  // the latter never starts
    if (t.creates != 1 || t.starts != 1 || t.completions != 1) ++n;
  }
  return n;
}

uint64_t TraceFacts::explicit_completed() const {
  uint64_t n = 0;
  for (const auto& [id, t] : tasks) n += !t.implicit && t.completions > 0;
  return n;
}

std::string TraceFacts::summary() const {
  std::ostringstream s;
  s << "events=" << events << " explicit_created=" << explicit_created
    << " not_once=" << explicit_not_once() << " orphans=" << orphans
    << " backwards=" << times_backwards << " suspensions=" << suspensions
    << " resumptions=" << resumptions << " dependence_records=" << dependence_records
    << " rebuilt_edges=" << rebuilt_edges << " problems=" << problems.size();
  for (const auto& p : problems) s << "\n  " << p.message;
  return s.str();
}

TraceFacts read_trace(const std::string& dir) {
  TraceFacts f;
  auto x = format::open_experiment(dir);
  if (!x) {
    f.error = x.error().message;
    return f;
  }
  f.x = std::move(x.value());

  // Each stream on its own: stream order, time order within a thread, chunk headers.
  for (const std::string& path : f.x.streams) {
    auto r = format::StreamReader::open(path);
    if (!r) {
      f.error = r.error().message;
      return f;
    }
    uint32_t thread = (*r)->thread();
    if (f.by_thread.size() <= thread) f.by_thread.resize(thread + 1);
    std::vector<Event> chunk;
    format::ChunkHeader h;
    while ((*r)->next_chunk(chunk, &h)) {
      f.headers.push_back(h);
      for (const Event& e : chunk) {
        auto& stream = f.by_thread[thread];
        if (!stream.empty() && e.time < stream.back().time) ++f.times_backwards;
        stream.push_back(e);
      }
    }
    f.problems.insert(f.problems.end(), (*r)->problems().begin(), (*r)->problems().end());
  }

  // All threads in time order: task lives and dependences.
  auto merged = replay::MergedStream::open(f.x);
  if (!merged) {
    f.error = merged.error().message;
    return f;
  }
  std::unordered_map<uint64_t, State> state;
  EdgeRebuilder edges;
  replay::Record r;
  while ((*merged)->next(r)) {
    const Event& e = r.ev;
    ++f.events;
    switch (e.kind) {
      case Kind::kImplicitTask:
        if (e.op == uint8_t(format::Endpoint::kBegin)) {
          TaskLife& t = f.tasks[e.a];
          t.implicit = true;
          t.flags = e.flags;
        }
        break;
      case Kind::kTaskCreate: {
        TaskLife& t = f.tasks[e.a];
        t.parent = e.b;
        t.flags = e.flags;
        ++t.creates;
        if (e.flags & format::task_flag::kExplicit) ++f.explicit_created;
        state[e.a] = State::kCreated;
        break;
      }
      case Kind::kTaskSchedule: {
        auto status = TaskStatus(e.op);
        auto prior = f.tasks.find(e.a);
        if (prior != f.tasks.end() && !prior->second.implicit) {
          if (is_completion(status)) {
            ++prior->second.completions;
            state[e.a] = State::kDone;
          } else if ((status == TaskStatus::kSwitch || status == TaskStatus::kYield) &&
                     e.a != e.b) {
            ++f.suspensions;
            state[e.a] = State::kSuspended;
          }
        }
        auto next = f.tasks.find(e.b);
        if (status != TaskStatus::kLateFulfill && next != f.tasks.end() &&
            !next->second.implicit) {
          State& s = state[e.b];
          if (s == State::kCreated) {
            ++next->second.starts;
            s = State::kRunning;
          } else if (s == State::kSuspended) {
            ++f.resumptions;
            s = State::kRunning;
          }
        }
        break;
      }
      case Kind::kDependence:
        ++f.dependence_records;
        edges.item(e.a, e.b, format::DependenceType(e.op));
        break;
      case Kind::kLost:
        f.lost_marked += e.flags;
        break;
      default:
        break;
    }
  }
  f.rebuilt_edges = edges.edges();

  // Parent links: every explicit task reaches an implicit task through known parents.
  for (const auto& [id, t] : f.tasks) {
    if (t.implicit) continue;
    uint64_t p = t.parent;
    size_t steps = 0;
    while (steps++ < f.tasks.size()) {
      auto it = f.tasks.find(p);
      if (it == f.tasks.end()) break;
      if (it->second.implicit) break;
      p = it->second.parent;
    }
    auto it = f.tasks.find(p);
    if (it == f.tasks.end() || !it->second.implicit) ++f.orphans;
  }
  return f;
}

}  // namespace tasklens::testing
