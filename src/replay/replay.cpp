// run_replay: the merged stream through the task model and the passes.
#include "replay/replay.h"

#include <algorithm>

#include "replay/implied_ends.h"

namespace tasklens::replay {

uint64_t trace_end_ns(const format::Experiment& x) {
  uint64_t last = 0;
  for (const auto& path : x.streams) {
    auto r = format::StreamReader::open(path);
    if (!r) continue;
    for (const format::ChunkHeader& h : (*r)->scan_headers()) last = std::max(last, h.last_time);
  }
  // The run ends at the program's exit (the final clock sample), after its last event.
  return std::max(x.clock.to_ns(last), x.clock.exit_ns);
}

namespace {

bool all_finished(const std::vector<Pass*>& passes) {
  for (const Pass* p : passes) {
    if (!p->finished()) return false;
  }
  return !passes.empty();
}

}  // namespace

Result<ReplayStats> run_replay(const format::Experiment& x, const std::vector<Pass*>& passes,
                               const Progress& progress, Symbolizer* constructs) {
  auto stream = MergedStream::open(x);
  if (!stream) return stream.error();
  ReplayInfo info;
  info.experiment = &x;
  info.threads = (*stream)->thread_count();
  info.end_ns = trace_end_ns(x);
  for (Pass* p : passes) p->begin(info);

  std::vector<Pass*> before;  // the passes whose before() does something
  for (Pass* p : passes) {
    if (p->uses_before()) before.push_back(p);
  }
  TaskModel model(info.threads);
  model.set_runtime_code(x.runtime_code_begin, x.runtime_code_end);
  model.set_constructs(constructs);
  ReplayStats stats;
  stats.threads = info.threads;
  uint64_t expected = x.meta.value("/recorder/events_written"_json_pointer, uint64_t(0));
  ImpliedEnds implied(info.threads);
  auto dispatch = [&](const Record& r) {
    for (Pass* p : before) p->before(r, model);
    model.apply(r.ev, r.thread);
    for (Pass* p : passes) p->after(r, model);
    model.collect();
  };
  while (const Record* r = (*stream)->next()) {
    if (const Record* end = implied.before(*r)) dispatch(*end);
    dispatch(*r);
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
  stats.problems = (*stream)->problems();
  return stats;
}

}  // namespace tasklens::replay
