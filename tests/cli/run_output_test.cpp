// claim_mpi_rank_output on a directory an earlier MPI run of more ranks wrote: its extra rank
// folders must not join the new run (the report read them as ranks of it).
#include "cli/run_output.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "cli/mpi_run_output.h"
#include "format/mpi_run.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

namespace fs = std::filesystem;

// DIR as a 4-rank run leaves it: mpi-run.json and rank-0 .. rank-3, each an experiment.
std::string four_rank_run() {
  std::string dir = scratch_dir() + "/mpi";
  fs::create_directories(dir);
  std::ofstream(dir + "/mpi-run.json") << "{}\n";
  for (int r = 0; r < 4; ++r) {
    std::string rank = dir + "/" + format::rank_dir_name(r);
    fs::create_directories(rank);
    std::ofstream(rank + "/experiment.json") << "{}\n";
    std::ofstream(rank + "/thread-0000.tlt") << "x";
  }
  return dir;
}

std::vector<int64_t> ranks_in(const std::string& dir) {
  std::vector<int64_t> out;
  for (const auto& r : format::rank_folders(dir)) out.push_back(r.rank);
  return out;
}

TEST(MpiRankOutput, ForceRemovesTheRanksOfAnEarlierLargerRun) {
  std::string dir = four_rank_run();
  std::vector<std::string> args = {"prog"};
  for (long rank : {1L, 0L}) {
    cli::RunOutput out;
    std::string error;
    ASSERT_TRUE(cli::claim_mpi_rank_output(dir, rank, 2, /*force=*/true, args, &out, &error))
        << error;
    close(out.fd);
    EXPECT_TRUE(fs::is_empty(out.dir));  // its own folder cleared for the new recording
  }
  EXPECT_EQ(ranks_in(dir), (std::vector<int64_t>{0, 1}));
}

TEST(MpiRankOutput, RanksOfAnEarlierLargerRunAreRefusedWithoutForce) {
  std::string dir = four_rank_run();
  fs::remove_all(dir + "/" + format::rank_dir_name(0));
  fs::remove_all(dir + "/" + format::rank_dir_name(1));
  cli::RunOutput out;
  std::string error;
  EXPECT_FALSE(cli::claim_mpi_rank_output(dir, 0, 2, /*force=*/false, {"prog"}, &out, &error));
  if (out.fd >= 0) close(out.fd);
  EXPECT_EQ(error, dir +
                       "/rank-2 is a rank of an earlier run of more ranks; choose another -o, "
                       "or --force to replace it");
  EXPECT_EQ(ranks_in(dir), (std::vector<int64_t>{2, 3}));  // nothing made, nothing removed
}

TEST(MpiRankOutput, AStaleRankHoldingAnotherFileIsNotRemoved) {
  std::string dir = four_rank_run();
  std::ofstream(dir + "/rank-3/notes.txt") << "mine\n";
  cli::RunOutput out;
  std::string error;
  EXPECT_FALSE(cli::claim_mpi_rank_output(dir, 0, 2, /*force=*/true, {"prog"}, &out, &error));
  if (out.fd >= 0) close(out.fd);
  EXPECT_EQ(error, dir + "/rank-3/notes.txt was not written by tasklens: not removed");
  EXPECT_TRUE(fs::exists(dir + "/rank-3/notes.txt"));
}

}  // namespace
}  // namespace tasklens::testing
