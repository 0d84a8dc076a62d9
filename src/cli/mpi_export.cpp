#include "cli/mpi_export.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "format/experiment.h"
#include "format/json_in.h"

namespace tasklens::cli {
namespace fs = std::filesystem;

// Each rank's document as the exporter writes it; then its process ids moved to a range of its
// own (rank * 1000 + pid), its process names prefixed with the rank, and its times moved to a
// common origin: the earliest rank's start. The ranks of one host share CLOCK_MONOTONIC, which
// each experiment's clock names (clock.start_monotonic_ns); ranks on several hosts would need the
// Init offsets of the mpi section (not applied yet, docs/MPI.md).
bool export_mpi_run_perfetto_json(const format::MpiRun& run, const exports::ExportFormat& format,
                                  const std::string& out, const exports::ExportOptions& options,
                                  std::string* error) {
  std::vector<format::Experiment> ranks;
  uint64_t origin = UINT64_MAX;
  for (const auto& r : run.ranks) {
    auto x = format::open_experiment(r.dir);
    if (!x) {
      *error = x.error().message;
      return false;
    }
    origin = std::min(origin, x->clock.start_monotonic_ns);
    ranks.push_back(std::move(*x));
  }
  nlohmann::json all = nlohmann::json::array();
  for (size_t i = 0; i < ranks.size(); ++i) {
    std::string tmp = out + ".rank-" + std::to_string(run.ranks[i].rank) + ".tmp";
    auto s = exports::export_experiment(ranks[i], format, tmp, options, nullptr);
    if (!s) {
      *error = s.error().message;
      return false;
    }
    std::ifstream in(tmp);
    auto parsed = format::parse_json(in);
    fs::remove(tmp);
    nlohmann::json doc = parsed ? std::move(*parsed) : nlohmann::json();
    if (!doc.is_object() || !doc.contains("traceEvents")) {
      *error = "rank " + std::to_string(run.ranks[i].rank) + ": the export is not trace-event JSON";
      return false;
    }
    int64_t rank = run.ranks[i].rank;
    double shift_us = double(ranks[i].clock.start_monotonic_ns - origin) / 1000.0;
    for (nlohmann::json& e : doc["traceEvents"]) {
      if (e.contains("pid") && e["pid"].is_number_integer()) {
        e["pid"] = rank * 1000 + e["pid"].get<int64_t>();
      }
      if (e.contains("ts") && e["ts"].is_number()) e["ts"] = e["ts"].get<double>() + shift_us;
      if (e.value("name", "") == "process_name" && e.contains("args")) {
        e["args"]["name"] =
            "rank " + std::to_string(rank) + ": " + e["args"].value("name", std::string());
      }
      all.push_back(std::move(e));
    }
  }
  std::ofstream f(out);
  f << nlohmann::json{{"displayTimeUnit", "ns"}, {"traceEvents", std::move(all)}}.dump() << "\n";
  if (!f) {
    *error = "cannot write " + out;
    return false;
  }
  return true;
}

}  // namespace tasklens::cli
