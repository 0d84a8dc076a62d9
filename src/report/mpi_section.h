// The MPI section of `tasklens report` (docs/MPI.md, docs/REPORT.md "mpi"): the time this rank
// spent in MPI calls (Init/Finalize apart), per call, and the clock samples of Init and
// Finalize. On by itself for a rank of an MPI run (experiment.json's "mpi"), else --mpi.
#pragma once

#include <memory>

#include "analysis/mpi_time.h"
#include "report/section.h"

namespace tasklens::report {

std::unique_ptr<Section> make_mpi_section(const ReportOptions& options);
// The MPI time `section` computed, when it is the MPI section (after the replay).
const analysis::MpiTime* mpi_time_of(const Section& section);

}  // namespace tasklens::report
