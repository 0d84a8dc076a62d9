#include "format/mpi_run.h"

#include <algorithm>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "format/chunk.h"
#include "format/experiment_dir.h"
#include "format/json_in.h"
#include "format/metadata_keys.h"

namespace tasklens::format {
namespace fs = std::filesystem;
using nlohmann::json;

std::string rank_dir_name(int64_t rank) { return kRankPrefix + std::to_string(rank); }

std::vector<MpiRun::Rank> rank_folders(const std::string& dir) {
  std::vector<MpiRun::Rank> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(kRankPrefix, 0) != 0 || !is_tasklens_entry(name.c_str()) ||
        !entry.is_directory(ec)) {
      continue;
    }
    out.push_back({std::strtoll(name.c_str() + std::strlen(kRankPrefix), nullptr, 10),
                   entry.path().string()});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
  return out;
}

bool is_mpi_run(const std::string& dir) {
  std::error_code ec;
  if (fs::exists(fs::path(dir) / kMetadataFile, ec)) return false;
  return fs::exists(fs::path(dir) / kMpiRunFile, ec) || !rank_folders(dir).empty();
}

namespace {

// A warning for each rank below the run's size without a folder, the first kListed of them, then
// one for the rest: a damaged size (10^11) must not make a line per rank. `run.ranks` is sorted.
void note_missing_ranks(MpiRun& run) {
  constexpr int64_t kListed = 8;
  int64_t listed = 0, missing = 0, next = 0;  // next: the lowest rank not yet looked at
  auto gap = [&](int64_t end) {               // the ranks [next, end) have no folder
    for (int64_t r = next; r < end && listed < kListed; ++r, ++listed) {
      run.warnings.push_back("rank " + std::to_string(r) + " was not recorded (no " +
                             rank_dir_name(r) + ")");
    }
    missing += std::max<int64_t>(0, end - next);
  };
  for (const MpiRun::Rank& k : run.ranks) {
    if (k.rank >= run.size) break;
    if (k.rank < next) continue;  // a rank below 0, or one listed twice
    gap(k.rank);
    next = k.rank + 1;
  }
  gap(run.size);
  if (missing > listed) {
    run.warnings.push_back(std::to_string(missing - listed) + " more of the run's " +
                           std::to_string(run.size) + " ranks were not recorded");
  }
}

}  // namespace

Result<MpiRun> open_mpi_run(const std::string& dir) {
  MpiRun run;
  run.dir = dir;
  run.ranks = rank_folders(dir);
  fs::path desc = fs::path(dir) / kMpiRunFile;
  std::error_code ec;
  if (fs::exists(desc, ec)) {
    std::ifstream in(desc);
    auto parsed = parse_json(in);
    json j = parsed ? std::move(*parsed) : json();
    std::string marker;
    lenient::read(j, key::kFormat, &marker);
    if (marker == key::kMpiRunMarker) {
      lenient::read(lenient::object(j, key::kMpi), key::kSize, &run.size);
      if (run.size < 0) run.size = 0;
      for (const json& s : lenient::array(lenient::object(j, key::kProgram), key::kArgs)) {
        run.args.push_back(s.is_string() ? s.get<std::string>() : s.dump());
      }
    } else {
      run.warnings.push_back(desc.string() + " is not an MPI run's description (ignored)");
    }
  } else {
    run.warnings.push_back(desc.string() + " is missing (rank 0 did not start?)");
  }
  if (run.ranks.empty()) {
    return Error{dir + ": no rank-N folder: not an MPI run's directory"};
  }
  for (const MpiRun::Rank& k : run.ranks) {
    if (run.size > 0 && k.rank >= run.size) {
      run.warnings.push_back(rank_dir_name(k.rank) + " is beyond the run's " +
                             std::to_string(run.size) + " ranks (left by an earlier run?)");
    }
  }
  note_missing_ranks(run);
  return run;
}

json mpi_run_json(int64_t size, const std::vector<std::string>& args) {
  json ranks = json::array();
  for (int64_t r = 0; r < size; ++r) ranks.push_back({{key::kRank, r}, {key::kDir, rank_dir_name(r)}});
  return {{key::kFormat, key::kMpiRunMarker},
          {key::kFormatVersion, 1},
          {key::kMpi, {{key::kSize, size}}},
          {key::kProgram, {{key::kArgs, args}}},
          {key::kRanks, ranks}};
}

}  // namespace tasklens::format
