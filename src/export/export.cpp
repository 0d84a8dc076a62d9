// export_experiment: picks the format's exporter and runs it in one replay.
#include "export/export.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "export/formats.h"
#include "export/output.h"
#include "replay/parallel_replay.h"

namespace tasklens::exports {

namespace {

std::string id_list(const std::set<uint32_t>& ids) {
  std::string out;
  for (auto it = ids.begin(); it != ids.end();) {
    uint32_t lo = *it, hi = lo;
    for (++it; it != ids.end() && *it == hi + 1; ++it) hi = *it;
    if (!out.empty()) out += ",";
    out += lo == hi ? std::to_string(lo) : fmt::format("{}-{}", lo, hi);
  }
  return out.empty() ? "none" : out;
}

}  // namespace

Result<bool> check_options(const format::Experiment& x, const ExportOptions& o) {
  if (o.from_ns > o.to_ns) {
    return Error{fmt::format("the window is empty: --from {} is after --to {}",
                             duration_text(o.from_ns), duration_text(o.to_ns))};
  }
  if (!o.threads.empty()) {
    std::vector<uint32_t> ids = x.thread_ids();
    std::set<uint32_t> known(ids.begin(), ids.end());
    for (uint32_t th : o.threads) {
      if (!known.count(th)) {
        return Error{fmt::format("no thread {} in {} (its threads: {})", th, x.dir,
                                 id_list(known))};
      }
    }
  }
  if (o.from_ns > 0) {
    uint64_t end = x.end_ns;
    if (o.from_ns > end) {
      return Error{fmt::format("--from {} is after the end of the run ({})", duration_text(o.from_ns),
                               duration_text(end))};
    }
  }
  return true;
}

Result<ExportSummary> export_experiment(const format::Experiment& x, const ExportFormat& format,
                                        const std::string& out, const ExportOptions& o,
                                        const replay::Progress& progress) {
  auto ok = check_options(x, o);
  if (!ok) return ok.error();
  symbols::Symbolizer symbols(x.metadata.objects, o.symbols);
  Result<std::unique_ptr<Exporter>> e = format.make(x, out, o, &symbols);
  if (!e) return e.error();
  // The exports' passes are heavy: the stream is decoded on the second core meanwhile.
  auto stats = replay::run_replay_decoded_apart(x, {&(*e)->pass()}, progress, &symbols);
  if (!stats) return stats.error();
  auto summary = (*e)->finish(*stats);
  if (!summary) return summary.error();
  summary->events_in = stats->events;
  for (const auto& w : x.warnings) summary->notes.push_back(w);
  for (const auto& p : stats->problems) summary->notes.push_back(p.message);
  for (const auto& n : symbols.notes()) summary->notes.push_back(n);
  return summary;
}

}  // namespace tasklens::exports
