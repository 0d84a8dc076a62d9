// An MPI run's ranks as the exports draw them (docs/MPI.md): every rank's experiment, and its
// times moved onto one time line -- rank 0's clock, from the earliest rank's start -- by the
// ranks' CLOCK_MONOTONIC at their start and, for ranks on other hosts, the clock offsets the PMPI
// library measured at MPI_Init and MPI_Finalize (interpolated between them).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "export/export.h"
#include "format/experiment.h"
#include "format/mpi_run.h"
#include "format/result.h"

namespace tasklens::exports {

// A rank's time t (ns since its start) on the run's time line: t + shift_ns + drift * t, never
// below 0.
struct RankClock {
  int64_t shift_ns = 0;
  double drift = 0;
  uint64_t map(uint64_t t) const { return shift_ns == 0 && drift == 0 ? t : map_moved(t); }
  uint64_t map_moved(uint64_t t) const;  // a rank whose clock is moved
};

struct RunRank {
  int64_t rank = 0;
  format::Experiment x;
  RankClock clock;
  std::string label() const { return "rank " + std::to_string(rank); }
};

// Opens every rank (an unreadable one, or one that is no trace, is an error), checks the options
// against each, and reads the clock offsets of each rank on another host than the first rank's
// (one replay of its MPI events; ranks on that host share its clock: analysis::mpi_same_clock).
Result<std::vector<RunRank>> open_run_ranks(const format::MpiRun& run, const ExportOptions& o);

// Replays the ranks in turn, each through the exporter `make` gives it (writing into the run's
// one output), and adds each rank's events, records and notes ("rank R: ...") to `all`.
using MakeRankExporter =
    std::function<std::unique_ptr<Exporter>(RunRank& rank, symbols::Symbolizer* symbols)>;
Result<bool> export_ranks(std::vector<RunRank>& ranks, const ExportOptions& o,
                          const replay::Progress& progress, const MakeRankExporter& make,
                          ExportSummary& all);

}  // namespace tasklens::exports
