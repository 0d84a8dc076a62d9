// An MPI rank's share of `tasklens run`'s experiment directory (docs/MPI.md).
#include "cli/mpi_run_output.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/run_output.h"
#include "format/chunk.h"
#include "format/experiment_dir.h"
#include "format/mpi_env.h"
#include "format/mpi_run.h"

namespace tasklens::cli {
namespace fs = std::filesystem;

namespace {

// The rank folders of an earlier run of more ranks than this one's `size` (the report would
// take them for ranks of this run): removed with `force` (tasklens's files only), refused
// otherwise.
bool clear_stale_ranks(const std::string& dir, long size, bool force, std::string* error) {
  for (const format::MpiRun::Rank& r : format::rank_folders(dir)) {
    if (size <= 0 || r.rank < size) continue;  // an unknown size: nothing to tell stale
    std::error_code ec;
    if (!force) {
      *error = r.dir +
               " is a rank of an earlier run of more ranks; choose another -o, or "
               "--force to replace it";
      return false;
    }
    if (fs::is_symlink(r.dir, ec) || !clear_tasklens_files(r.dir, error)) {
      if (error->empty()) *error = r.dir + " is a symbolic link: not removed";
      return false;
    }
    fs::remove(r.dir, ec);
    if (ec) {
      *error = "cannot remove " + r.dir + ": " + ec.message();
      return false;
    }
  }
  return true;
}

}  // namespace

bool claim_mpi_rank_output(const std::string& dir, long rank, long size, bool force,
                           const std::vector<std::string>& args, RunOutput* out,
                           std::string* error) {
  char why[4400];
  int fd = format::open_experiment_dir(dir.c_str(), why, sizeof why);  // every rank: mkdir -p
  if (fd < 0) {
    *error = why;
    return false;
  }
  close(fd);
  std::error_code ec;
  if (fs::exists(fs::path(dir) / format::kMetadataFile, ec)) {
    *error = dir + " holds the experiment of a single process, not an MPI run; choose another -o";
    return false;
  }
  if (rank == 0 && !clear_stale_ranks(dir, size, force, error)) return false;
  if (!claim_run_output((fs::path(dir) / format::rank_dir_name(rank)).string(), force, out,
                        error)) {
    return false;
  }
  if (rank == 0) {
    // Written whole then renamed: readers never see half of it.
    fs::path desc = fs::path(dir) / format::kMpiRunFile;
    fs::path tmp = desc.string() + ".tmp";
    {
      std::ofstream f(tmp);
      f << format::mpi_run_json(size, args).dump(1) << "\n";
      if (!f) {
        *error = "cannot write " + tmp.string();
        return false;
      }
    }
    fs::rename(tmp, desc, ec);
    if (ec) {
      *error = "cannot write " + desc.string() + ": " + ec.message();
      return false;
    }
  }
  return true;
}

std::string default_mpi_output_dir(const std::string& program) {
  std::string job = format::mpi_job_id();
  return job.empty() ? "" : "tasklens-" + fs::path(program).filename().string() + "-mpi-" + job;
}

}  // namespace tasklens::cli
