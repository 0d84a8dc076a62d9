// unpack/pack of the fuzzer's input, and exercise(): every reader of an experiment in turn.
#include "fuzz/fuzz_input.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "analysis/profile_file.h"
#include "export/export.h"
#include "format/checksum.h"
#include "format/chunk.h"
#include "format/experiment.h"
#include "format/off_cpu.h"
#include "format/stream_reader.h"
#include "replay/consistency.h"
#include "replay/replay.h"
#include "report/section.h"
#include "symbols/symbolizer.h"

namespace tasklens::fuzz {
namespace fs = std::filesystem;

namespace {

std::string file_name(uint8_t file) {
  if (file == 0) return format::kMetadataFile;
  if (file == kProfileRecord) return format::kProfileFile;
  if (file == kOffCpuRecord) return format::kOffCpuFile;
  char name[32];
  std::snprintf(name, sizeof name, "%s%04u%s", format::kStreamPrefix, unsigned(file - 1),
                format::kStreamSuffix);
  return name;
}

// Recomputes the checksum of every chunk whose sizes fit in the file.
void fix_checksums(std::string& bytes) {
  size_t off = sizeof(format::FileHeader);
  while (off + sizeof(format::ChunkHeader) <= bytes.size()) {
    format::ChunkHeader h;
    std::memcpy(&h, bytes.data() + off, sizeof h);
    size_t end = off + sizeof h + h.payload_bytes;
    if (h.payload_bytes > bytes.size() || end > bytes.size()) return;
    std::memset(bytes.data() + off + offsetof(format::ChunkHeader, checksum), 0,
                sizeof h.checksum);
    uint32_t sum = format::checksum(reinterpret_cast<const uint8_t*>(bytes.data() + off),
                                    end - off);
    std::memcpy(bytes.data() + off + offsetof(format::ChunkHeader, checksum), &sum, sizeof sum);
    off = end;
  }
}

// What `report` runs on a profile-mode experiment (cmd_report.cpp): profile.json read, the
// sections that can answer from it, text and JSON.
Outcome exercise_profile_mode(const format::Experiment& x, Outcome o) {
  auto data = analysis::read_profile_mode(x);
  if (!data) {
    o.error = data.error().message;
    return o;
  }
  o.profile_nodes = data->profile.nodes.size();
  report::ReportOptions options;
  replay::ReplayStats stats;
  stats.threads = data->threads;
  stats.end_ns = data->run_ns;
  symbols::Symbolizer symbols(x.metadata.objects, false);
  for (const auto& c : data->profile.tasks) symbols.construct(c.codeptr);
  report::ReportContext ctx{x, symbols, options, stats};
  nlohmann::json doc;
  std::string text;
  for (const auto& info : report::all_sections()) {
    auto section = info.make(options);
    if (!section->use_profile_mode(*data)) continue;
    doc[info.name] = section->json(ctx);
    section->extra_json(ctx, doc);
    section->text(ctx, text);
  }
  text += doc.dump(1);  // throws on invalid UTF-8: a finding too
  return o;
}

}  // namespace

void unpack(const uint8_t* data, size_t size, const std::string& dir) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir);
  if (size == 0) return;
  uint8_t flags = data[0];
  size_t at = 1;
  while (at + 5 <= size) {
    uint8_t file = data[at];
    uint32_t length;
    std::memcpy(&length, data + at + 1, 4);
    at += 5;
    size_t n = std::min<size_t>(length, size - at);
    std::string bytes(reinterpret_cast<const char*>(data + at), n);
    at += n;
    if (file != 0 && file < kOffCpuRecord && (flags & 1)) fix_checksums(bytes);
    std::ofstream(dir + "/" + file_name(file), std::ios::binary | std::ios::app) << bytes;
  }
}

std::vector<uint8_t> pack(const std::string& dir, uint8_t flags) {
  std::vector<uint8_t> out{flags};
  // Profile mode's profile.json (absent in a trace) and the context-switch records (absent in a
  // short run).
  std::vector<unsigned> files = {kProfileRecord, kOffCpuRecord};
  for (unsigned file = 0; file < kOffCpuRecord; ++file) {
    if (file == 0 || fs::exists(dir + "/" + file_name(uint8_t(file)))) {
      files.push_back(file);
    } else {
      break;
    }
  }
  for (unsigned file : files) {
    std::ifstream in(dir + "/" + file_name(uint8_t(file)), std::ios::binary);
    if (!in) continue;
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    out.push_back(uint8_t(file));
    uint32_t length = uint32_t(bytes.size());
    const auto* p = reinterpret_cast<const uint8_t*>(&length);
    out.insert(out.end(), p, p + 4);
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  return out;
}

Outcome exercise(const std::string& dir) {
  Outcome o;
  auto x = format::open_experiment(dir);
  if (!x) {
    o.error = x.error().message;
    return o;
  }
  o.damage = x->damage.size();
  if (x->metadata.profile_mode()) return exercise_profile_mode(*x, o);
  auto checked = replay::check_consistency(*x);
  o.problems = checked.stream_problems.size();
  // Under ASan and coverage the report and the five exports run at a few thousand events a second:
  // a small input whose chunks decompress to 10^5 events (zstd can) takes minutes and is no more
  // damaged than a short one. Past this many only `check` runs; it reads every event.
  if (checked.events > kMaxExercisedEvents) return o;

  report::ReportOptions options;
  std::vector<std::unique_ptr<report::Section>> sections;
  std::vector<replay::Pass*> passes;
  for (const auto& info : report::all_sections()) {
    sections.push_back(info.make(options));
    passes.push_back(&sections.back()->pass());
  }
  auto stats = replay::run_replay(*x, passes);
  if (stats) {
    o.events = stats->events;
    symbols::Symbolizer symbols(x->metadata.objects, false);
    report::ReportContext ctx{*x, symbols, options, *stats};
    nlohmann::json doc;
    std::string text;
    for (size_t i = 0; i < sections.size(); ++i) {
      doc[report::all_sections()[i].name] = sections[i]->json(ctx);
      sections[i]->extra_json(ctx, doc);
      sections[i]->text(ctx, text);
    }
    text += doc.dump(1);  // throws on invalid UTF-8: a finding too
  }

  if (x->first_unreadable_stream()) return o;  // `export` refuses such a run
  exports::ExportOptions eo;
  eo.symbols = false;
  std::string out = dir + "-out";
  for (const exports::ExportFormat* f : exports::export_formats()) {
    std::error_code ec;
    fs::remove_all(out, ec);
    fs::create_directories(out);
    // Each format's own kind of output name: a file with its first extension, else a base name.
    std::string name = "/trace" + std::string(f->extensions[0]);
    (void)exports::export_experiment(*x, *f, out + name, eo);  // an error is a sound answer
  }
  std::error_code ec;
  fs::remove_all(out, ec);
  return o;
}

}  // namespace tasklens::fuzz
