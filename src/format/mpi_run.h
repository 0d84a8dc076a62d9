// An MPI run's directory (docs/MPI.md): `mpirun -np R tasklens run -o DIR` records rank r into
// DIR/rank-r, a whole experiment of its own, and rank 0 describes the run in DIR/mpi-run.json.
// The description is written and read here; the keys are metadata_keys.h's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "format/result.h"

namespace tasklens::format {

struct MpiRun {
  struct Rank {
    int64_t rank = 0;
    std::string dir;  // DIR/rank-r
  };
  std::string dir;
  int64_t size = 0;               // the ranks the launcher started (0: unknown)
  std::vector<std::string> args;  // the command every rank ran
  std::vector<Rank> ranks;        // the rank folders found, by rank
  std::vector<std::string> warnings;  // ranks missing, a description that does not read
};

// "rank-7".
std::string rank_dir_name(int64_t rank);

// The rank-r folders of `dir`, by rank.
std::vector<MpiRun::Rank> rank_folders(const std::string& dir);

// True when `dir` is an MPI run's directory: mpi-run.json or rank-r folders, no experiment.json.
bool is_mpi_run(const std::string& dir);

// Reads the description (when there) and lists the rank folders. Error: no rank folder at all.
Result<MpiRun> open_mpi_run(const std::string& dir);

// The content of mpi-run.json for a run of `size` ranks of `args` (rank folders rank-0 ...).
nlohmann::json mpi_run_json(int64_t size, const std::vector<std::string>& args);

}  // namespace tasklens::format
