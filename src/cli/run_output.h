// `tasklens run`'s experiment directory: claimed before the program starts (never a symbolic
// link, locked, empty or holding only tasklens's files with --force), passed to the recorder as
// an open descriptor, and removed again when nothing was recorded.
#pragma once

#include <string>
#include <vector>

namespace tasklens::cli {

struct RunOutput {
  std::string dir;
  int fd = -1;           // open and locked until the summary is printed; inherited by the program
  bool created = false;  // the directory did not exist before
};

// Claims `dir`. With `force`, files tasklens wrote there before are removed first; any other
// file is refused. False with a message in `error`.
bool claim_run_output(const std::string& dir, bool force, RunOutput* out, std::string* error);

// After a run that recorded nothing: removes what tasklens created (the libgomp shim, and the
// directory itself when it made it).
void remove_unused_output(const RunOutput& out);

// The pid-N folders of the processes recorded below the top one, sorted by pid.
std::vector<std::string> descendant_experiments(const std::string& dir);

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
