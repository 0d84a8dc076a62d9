// ConsistencyChecker: the per-event sanity checks behind `tasklens check`.
#include "replay/consistency.h"

#include <fmt/format.h>

#include "format/event_views.h"
#include "format/kinds.h"
#include "format/plural.h"
#include "format/task_switch.h"
#include "replay/merged_stream.h"

namespace tasklens::replay {
namespace {

using format::Kind;
using format::TaskStatus;

}  // namespace

bool ConsistencyReport::data_lost() const {
  if (events_lost) return true;
  for (const auto& p : stream_problems) {
    if (p.severity == format::Problem::Severity::kDataLost) return true;
  }
  return false;
}

Soundness soundness(const ConsistencyReport& rep, const format::Experiment& x) {
  if (x.status != "complete") return {false, "the run did not complete (" + x.status + ")"};
  if (rep.data_lost()) return {false, "data was lost"};
  if (!x.damage.empty()) return {false, "the experiment is damaged"};
  if (rep.inconsistencies()) {
    return {false, format::plural(rep.inconsistencies(), "inconsistent event")};
  }
  return {true, "nothing lost, every task consistent"};
}

ConsistencyChecker::ConsistencyChecker(const format::Experiment& x, uint32_t threads)
    : x_(x), last_time_(threads, 0), current_(threads, 0), gone_over_(threads, 0) {
  rep_.events_lost = x.metadata.recorder.events_lost;
  rep_.threads = threads;
}

void ConsistencyChecker::issue(uint64_t& counter, std::string text) {
  ++counter;
  if (rep_.issues.size() < kMaxIssues) rep_.issues.push_back(std::move(text));
}

ConsistencyChecker::TaskFacts* ConsistencyChecker::unknown(uint64_t id, const Record& r,
                                                           const char* role) {
  issue(rep_.unknown_tasks,
        fmt::format("t={} thread {}: {} task {:#x} was never created (or completed before)",
                    r.ev.time, r.thread, role, id));
  return &tasks_[id];
}

void ConsistencyChecker::add(const Record& r) {
  ConsistencyReport& rep = rep_;
  auto& tasks = tasks_;
  auto& last_time = last_time_;
  auto& current = current_;
  auto& gone_over = gone_over_;
  if (r.thread >= last_time.size()) {
    // A thread the stream did not count (never from a MergedStream): room for it.
    last_time.resize(r.thread + 1, 0);
    current.resize(r.thread + 1, 0);
    gone_over.resize(r.thread + 1, 0);
  }
  const format::Event& e = r.ev;
  ++rep.events;
  if (e.time < last_time[r.thread]) {
    issue(rep.time_backwards, fmt::format("thread {}: time goes back from {} to {}", r.thread,
                                          last_time[r.thread], e.time));
  }
  last_time[r.thread] = e.time;
  switch (e.kind) {
    case Kind::kParallelBegin:
      ++rep.parallel_regions;
      break;
    case Kind::kImplicitTask: {
      const auto it = format::ev::ImplicitTask::of(e);
      if (it.endpoint == uint8_t(format::Endpoint::kBegin)) {
        ++rep.implicit_tasks;
        TaskFacts& f = tasks[it.task];
        f = TaskFacts{};
        f.started = true;
        current[r.thread] = it.task;
      } else {
        current[r.thread] = 0;
      }
      break;
    }
    case Kind::kTaskCreate: {
      const auto tc = format::ev::TaskCreate::of(e);
      // Two lookups, the parent's first (as it was before this creation, should it be the task).
      auto p = tasks.find(tc.parent);
      const TaskFacts* parent = p == tasks.end() ? nullptr : &p->second;  // survives a rehash
      auto [entry, created] = tasks.try_emplace(tc.task);
      if (!created) {
        issue(rep.duplicate_creates,
              fmt::format("t={} thread {}: task {:#x} created twice", e.time, r.thread, tc.task));
      }
      TaskFacts f;
      f.id = tc.task;
      f.parent = tc.parent;
      f.flags = tc.flags;
      f.creator_thread = r.thread;
      f.created_ns = e.time;
      if (!parent) {
        issue(rep.unknown_parents, fmt::format("t={} thread {}: task {:#x} has unknown parent "
                                               "{:#x}",
                                               e.time, r.thread, tc.task, tc.parent));
      } else if (parent->is_explicit()) {
        f.depth = parent->depth + 1;
        rep.max_parent_depth = std::max<uint64_t>(rep.max_parent_depth, f.depth);
      }
      if (format::creates_explicit_task(e)) ++rep.explicit_created;
      entry->second = f;
      break;
    }
    case Kind::kTaskSchedule: {
      const auto s = format::ev::TaskSchedule::of(e);
      auto status = TaskStatus(s.status);
      // An untied task resuming itself on top of the current task switches that one out
      // (format/task_switch.h).
      uint64_t prior_id = format::switched_out(e, current[r.thread]);
      TaskFacts* prior = prior_id ? known(prior_id, r, "prior") : nullptr;
      // Fulfilling a detached task's event happens on whatever thread calls
      // omp_fulfill_event, and a taskwait-created task ends without running: the prior task
      // is not this thread's current task then.
      // A task discarded by a cancellation (a taskgroup's, before it started) is reported as
      // task_schedule(T, cancel, current) on the thread that discards it: nothing runs T there.
      bool from_wait = status == TaskStatus::kEarlyFulfill || status == TaskStatus::kLateFulfill ||
                       status == TaskStatus::kTaskwaitComplete ||
                       (status == TaskStatus::kCancel && prior && !prior->started);
      uint64_t cur = current[r.thread];
      if (prior && !from_wait && cur && cur != prior_id) {
        auto c = tasks.find(cur);
        if (c == tasks.end() && gone_over[r.thread] == prior_id) {
          // The untied task on top of prior ended its part silently and then completed on
          // another thread (forgotten since): the same sequence, seen after the fact.
          ++rep.untied_silent_parts;
          gone_over[r.thread] = 0;
        } else if (c != tasks.end() && c->second.is_untied() && c->second.over == prior_id) {
          // The untied task on top of prior ended its part with no event (format/task_switch.h).
          ++rep.untied_silent_parts;
          c->second.suspended = true;
        } else if (prior->is_untied() && s.next == cur) {
          // An untied task's part ran on top of the current task with no event of its start.
          ++rep.untied_silent_parts;
        } else {
          issue(rep.wrong_thread,
                fmt::format("t={} thread {}: switches out task {:#x} but runs {:#x}", e.time,
                            r.thread, prior_id, cur));
        }
      }
      if (prior && prior->is_explicit()) {
        bool ends = status == TaskStatus::kComplete || status == TaskStatus::kCancel ||
                    status == TaskStatus::kTaskwaitComplete || status == TaskStatus::kLateFulfill;
        if (status == TaskStatus::kDetach) prior->detached = true;
        if (ends) {
          if (prior->completed) {
            issue(rep.completed_twice, fmt::format("t={} thread {}: task {:#x} completes twice",
                                                   e.time, r.thread, prior_id));
          }
          prior->completed = true;
          prior->suspended = false;
          // Completed elsewhere while another thread still ran it (a silent untied part):
          // remember what it was on top of there.
          uint32_t there = prior->last_thread;
          if (there != r.thread && there < current.size() && current[there] == prior_id) {
            gone_over[there] = prior->over;
          }
          ++rep.explicit_completed;
          if (status == TaskStatus::kCancel) ++rep.explicit_cancelled;
        } else if (status == TaskStatus::kSwitch || status == TaskStatus::kYield) {
          // Switched out unfinished (untied, yield, or a task scheduling point).
          if (prior_id != s.next) {
            prior->suspended = true;
            ++rep.suspensions;
          }
        }
      }
      if (s.next && status != TaskStatus::kLateFulfill) {
        TaskFacts* next = known(s.next, r, "next");
        if (next->is_explicit() && !next->started) {
          next->started = true;
          ++rep.explicit_started;
        } else if (next->suspended) {
          next->suspended = false;
          ++rep.resumptions;
          if (next->last_thread != r.thread) ++rep.migrations;
        }
        next->last_thread = r.thread;
        // Switched in on top of the thread's task, unless it is the task that one was on top
        // of (a child ending or pausing returns to its parent: the parent's place is kept).
        // Mostly that task is the prior one, found already.
        if (s.next != cur) {
          const TaskFacts* c = nullptr;
          if (prior && cur == prior_id) {
            c = prior;
          } else if (auto it = tasks.find(cur); it != tasks.end()) {
            c = &it->second;
          }
          if (!c || c->over != s.next) next->over = cur;
        }
        current[r.thread] = s.next;
      }
      if (prior && !from_wait) prior->last_thread = r.thread;
      // A completed explicit task is never named again (its children were created before it
      // ended): forgotten, so that memory follows the live tasks, not the trace (26 M events
      // grew to 257 MB). Completing it again reads as an unknown task.
      if (prior && prior->is_explicit() && prior->completed && !prior->suspended) {
        tasks.erase(s.prior);
      }
      break;
    }
    case Kind::kDependence:
      ++rep.dependences;
      break;
    case Kind::kTaskDependence:
      ++rep.task_dependences;
      break;
    default:
      break;
  }
}

ConsistencyReport ConsistencyChecker::finish(std::vector<format::Problem> stream_problems) {
  ConsistencyReport& rep = rep_;
  const format::Experiment& x = x_;
  auto& tasks = tasks_;
  rep.stream_problems = std::move(stream_problems);
  for (const auto& [id, f] : tasks) {
    if (!f.is_explicit() || f.completed) continue;
    ++rep.explicit_unfinished;
    if (f.started) ++rep.explicit_unfinished_started;
  }
  if (x.status == "complete" && !rep.data_lost()) {
    for (const auto& [id, f] : tasks) {
      if (!f.is_explicit()) continue;
      if (!f.completed) {
        issue(rep.never_completed, fmt::format("task {:#x} never completed", id));
      }
      if (f.suspended) {
        issue(rep.suspended_at_end, fmt::format("task {:#x} was suspended and never resumed", id));
      }
    }
  }
  return std::move(rep_);
}

ConsistencyReport check_consistency(const format::Experiment& x) {
  auto stream = MergedStream::open(x);
  if (!stream) {
    ConsistencyReport rep;
    rep.events_lost = x.metadata.recorder.events_lost;
    rep.stream_problems.push_back({format::Problem::Severity::kDataLost, stream.error().message});
    return rep;
  }
  ConsistencyChecker check(x, (*stream)->thread_count());
  while (const Record* r = (*stream)->next()) check.add(*r);
  return check.finish((*stream)->problems());
}

}  // namespace tasklens::replay
