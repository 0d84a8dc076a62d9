// ExperimentWriter: a whole experiment directory written from events held in memory.
#include "format/experiment_writer.h"

#include <filesystem>
#include <fstream>

#include "format/chunk.h"
#include "format/chunk_builder.h"
#include "format/kinds.h"

namespace tasklens::format {
namespace fs = std::filesystem;

void ExperimentWriter::add_preempted(uint32_t thread, uint64_t begin, uint64_t end) {
  off_cpu_.push_back({begin, thread, uint8_t(OffCpuType::kSwitchOut), off_cpu_flag::kPreempted, 0});
  off_cpu_.push_back({end, thread, uint8_t(OffCpuType::kSwitchIn), 0, 0});
}

Result<std::string> ExperimentWriter::write(const std::string& dir) const {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{dir + ": " + ec.message()};

  uint64_t end = 0;
  nlohmann::json threads = nlohmann::json::array();
  nlohmann::json counts = nlohmann::json::object();
  uint64_t total = 0;
  for (const auto& [thread, events] : streams_) {
    char name[64];
    std::snprintf(name, sizeof name, "%s%04u%s", kStreamPrefix, thread, kStreamSuffix);
    std::ofstream out(fs::path(dir) / name, std::ios::binary | std::ios::trunc);
    if (!out) return Error{(fs::path(dir) / name).string() + ": cannot write"};
    FileHeader h = make_file_header(thread, 1000 + thread);
    out.write(reinterpret_cast<const char*>(&h), sizeof h);
    std::vector<uint8_t> buf;
    uint32_t seq = 0;
    for (size_t i = 0; i < events.size(); i += chunk_events_) {
      size_t n = std::min(chunk_events_, events.size() - i);
      buf.resize(max_chunk_bytes(n));
      ChunkInfo info;
      info.thread = thread;
      info.seq = seq++;
      size_t bytes = build_chunk(events.data() + i, n, info, buf.data());
      out.write(reinterpret_cast<const char*>(buf.data()), std::streamsize(bytes));
    }
    for (const Event& e : events) {
      end = std::max(end, e.time);
      auto& c = counts[std::string(layout(e.kind).name)];
      c = c.is_null() ? 1 : c.get<uint64_t>() + 1;
    }
    total += events.size();
    threads.push_back({{"index", thread}, {"os_tid", 1000 + thread}, {"events", events.size()},
                       {"chunks", seq}, {"lost", 0}});
  }

  nlohmann::json meta = {
      {"format", "tasklens-experiment"},
      {"format_version", kFormatVersion},
      {"tool", {{"name", "tasklens"}, {"version", "golden"}}},
      {"status", "complete"},
      {"end_reason", "exit"},
      {"program", {{"pid", 1}, {"args", {"golden"}}, {"path", "/golden"}}},
      {"host", "golden"},
      {"start_unix_ns", 0},
      {"runtime", {{"version", "golden"}, {"callbacks", nlohmann::json::object()}}},
      {"clock",
       {{"source", "monotonic"},
        {"invariant_tsc", false},
        {"start", {{"ticks", 0}, {"ns", 0}}},
        {"end", {{"ticks", end}, {"ns", end}}},
        {"end_is_final", true}}},
      {"threads", threads},
      {"recorder", {{"events_written", total}, {"events_lost", 0}, {"overflow", "block"}}},
      {"counts", counts},
      {"objects", nlohmann::json::array()},
      {"strings", strings_},
  };
  if (!off_cpu_.empty()) {
    meta["preemption"] = {{"source", "perf_switch"}, {"records", off_cpu_.size()}, {"lost", 0}};
    std::ofstream oc(fs::path(dir) / kOffCpuFile, std::ios::binary | std::ios::trunc);
    oc.write(reinterpret_cast<const char*>(off_cpu_.data()),
             std::streamsize(off_cpu_.size() * sizeof(OffCpuRecord)));
    if (!oc) return Error{dir + ": cannot write " + kOffCpuFile};
  }
  meta.update(extra_);
  std::ofstream out(fs::path(dir) / kMetadataFile, std::ios::trunc);
  if (!out) return Error{dir + ": cannot write " + kMetadataFile};
  out << meta.dump(1) << "\n";
  return dir;
}

}  // namespace tasklens::format
