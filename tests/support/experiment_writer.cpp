// ExperimentWriter: a whole experiment directory written from events held in memory.
#include "support/experiment_writer.h"

#include <filesystem>
#include <fstream>

#include "format/chunk.h"
#include "format/chunk_builder.h"
#include "format/kinds.h"
#include "format/metadata_keys.h"

namespace tasklens::testing {
namespace fs = std::filesystem;
using namespace format;

Metadata ExperimentWriter::default_metadata() {
  Metadata m;
  m.format = key::kFormatMarker;
  m.format_version = kFormatVersion;
  m.tool = {"tasklens", "golden", ""};
  m.status = "complete";
  m.end_reason = "exit";
  m.program = {1, {"golden"}, "/golden"};
  m.host = "golden";
  m.runtime.version = "golden";
  m.clock.source = "monotonic";
  m.clock.end_is_final = true;
  m.recorder.overflow = "block";
  m.counts.emplace();
  return m;
}

void ExperimentWriter::add_preempted(uint32_t thread, uint64_t begin, uint64_t end) {
  off_cpu_.push_back({begin, thread, uint8_t(OffCpuType::kSwitchOut), off_cpu_flag::kPreempted, 0});
  off_cpu_.push_back({end, thread, uint8_t(OffCpuType::kSwitchIn), 0, 0});
}

Result<std::string> ExperimentWriter::write(const std::string& dir) const {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{dir + ": " + ec.message()};

  Metadata m = metadata_;
  uint64_t end = 0, total = 0;
  m.threads.clear();
  m.counts.emplace();
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
      ++(*m.counts)[std::string(layout(e.kind).name)];
    }
    total += events.size();
    Metadata::Thread th;
    th.index = thread;
    th.os_tid = 1000 + thread;
    th.events = events.size();
    th.chunks = seq;
    m.threads.push_back(th);
  }

  m.clock.end = {end, end};
  m.recorder.events_written = total;
  if (!off_cpu_.empty()) {
    m.preemption = Metadata::Preemption{"perf_switch", "", 0, off_cpu_.size(), 0};
    std::ofstream oc(fs::path(dir) / kOffCpuFile, std::ios::binary | std::ios::trunc);
    oc.write(reinterpret_cast<const char*>(off_cpu_.data()),
             std::streamsize(off_cpu_.size() * sizeof(OffCpuRecord)));
    if (!oc) return Error{dir + ": cannot write " + kOffCpuFile};
  }
  nlohmann::json meta = metadata_to_json(m);
  meta.update(extra_);
  std::ofstream out(fs::path(dir) / kMetadataFile, std::ios::trunc);
  if (!out) return Error{dir + ": cannot write " + kMetadataFile};
  out << meta.dump(1) << "\n";
  return dir;
}

}  // namespace tasklens::testing
