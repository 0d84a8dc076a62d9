// Who waits on whom in an MPI run's collectives (docs/MPI.md, docs/REPORT.md "MPI runs"): the
// ranks' collective calls (the mpi section's `collectives`, on rank 0's clock) matched across
// ranks -- the n-th collective on a communicator of every rank that uses it is one operation --
// and in each, every rank waits from its arrival until the last rank arrives (or until it leaves,
// if sooner): the last to arrive is the one the others wait on.
// In point-to-point calls (the section's `p2p`): blocking sends and receives on MPI_COMM_WORLD
// matched by (source, destination, tag, order), late senders and late receivers (Scalasca's).
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "format/mpi_run.h"

namespace tasklens::report {

// The `waits` key of the MPI run's report; `rank_docs[i]` is run.ranks[i]'s report document.
nlohmann::json mpi_waits_json(const format::MpiRun& run, const std::vector<nlohmann::json>& rank_docs);

}  // namespace tasklens::report
