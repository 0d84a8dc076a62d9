// open_experiment: reads experiment.json, calibrates the clock, lists the thread streams.
#include "format/experiment.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>

#include "format/chunk.h"
#include "format/experiment_dir.h"
#include "format/stream_reader.h"

namespace tasklens::format {
namespace fs = std::filesystem;

const std::string& Experiment::string(uint64_t id) const {
  static const std::string unknown = "?";
  return id >= 1 && id <= strings.size() ? strings[id - 1] : unknown;
}

std::string Experiment::program_name() const {
  std::string path = meta.value("/program/path"_json_pointer, std::string());
  return path.empty() ? std::string("?") : fs::path(path).filename().string();
}

uint64_t hex_address(const nlohmann::json& v) {
  return v.is_string() ? std::strtoull(v.get<std::string>().c_str(), nullptr, 16) : 0;
}

namespace {

uint64_t u64_at(const nlohmann::json& j, const char* ptr) {
  auto p = nlohmann::json::json_pointer(ptr);
  return j.contains(p) && j.at(p).is_number_unsigned() ? j.at(p).get<uint64_t>() : 0;
}

// The latest (ticks, ns) sample of any chunk header: the end of a run that wrote no final one.
bool latest_chunk_sample(const std::vector<std::string>& streams, uint64_t* ticks, uint64_t* ns) {
  bool found = false;
  for (const auto& path : streams) {
    auto r = StreamReader::open(path);
    if (!r) continue;
    for (const ChunkHeader& h : (*r)->scan_headers()) {
      if (h.calib_ns > *ns) *ticks = h.calib_ticks, *ns = h.calib_ns, found = true;
    }
  }
  return found;
}

}  // namespace

Result<Experiment> open_experiment(const std::string& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return Error{dir + ": no such file or directory"};
  if (!fs::is_directory(dir, ec)) {
    return Error{dir + ": not a directory (tasklens reads the experiment directory that "
                       "`tasklens run` wrote)"};
  }
  Experiment x;
  x.dir = dir;
  fs::path meta_path = fs::path(dir) / kMetadataFile;
  std::ifstream in(meta_path);
  if (!in) {
    return Error{dir + ": not a tasklens experiment (no " + std::string(kMetadataFile) + ")"};
  }
  x.meta = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (x.meta.is_discarded() || !x.meta.is_object()) {
    return Error{meta_path.string() + ": corrupt metadata (not valid JSON)"};
  }
  if (x.meta.value("format", std::string()) != "tasklens-experiment") {
    return Error{meta_path.string() + ": not a tasklens experiment (no \"format\" marker)"};
  }
  uint64_t version = x.meta.value("format_version", uint64_t(0));
  if (version != kFormatVersion) {
    const char* which = version < kFormatVersion ? "an older" : "a newer";
    return Error{meta_path.string() + ": written by " + which + " tasklens (format version " +
                 std::to_string(version) + "; this tasklens reads version " +
                 std::to_string(kFormatVersion) + ")"};
  }
  x.status = x.meta.value("status", std::string("?"));

  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(kStreamPrefix, 0) == 0 && entry.path().extension() == kStreamSuffix) {
      x.streams.push_back(entry.path().string());
    }
  }
  std::sort(x.streams.begin(), x.streams.end());
  if (x.meta.contains("strings") && x.meta["strings"].is_array()) {
    for (const auto& s : x.meta["strings"]) x.strings.push_back(s.is_string() ? s.get<std::string>() : "?");
  }

  const nlohmann::json::json_pointer code("/runtime/code");
  if (x.meta.contains(code) && x.meta.at(code).is_array() && x.meta.at(code).size() == 2) {
    x.runtime_code_begin = hex_address(x.meta.at(code)[0]);
    x.runtime_code_end = hex_address(x.meta.at(code)[1]);
  }
  Clock& c = x.clock;
  c.source = x.meta.value("/clock/source"_json_pointer, std::string("tsc"));
  c.start_ticks = u64_at(x.meta, "/clock/start/ticks");
  uint64_t start_ns = u64_at(x.meta, "/clock/start/ns");
  uint64_t end_ticks = u64_at(x.meta, "/clock/end/ticks");
  uint64_t end_ns = u64_at(x.meta, "/clock/end/ns");
  bool final_end = x.meta.value("/clock/end_is_final"_json_pointer, false);
  if (!final_end) latest_chunk_sample(x.streams, &end_ticks, &end_ns);
  if (c.source == "monotonic") {
    c.ns_per_tick = 1.0;
  } else if (end_ticks > c.start_ticks && end_ns > start_ns) {
    c.ns_per_tick = double(end_ns - start_ns) / double(end_ticks - c.start_ticks);
  } else {
    c.calibrated = false;
    c.ns_per_tick = 1.0 / 2.5;  // a 2.5 GHz guess
    x.warnings.push_back("the run ended before its clock could be calibrated; times are "
                         "approximate (assuming a 2.5 GHz TSC)");
  }
  // The origin moves back from the recorder's start to the process's: the program's serial
  // start, before the OpenMP runtime loaded the recorder, belongs to the run.
  c.start_monotonic_ns = start_ns;
  uint64_t process_start = u64_at(x.meta, "/process/start_ns");
  if (process_start && process_start < start_ns) {
    auto back = uint64_t(double(start_ns - process_start) / c.ns_per_tick + 0.5);
    c.start_ticks = c.start_ticks > back ? c.start_ticks - back : 0;
    c.start_monotonic_ns = process_start;
    c.recorder_start_ns = start_ns - process_start;
  }
  if (final_end && end_ticks > c.start_ticks) c.exit_ns = c.to_ns(end_ticks);
  if (x.status == "running") {
    x.warnings.push_back("the run did not finish (killed, or still running): the trace ends at "
                         "the last chunk written");
  } else if (x.status == "crashed" || x.status == "interrupted") {
    x.warnings.push_back("the run ended on " + x.meta.value("end_reason", std::string("a signal")) +
                         "; the trace holds what was flushed then");
  }
  uint64_t lost = u64_at(x.meta, "/recorder/events_lost");
  if (lost) x.warnings.push_back(std::to_string(lost) + " events were lost by the recorder");
  std::string write_error = x.meta.value("/recorder/write_error"_json_pointer, std::string());
  if (!write_error.empty()) x.warnings.push_back("write error during the run: " + write_error);
  // The experiments of other processes of the run (docs/RECORDER.md, "The output directory"),
  // found in the directory: the metadata's processes[] lists only those seen while it was written.
  std::vector<std::string> others;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("pid-", 0) == 0 && is_tasklens_entry(name.c_str()) && entry.is_directory(ec)) {
      others.push_back(entry.path().string());
    }
  }
  std::sort(others.begin(), others.end());
  if (!others.empty()) {
    std::string list;
    for (const std::string& o : others) list += (list.empty() ? "" : ", ") + o;
    x.warnings.push_back(std::to_string(others.size()) +
                         " other processes of this run were recorded in experiments of their "
                         "own, not in this one: " + list);
  }
  return x;
}

}  // namespace tasklens::format
