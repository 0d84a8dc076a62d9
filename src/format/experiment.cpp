// open_experiment: reads experiment.json, calibrates the clock, lists the thread streams.
#include "format/experiment.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <cstdio>
#include <memory>
#include <string_view>

#include "format/chunk.h"
#include "format/experiment_dir.h"
#include "format/json_in.h"
#include "format/kinds.h"
#include "format/metadata_keys.h"
#include "format/mpi_run.h"
#include "format/stream_reader.h"

namespace tasklens::format {
namespace fs = std::filesystem;

const std::string& Experiment::string(uint64_t id) const {
  static const std::string unknown = "?";
  return id >= 1 && id <= strings.size() ? strings[id - 1] : unknown;
}

std::vector<uint32_t> Experiment::thread_ids() const {
  std::vector<uint32_t> ids;
  for (const StreamInfo& st : inventory) {
    if (st.error.empty()) ids.push_back(st.thread);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

const std::string* Experiment::first_unreadable_stream() const {
  for (const StreamInfo& st : inventory) {
    if (!st.error.empty()) return &st.error;
  }
  return nullptr;
}

namespace {

// Plausible clock rates: 20 GHz to 20 MHz.
constexpr double kMinNsPerTick = 0.05, kMaxNsPerTick = 50;

std::string fmt_rate(const std::string& meta_path, bool final_end, double ns_per_tick) {
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.3g GHz", 1.0 / ns_per_tick);
  return meta_path + ": " + (final_end ? "clock.end" : "the chunks' clock samples") +
         " against clock.start give a " + rate +
         " clock, which no machine has; times assume a 2.5 GHz TSC";
}

// Every stream's header and chunk headers, read once.
std::vector<StreamInfo> take_inventory(const std::vector<std::string>& streams) {
  std::vector<StreamInfo> out;
  for (const auto& path : streams) {
    StreamInfo& st = out.emplace_back();
    st.path = path;
    auto r = StreamReader::open(path);
    if (!r) {
      st.error = r.error().message;
      continue;
    }
    st.thread = (*r)->thread();
    const StreamReader::LatestTimes t = (*r)->latest_times();
    st.last_ticks = t.last_ticks;
    st.calib_ticks = t.calib_ticks;
    st.calib_ns = t.calib_ns;
  }
  return out;
}

// The latest (ticks, ns) sample of any chunk header: the end of a run that wrote no final one.
void latest_chunk_sample(const std::vector<StreamInfo>& inventory, uint64_t* ticks, uint64_t* ns) {
  for (const StreamInfo& st : inventory) {
    if (st.calib_ns > *ns) *ticks = st.calib_ticks, *ns = st.calib_ns;
  }
}

// The metadata fields the tools read, with the type each must have. A field of another type is
// dropped (its default used) and said, so that no reader meets a type it does not expect.
// Parents come before their children.
struct FieldType {
  std::string pointer;
  nlohmann::json::value_t type;
};
constexpr nlohmann::json::value_t kObject = nlohmann::json::value_t::object;
constexpr nlohmann::json::value_t kArray = nlohmann::json::value_t::array;
constexpr nlohmann::json::value_t kString = nlohmann::json::value_t::string;
constexpr nlohmann::json::value_t kUnsigned = nlohmann::json::value_t::number_unsigned;
constexpr nlohmann::json::value_t kBool = nlohmann::json::value_t::boolean;
// A JSON pointer to a member: pointer({key::kClock, key::kEnd}) is "/clock/end".
std::string pointer(std::initializer_list<const char*> keys) {
  std::string p;
  for (const char* k : keys) p += std::string("/") + k;
  return p;
}

const std::vector<FieldType>& fields() {
  using namespace key;
  static const std::vector<FieldType> kFields = {
      {pointer({kFormat}), kString},
      {pointer({key::kFormatVersion}), kUnsigned},
      {pointer({kStatus}), kString},
      {pointer({kEndReason}), kString},
      {pointer({kHost}), kString},
      {pointer({kStartUnixNs}), kUnsigned},
      {pointer({kExplicitTasks}), kUnsigned},
      {pointer({kStrings}), kArray},
      {pointer({kObjects}), kArray},
      {pointer({kThreads}), kArray},
      {pointer({kProgram}), kObject},
      {pointer({kProgram, kPath}), kString},
      {pointer({kProgram, kArgs}), kArray},
      {pointer({kProgram, kPid}), kUnsigned},
      {pointer({kRuntime}), kObject},
      {pointer({kRuntime, kVersion}), kString},
      {pointer({kRuntime, kCode}), kArray},
      {pointer({kClock}), kObject},
      {pointer({kClock, kSource}), kString},
      {pointer({kClock, kEndIsFinal}), kBool},
      {pointer({kClock, kStart}), kObject},
      {pointer({kClock, kEnd}), kObject},
      {pointer({kClock, kStart, kTicks}), kUnsigned},
      {pointer({kClock, kStart, kNs}), kUnsigned},
      {pointer({kClock, kEnd, kTicks}), kUnsigned},
      {pointer({kClock, kEnd, kNs}), kUnsigned},
      {pointer({kRecorder}), kObject},
      {pointer({kRecorder, kEventsLost}), kUnsigned},
      {pointer({kRecorder, kEventsWritten}), kUnsigned},
      {pointer({kRecorder, kChunkEvents}), kUnsigned},
      {pointer({kRecorder, kWriteError}), kString},
      {pointer({kCounts}), kObject},
      {pointer({kCounts, layout(Kind::kTaskCreate).name.data()}), kUnsigned},
      {pointer({kCounts, layout(Kind::kImplicitTask).name.data()}), kUnsigned},
      {pointer({kCounts, layout(Kind::kParallelBegin).name.data()}), kUnsigned},
  };
  return kFields;
}

// "/clock/end/ticks" -> "clock.end.ticks", as the messages name fields.
std::string field_name(const std::string& pointer) {
  std::string s = pointer.substr(1);
  std::replace(s.begin(), s.end(), '/', '.');
  return s;
}

const char* type_name(nlohmann::json::value_t t) {
  switch (t) {
    case kObject: return "an object";
    case kArray: return "an array";
    case kString: return "a string";
    case kUnsigned: return "a non-negative integer";
    case kBool: return "true or false";
    default: return "a value";
  }
}

void drop_mistyped_fields(nlohmann::json& meta, const std::string& file,
                          std::vector<std::string>* damage) {
  for (const FieldType& f : fields()) {
    nlohmann::json::json_pointer p(f.pointer);
    if (!meta.contains(p)) continue;
    const nlohmann::json& v = meta.at(p);
    bool ok = v.type() == f.type;
    // The program's arguments are printed as strings.
    if (ok && f.pointer == pointer({key::kProgram, key::kArgs})) {
      for (const auto& a : v) ok &= a.is_string();
    }
    if (ok) continue;
    damage->push_back(file + ": " + field_name(f.pointer) + " is not " + type_name(f.type) +
                      " (" + v.dump().substr(0, 40) + "); ignored");
    meta.at(p.parent_pointer()).erase(p.back());
  }
}

// The recorded threads whose stream is missing or holds no chunk, though the metadata counts
// events for them: one line each, saying what was lost.
void find_lost_streams(Experiment& x) {
  for (const Metadata::Thread& t : x.metadata.threads) {
    uint64_t index = t.index, events = t.events;
    if (events == 0 || index >= kMaxThreads) continue;
    char name[32];
    std::snprintf(name, sizeof name, "%s%04u%s", kStreamPrefix, unsigned(index), kStreamSuffix);
    fs::path path = fs::path(x.dir) / name;
    std::error_code ec;
    if (!fs::exists(path, ec)) {
      x.damage.push_back(path.string() + ": missing: thread " + std::to_string(index) +
                         " lost all its " + std::to_string(events) + " recorded events");
    } else if (fs::is_regular_file(path, ec) && fs::file_size(path, ec) == sizeof(FileHeader)) {
      // (A shorter or cut file the stream reader reports itself.)
      x.damage.push_back(path.string() + ": holds no chunk: thread " + std::to_string(index) +
                         " lost all its " + std::to_string(events) + " recorded events");
    }
  }
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
  if (fs::exists(meta_path, ec) && !fs::is_regular_file(meta_path, ec)) {
    return Error{meta_path.string() + ": not a regular file (the experiment's metadata must be "
                 "the JSON file `tasklens run` wrote)"};
  }
  std::ifstream in(meta_path);
  if (!in) {
    if (is_mpi_run(dir)) {
      return Error{dir + ": an MPI run's directory, one experiment per rank: give a rank's folder ("
                   + dir + "/" + rank_dir_name(0) + ", ...); check and report read the whole run "
                   "(docs/MPI.md)"};
    }
    return Error{dir + ": not a tasklens experiment (no " + std::string(kMetadataFile) + ")"};
  }
  auto parsed = parse_json(in);
  if (!parsed) return Error{meta_path.string() + ": corrupt metadata (" + parsed.error().message + ")"};
  x.meta = std::move(*parsed);
  if (!x.meta.is_object()) return Error{meta_path.string() + ": corrupt metadata (not valid JSON)"};
  drop_mistyped_fields(x.meta, meta_path.string(), &x.damage);
  x.metadata = metadata_from_json(x.meta);
  const Metadata& m = x.metadata;
  if (m.format != key::kFormatMarker) {
    return Error{meta_path.string() + ": not a tasklens experiment (no \"format\" marker)"};
  }
  uint64_t version = m.format_version;
  if (!readable_version(version)) {
    return Error{meta_path.string() + ": " + version_refusal(version)};
  }
  x.status = m.status.empty() ? std::string("?") : m.status;

  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(kStreamPrefix, 0) == 0 && entry.path().extension() == kStreamSuffix) {
      x.streams.push_back(entry.path().string());
    }
  }
  std::sort(x.streams.begin(), x.streams.end());
  x.strings = m.strings;

  if (m.runtime.code) {
    x.runtime_code = {m.runtime.code->first, m.runtime.code->second};
  }
  x.inventory = take_inventory(x.streams);
  Clock& c = x.clock;
  c.source = m.clock.source.empty() ? std::string("tsc") : m.clock.source;
  c.start_ticks = m.clock.start.ticks;
  uint64_t start_ns = m.clock.start.ns;
  uint64_t end_ticks = m.clock.end.ticks;
  uint64_t end_ns = m.clock.end.ns;
  bool final_end = m.clock.end_is_final;
  if (!final_end) latest_chunk_sample(x.inventory, &end_ticks, &end_ns);
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
  if (c.calibrated && c.source != "monotonic" &&
      (c.ns_per_tick < kMinNsPerTick || c.ns_per_tick > kMaxNsPerTick)) {
    // A tick rate no clock has (a damaged end sample): times would be absurd.
    x.damage.push_back(fmt_rate(meta_path.string(), final_end, c.ns_per_tick));
    c.calibrated = false;
    c.ns_per_tick = 1.0 / 2.5;
  }
  if (c.source != "tsc" && c.source != "monotonic") {
    x.damage.push_back(meta_path.string() + ": clock.source is \"" + c.source +
                       "\", not tsc or monotonic; read as tsc");
    c.source = "tsc";
  }
  // The origin moves back from the recorder's start to the process's: the program's serial
  // start, before the OpenMP runtime loaded the recorder, belongs to the run.
  c.start_monotonic_ns = start_ns;
  uint64_t process_start = m.process.start_ns;
  if (process_start && process_start < start_ns) {
    auto back = uint64_t(double(start_ns - process_start) / c.ns_per_tick + 0.5);
    c.start_ticks = c.start_ticks > back ? c.start_ticks - back : 0;
    c.start_monotonic_ns = process_start;
    c.recorder_start_ns = start_ns - process_start;
  }
  if (final_end && end_ticks > c.start_ticks) c.exit_ns = c.to_ns(end_ticks);
  uint64_t last_ticks = 0;
  for (const StreamInfo& st : x.inventory) last_ticks = std::max(last_ticks, st.last_ticks);
  // The run ends at the program's exit (the final clock sample), after its last event.
  x.end_ns = std::max(c.to_ns(last_ticks), c.exit_ns);
  find_lost_streams(x);
  if (x.status == "running") {
    x.warnings.push_back("the run did not finish (killed, or still running): the trace ends at "
                         "the last chunk written");
  } else if (x.status == "crashed" || x.status == "interrupted") {
    x.warnings.push_back("the run ended on " +
                         (m.end_reason.empty() ? std::string("a signal") : m.end_reason) +
                         "; the trace holds what was flushed then");
  }
  uint64_t lost = m.recorder.events_lost;
  if (lost) x.warnings.push_back(std::to_string(lost) + " events were lost by the recorder");
  const std::string& write_error = m.recorder.write_error;
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
