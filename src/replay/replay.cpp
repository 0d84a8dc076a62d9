// run_replay: the merged stream through the task model and the passes.
#include "replay/replay.h"

#include <algorithm>

#include "replay/implied_ends.h"
#include "replay/late_ends.h"
#include "replay/mutex_call_sites.h"
#include "replay/record_feed.h"

namespace tasklens::replay {

namespace {

bool all_finished(const std::vector<Pass*>& passes) {
  for (const Pass* p : passes) {
    if (!p->finished()) return false;
  }
  return !passes.empty();
}

// The replay over `stream`: a MergedStream, or a FeedReader (the same records from a feed).
template <class Source>
ReplayStats replay(Source& stream, const format::Experiment& x, const std::vector<Pass*>& passes,
                   const Progress& progress, ConstructMap* constructs) {
  ReplayInfo info;
  info.experiment = &x;
  info.threads = stream.thread_count();
  info.end_ns = x.end_ns;
  for (Pass* p : passes) p->begin(info);

  std::vector<Pass*> before;  // the passes whose before() does something
  for (Pass* p : passes) {
    if (p->uses_before()) before.push_back(p);
  }
  // The passes whose after() wants every event, and the others with the kinds they want.
  std::vector<Pass*> after;
  std::vector<std::pair<Pass*, uint64_t>> after_some;
  for (Pass* p : passes) {
    const uint64_t kinds = p->after_kinds();
    if (kinds == ~uint64_t(0)) {
      after.push_back(p);
    } else if (kinds) {
      after_some.emplace_back(p, kinds);
    }
  }
  TaskModel model(info.threads);
  model.set_runtime_code(x.runtime_code);
  model.set_constructs(constructs);
  ReplayStats stats;
  stats.threads = info.threads;
  uint64_t expected = x.metadata.recorder.events_written;
  ImpliedEnds implied(info.threads);
  LateEnds late(info.threads);
  MutexCallSites mutex_sites(info.threads, x.runtime_code);
  auto dispatch = [&](const Record& r) {
    for (Pass* p : before) p->before(r, model);
    model.apply(r.ev, r.thread);
    for (Pass* p : after) p->after(r, model);
    for (const auto& [p, kinds] : after_some) {
      if (uint8_t(r.ev.kind) < 64 && (kinds >> uint8_t(r.ev.kind)) & 1) p->after(r, model);
    }
    model.collect();
  };
  // Inlined at both calls: a call per event cost the replay 6 % of its time on fib 30.
  auto apply = [&](const Record& r) __attribute__((always_inline)) {
    if (const Record* end = implied.before(r)) dispatch(*end);
    dispatch(*mutex_sites.fix(r));
  };
  while (const Record* r = stream.next()) {
    if (__builtin_expect(r->ev.kind == format::Kind::kCounters, 0)) {
      for (Pass* p : passes) p->counters(*r, model);
    } else if (__builtin_expect(late.involved(*r), 0)) {
      for (const Record& moved : late.fix(*r, model)) apply(moved);
    } else {
      apply(*r);
    }
    info.end_ns = std::max<uint64_t>(info.end_ns, r->ev.time);
    if ((++stats.events & 0xfff) == 0) {
      if ((stats.events & 0xfffff) == 0) {
        stats.peak_live_tasks = std::max(stats.peak_live_tasks, model.live_tasks());
        if (progress) progress(stats.events, expected);
      }
      if (all_finished(passes)) break;
    }
  }
  for (Pass* p : passes) p->end(info, model);
  stats.end_ns = info.end_ns;
  stats.problems = stream.problems();
  return stats;
}

}  // namespace

Result<ReplayStats> run_replay(const format::Experiment& x, const std::vector<Pass*>& passes,
                               const Progress& progress, ConstructMap* constructs) {
  auto stream = MergedStream::open(x);
  if (!stream) return stream.error();
  return replay(**stream, x, passes, progress, constructs);
}

ReplayStats run_replay(FeedReader& feed, const format::Experiment& x,
                       const std::vector<Pass*>& passes, const Progress& progress,
                       ConstructMap* constructs) {
  ReplayStats stats = replay(feed, x, passes, progress, constructs);
  feed.leave();  // it may have stopped early (every pass finished)
  return stats;
}

}  // namespace tasklens::replay
