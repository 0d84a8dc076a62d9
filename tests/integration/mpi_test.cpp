// MPI+OpenMP end to end (issue 21, docs/MPI.md): examples/mpi_tasks under
// `mpirun --oversubscribe -np 2 tasklens run -n 2`: both ranks land in one directory, each in
// its own rank-r experiment that `check` finds sound with the exact task count; the report puts
// rank 0's wait in the barrier (rank 1 sleeps 200 ms before it) in mpi_ns.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <string>

#include "format/experiment.h"
#include "support/recording.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"
#include "mpi_recording.h"

namespace tasklens::testing {

// `mpirun -np 2 tasklens run -q -n 2 -o DIR -- mpi_tasks`, once for every test.
MpiRecording record_mpi_example(const std::string& example_name,
                                const std::vector<std::string>& args) {
  MpiRecording r;
  r.dir = scratch_dir(example_name) + "/run";
  std::vector<std::string> command = {TASKLENS_MPIEXEC, "--oversubscribe", "--allow-run-as-root",
                                      "-np", "2", tasklens_bin(), "run", "-q", "-n", "2", "-o",
                                      r.dir, "--", example(example_name)};
  command.insert(command.end(), args.begin(), args.end());
  r.run = run_command(command, kMpiRootEnv);
  return r;
}

const MpiRecording& mpi_recording() {
  static const MpiRecording rec = record_mpi_example(
      "mpi_tasks", {std::to_string(kMpiTasks), std::to_string(kMpiDelayMs)});
  return rec;
}

namespace {

constexpr int kTasks = kMpiTasks;
constexpr int kDelayMs = kMpiDelayMs;
const std::vector<std::string>& kRootEnv = kMpiRootEnv;

const MpiRecording& recording() { return mpi_recording(); }

TEST(MpiRun, EveryRankIsRecordedIntoItsOwnFolderOfOneDirectory) {
  const MpiRecording& rec = recording();
  ASSERT_EQ(rec.run.status, 0) << rec.run.out << rec.run.err;
  for (int r = 0; r < 2; ++r) {
    EXPECT_NE(rec.run.out.find("rank=" + std::to_string(r) + " size=2 threads=2 tasks=20 "),
              std::string::npos)
        << rec.run.out;
    auto x = format::open_experiment(rec.dir + "/rank-" + std::to_string(r));
    ASSERT_TRUE(x) << x.error().message;
    ASSERT_TRUE(x->metadata.mpi);
    EXPECT_EQ(x->metadata.mpi->rank, r);
    EXPECT_EQ(x->metadata.mpi->size, 2);
    EXPECT_EQ(x->metadata.explicit_tasks.value_or(0), uint64_t(kTasks));
  }
  EXPECT_FALSE(std::filesystem::exists(rec.dir + "/experiment.json"));
  nlohmann::json desc = nlohmann::json::parse(read_file(rec.dir + "/mpi-run.json"));
  EXPECT_EQ(desc["format"], "tasklens-mpi-run");
  EXPECT_EQ(desc["mpi"]["size"], 2);
  EXPECT_EQ(desc["ranks"].size(), 2u);
}

TEST(MpiRun, CheckFindsEveryRankSoundWithItsTasks) {
  const MpiRecording& rec = recording();
  ASSERT_EQ(rec.run.status, 0) << rec.run.err;
  CommandResult all = run_command({tasklens_bin(), "check", rec.dir});
  EXPECT_EQ(all.status, 0) << all.out << all.err;
  EXPECT_NE(all.out.find("MPI run of 2 ranks (2 recorded)"), std::string::npos) << all.out;
  std::string counts = "explicit tasks 20 created / 20 started / 20 completed";
  size_t first = all.out.find(counts);
  ASSERT_NE(first, std::string::npos) << all.out;
  EXPECT_NE(all.out.find(counts, first + 1), std::string::npos) << all.out;
  // A rank's folder is an experiment of its own.
  CommandResult one = run_command({tasklens_bin(), "check", rec.dir + "/rank-1"});
  EXPECT_EQ(one.status, 0) << one.out;
  EXPECT_NE(one.out.find(counts), std::string::npos) << one.out;
}

TEST(MpiRun, TheRankThatWaitsInTheBarrierShowsItAsMpiTime) {
  const MpiRecording& rec = recording();
  ASSERT_EQ(rec.run.status, 0) << rec.run.err;
  JsonReport rep = report_json(rec.dir, {});
  ASSERT_EQ(rep.command.status, 0) << rep.command.err;
  ASSERT_FALSE(rep.doc.is_discarded()) << rep.command.out;
  const auto& ranks = rep.doc["ranks"];
  ASSERT_EQ(ranks.size(), 2u);
  for (int r = 0; r < 2; ++r) {
    EXPECT_EQ(ranks[r]["rank"], r);
    for (const char* k : {"work_ns", "overhead_ns", "idle_ns", "mpi_ns", "total_ns"}) {
      EXPECT_TRUE(ranks[r]["breakdown"].contains(k)) << k;
    }
    EXPECT_EQ(ranks[r]["report"]["mpi"]["rank"], r);
  }
  // What rank 0 measured around its MPI_Barrier, and what it was made to be.
  size_t line0 = rec.run.out.find("rank=0");
  ASSERT_NE(line0, std::string::npos) << rec.run.out;
  long long measured = printed_value(rec.run.out.substr(line0), "barrier_ns");
  ASSERT_GT(measured, 0) << rec.run.out;
  uint64_t mpi0 = ranks[0]["breakdown"]["mpi_ns"];
  uint64_t mpi1 = ranks[1]["breakdown"]["mpi_ns"];
  // The barrier, plus an Allreduce that does not wait: within 15 % of what the program saw.
  EXPECT_NEAR(double(mpi0), double(measured), 0.15 * double(measured)) << rep.command.out;
  EXPECT_LT(mpi1, mpi0 / 2) << rep.command.out;
  if (std::abs(double(measured) - kDelayMs * 1e6) > 0.15 * kDelayMs * 1e6) {
    GTEST_SKIP() << "the machine is loaded: rank 0 waited " << measured << " ns, not ~200 ms";
  }
  EXPECT_NEAR(double(mpi0), kDelayMs * 1e6, 0.15 * kDelayMs * 1e6);
  // Rank 1 slept where rank 0 waited: it has the most work, rank 0 the most MPI time.
  const auto& im = rep.doc["imbalance"];
  EXPECT_EQ(im["max_work_rank"], 1);
  EXPECT_EQ(im["most_waiting_rank"], 0);
  EXPECT_GT(im["load_balance"].get<double>(), 0.0);
  EXPECT_LT(im["load_balance"].get<double>(), 0.9);
}

// Rank 1 sleeps before the barrier: rank 0 waits on it there, for the time it measured itself;
// the Allreduce after it is matched too (2 collectives, on MPI_COMM_WORLD). What rank 0 measured
// is its wait only when the barrier let it go as rank 1 arrived: under load (5 on 2 cores) it
// measured 264 ms for a wait of 200 ms, and rank 1 waited the 64 ms more at the Allreduce (1 of
// 12 runs failed). The times are judged, as in the test above, when rank 0 measured the delay.
TEST(MpiRun, TheRankThatArrivesLateIsTheOneTheOthersWaitOn) {
  const MpiRecording& rec = recording();
  ASSERT_EQ(rec.run.status, 0) << rec.run.err;
  JsonReport rep = report_json(rec.dir, {});
  ASSERT_EQ(rep.command.status, 0) << rep.command.err;
  const auto& w = rep.doc["waits"];
  EXPECT_EQ(w["collectives_matched"], 2) << w.dump();
  EXPECT_EQ(w["collective_calls_left_out"], 0);
  EXPECT_EQ(w["most_waiting_rank"], 0);
  EXPECT_EQ(w["most_waited_on_rank"], 1);
  ASSERT_EQ(w["ranks"].size(), 2u);
  const auto& r0 = w["ranks"][0];
  const auto& r1 = w["ranks"][1];
  EXPECT_EQ(r0["waited_most_on"], 1);
  EXPECT_GE(r1["arrived_last"].get<uint64_t>(), 1u);  // the barrier (the Allreduce: either)
  size_t line0 = rec.run.out.find("rank=0");
  ASSERT_NE(line0, std::string::npos) << rec.run.out;
  long long measured = printed_value(rec.run.out.substr(line0), "barrier_ns");
  uint64_t waited = r0["collective_wait_ns"];
  EXPECT_EQ(r1["made_others_wait_ns"].get<uint64_t>(), r0["waited_most_on_ns"].get<uint64_t>());
  // The calls were there for the matching: not in the ranks' own documents.
  EXPECT_FALSE(rep.doc["ranks"][0]["report"]["mpi"].contains("collectives"));
  if (std::abs(double(measured) - kDelayMs * 1e6) > 0.15 * kDelayMs * 1e6) {
    GTEST_SKIP() << "the machine is loaded: rank 0 waited " << measured << " ns, not ~200 ms";
  }
  EXPECT_NEAR(double(waited), double(measured), 0.15 * double(measured)) << w.dump();
  EXPECT_LT(r1["collective_wait_ns"].get<uint64_t>(), waited / 10) << w.dump();
}

// `mpirun -np P tasklens report DIR --json`: the ranks' reports made by P processes, one document
// printed by process 0 alone, byte for byte the serial one.
TEST(MpiRun, TheParallelReportEqualsTheSerialOne) {
  const MpiRecording& rec = recording();
  ASSERT_EQ(rec.run.status, 0) << rec.run.err;
  CommandResult serial = run_command({tasklens_bin(), "report", rec.dir, "--json"});
  ASSERT_EQ(serial.status, 0) << serial.err;
  for (const char* procs : {"2", "3"}) {
    CommandResult par = run_command({TASKLENS_MPIEXEC, "--oversubscribe", "--allow-run-as-root",
                                     "-np", procs, tasklens_bin(), "report", rec.dir, "--json"},
                                    kRootEnv);
    EXPECT_EQ(par.status, 0) << par.err;
    EXPECT_EQ(par.out, serial.out) << procs << " processes";
  }
}

TEST(MpiRun, PerfettoJsonHasAProcessGroupPerRank) {
  const MpiRecording& rec = recording();
  ASSERT_EQ(rec.run.status, 0) << rec.run.err;
  std::string out = scratch_dir("mpi-export") + "/run.json";
  CommandResult ex = run_command({tasklens_bin(), "export", rec.dir, "--to", "perfetto-json",
                                  "-o", out});
  ASSERT_EQ(ex.status, 0) << ex.err;
  nlohmann::json doc = nlohmann::json::parse(read_file(out), nullptr, false);
  ASSERT_TRUE(doc.is_object());
  int named[2] = {0, 0};
  std::set<std::string> tasks[2];  // the task ids that begin in each rank's group
  for (const auto& e : doc["traceEvents"]) {
    int64_t rank = e.value("pid", int64_t(0)) / 1000;
    ASSERT_TRUE(rank == 0 || rank == 1) << e.dump();
    if (e.value("name", "") == "process_name") {
      std::string name = e["args"].value("name", "");
      EXPECT_EQ(name.rfind("rank " + std::to_string(rank) + ": ", 0), 0u) << name;
      ++named[rank];
    }
    if (e.value("ph", "") == "B" && e.value("cat", "") == "task" &&
        e.value("name", "").find("mpi_tasks.c:28") != std::string::npos) {
      tasks[rank].insert(e["args"].value("task", ""));
    }
  }
  EXPECT_GT(named[0], 0);
  EXPECT_EQ(named[0], named[1]);
  // Every explicit task of each rank starts once in its own group.
  EXPECT_EQ(tasks[0].size(), size_t(kTasks));
  EXPECT_EQ(tasks[1].size(), size_t(kTasks));
}

}  // namespace
}  // namespace tasklens::testing
