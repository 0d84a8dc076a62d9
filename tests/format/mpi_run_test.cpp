// An MPI run's description (mpi-run.json) read from a damaged or hostile file: members of the
// wrong type are absent, and a rank count of 10^11 makes a few warnings, not a line per rank (it
// hung `report` before; a string threw nlohmann's type error out of it).
#include "format/mpi_run.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "format/json_in.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

namespace fs = std::filesystem;

// DIR with rank folders `ranks` and mpi-run.json holding `description`.
std::string run_dir(const std::vector<int64_t>& ranks, const std::string& description) {
  std::string dir = scratch_dir("mpi-run");
  fs::create_directories(dir);
  std::ofstream(dir + "/mpi-run.json") << description;
  for (int64_t r : ranks) fs::create_directories(dir + "/" + format::rank_dir_name(r));
  return dir;
}

std::string with_size(const std::string& size) {
  return R"({"format":"tasklens-mpi-run","mpi":{"size":)" + size +
         R"(},"program":{"args":["prog",7]}})";
}

TEST(MpiRunDescription, ASizeOfAnotherTypeIsUnknown) {
  for (std::string size : {R"("4")", "1e300", "[2]", "null", "-3", "18446744073709551615"}) {
    auto run = format::open_mpi_run(run_dir({0, 1}, with_size(size)));
    ASSERT_TRUE(run) << size;
    EXPECT_EQ(run->size, 0) << size;
    EXPECT_TRUE(run->warnings.empty()) << size << ": " << run->warnings.front();
    EXPECT_EQ(run->args, (std::vector<std::string>{"prog", "7"})) << size;
    EXPECT_EQ(run->ranks.size(), 2u);
  }
}

TEST(MpiRunDescription, AHugeSizeListsAFewMissingRanksAndCountsTheRest) {
  auto run = format::open_mpi_run(run_dir({0, 5}, with_size("100000000000")));
  ASSERT_TRUE(run);
  EXPECT_EQ(run->size, 100000000000);
  std::vector<std::string> expected;
  for (int r : {1, 2, 3, 4, 6, 7, 8, 9}) {
    expected.push_back("rank " + std::to_string(r) + " was not recorded (no rank-" +
                       std::to_string(r) + ")");
  }
  expected.push_back("99999999990 more of the run's 100000000000 ranks were not recorded");
  EXPECT_EQ(run->warnings, expected);
}

TEST(MpiRunDescription, EveryMissingRankIsNamedInASmallRun) {
  auto run = format::open_mpi_run(run_dir({1, 3, 7}, with_size("4")));
  ASSERT_TRUE(run);
  EXPECT_EQ(run->warnings,
            (std::vector<std::string>{
                "rank-7 is beyond the run's 4 ranks (left by an earlier run?)",
                "rank 0 was not recorded (no rank-0)", "rank 2 was not recorded (no rank-2)"}));
}

TEST(MpiRunDescription, ADescriptionThatIsNoObjectIsIgnored) {
  std::string dir = run_dir({0}, "[1, 2]");
  auto run = format::open_mpi_run(dir);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->size, 0);
  EXPECT_EQ(
      run->warnings,
      (std::vector<std::string>{dir + "/mpi-run.json is not an MPI run's description (ignored)"}));
}

TEST(LenientJson, IntegersReadOnlyWhenTheyFit) {
  auto j = nlohmann::json::parse(
      R"({"big": 18446744073709551615, "neg": -2, "float": 2.5, "text": "9", "ok": 12})");
  int64_t i = -1;
  format::lenient::read(j, "big", &i);
  EXPECT_EQ(i, -1);  // past INT64_MAX: absent
  format::lenient::read(j, "float", &i);
  format::lenient::read(j, "text", &i);
  EXPECT_EQ(i, -1);
  format::lenient::read(j, "neg", &i);
  EXPECT_EQ(i, -2);
  uint64_t u = 1;
  format::lenient::read(j, "neg", &u);
  EXPECT_EQ(u, 1u);  // negative: no uint64_t
  format::lenient::read(j, "big", &u);
  EXPECT_EQ(u, 18446744073709551615u);
  EXPECT_TRUE(format::lenient::object(j, "ok").empty());
  EXPECT_TRUE(format::lenient::array(nlohmann::json(3), "ok").empty());
}

}  // namespace
}  // namespace tasklens::testing
