// `tasklens run` under an MPI launcher: every rank claims its own folder of the shared
// directory, and rank 0 describes the whole run (docs/MPI.md).
#pragma once

#include <string>
#include <vector>

#include "cli/run_output.h"

namespace tasklens::cli {

// Under an MPI launcher (format::mpi_place_from_env): every rank's `tasklens run` shares `dir`
// and claims its own DIR/rank-r in `out` (as claim_run_output does, `force` for that folder
// only); rank 0 writes DIR/mpi-run.json, the description of the whole run (docs/MPI.md), and
// first removes (with `force`; refuses without) the rank folders of an earlier run of more
// ranks, which would join this run's report. A `dir` holding a single-process experiment is
// refused.
bool claim_mpi_rank_output(const std::string& dir, long rank, long size, bool force,
                           const std::vector<std::string>& args, RunOutput* out,
                           std::string* error);

// The default directory of an MPI run: one name every rank derives alike, from the launcher's
// job id (PMIX_NAMESPACE, OMPI_MCA_ess_base_jobid); "" when the launcher gives none.
std::string default_mpi_output_dir(const std::string& program);

}  // namespace tasklens::cli
