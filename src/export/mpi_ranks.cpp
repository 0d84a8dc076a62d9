// open_run_ranks: an MPI run's ranks opened and put on one time line.
#include "export/mpi_ranks.h"

#include <algorithm>
#include <cmath>

#include "analysis/mpi_time.h"
#include "replay/replay.h"
#include "symbols/symbolizer.h"

namespace tasklens::exports {

uint64_t RankClock::map_moved(uint64_t t) const {
  double out = double(t) + double(shift_ns) + drift * double(t);
  return out <= 0 ? 0 : out >= 1.8e19 ? UINT64_MAX : uint64_t(std::llround(out));
}

Result<std::vector<RunRank>> open_run_ranks(const format::MpiRun& run, const ExportOptions& o) {
  std::vector<RunRank> ranks;
  // Each rank's start and end on rank 0's clock (CLOCK_MONOTONIC plus the offset there).
  std::vector<double> start, slope;
  std::string root_host;  // the first rank's (rank 0's when it was recorded)
  for (const auto& r : run.ranks) {
    auto x = format::open_experiment(r.dir);
    if (!x) return x.error();
    std::string where = "rank " + std::to_string(r.rank) + " (" + r.dir + ")";
    if (x->metadata.profile_mode()) return Error{where + ": a profile-mode experiment has no trace"};
    if (const std::string* bad = x->first_unreadable_stream()) return Error{where + ": " + *bad};
    auto ok = check_options(*x, o);
    if (!ok) return Error{where + ": " + ok.error().message};
    uint64_t s = x->clock.start_monotonic_ns;
    double off0 = 0, d = 0;
    if (ranks.empty()) root_host = x->metadata.host;
    if (!analysis::mpi_same_clock(x->metadata.host, root_host)) {
      analysis::MpiTimePass clocks;
      auto stats = replay::run_replay(*x, {&clocks});
      if (!stats) return Error{where + ": " + stats.error().message};
      const analysis::MpiTime& m = clocks.result();
      off0 = m.offset_at(s);
      d = m.offset_at(s + 1000000000) - off0;  // the offset's change per s of this rank's clock
    }
    start.push_back(double(s) + off0);
    slope.push_back(d / 1e9);
    ranks.push_back(RunRank{r.rank, std::move(*x), {}});
  }
  double origin = ranks.empty() ? 0 : *std::min_element(start.begin(), start.end());
  for (size_t i = 0; i < ranks.size(); ++i) {
    // Damaged offsets may be anything: keep the shift where an int64_t holds it.
    ranks[i].clock.shift_ns = int64_t(std::llround(std::clamp(start[i] - origin, -9e18, 9e18)));
    ranks[i].clock.drift = std::isfinite(slope[i]) ? slope[i] : 0;
  }
  return ranks;
}

Result<bool> export_ranks(std::vector<RunRank>& ranks, const ExportOptions& o,
                          const replay::Progress& progress, const MakeRankExporter& make,
                          ExportSummary& all) {
  for (RunRank& r : ranks) {
    symbols::Symbolizer symbols(r.x.metadata.objects, o.symbols);
    std::unique_ptr<Exporter> e = make(r, &symbols);
    auto stats = replay::run_replay(r.x, {&e->pass()}, progress, &symbols);
    if (!stats) return Error{r.label() + ": " + stats.error().message};
    auto s = e->finish(*stats);
    if (!s) return s.error();
    all.events_in += stats->events;
    all.records_out += s->records_out;
    for (const auto& n : s->notes) all.notes.push_back(r.label() + ": " + n);
    for (const auto& w : r.x.warnings) all.notes.push_back(r.label() + ": " + w);
    for (const auto& p : stats->problems) all.notes.push_back(r.label() + ": " + p.message);
  }
  return true;
}

}  // namespace tasklens::exports
