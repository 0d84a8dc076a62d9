// Perfetto export as Chrome/Perfetto trace-event JSON (`--to perfetto-json`): the layout of
// perfetto_timeline.h written as JSON trace events.
//
// Perfetto / Chrome trace-event JSON (ui.perfetto.dev, chrome://tracing):
//   * process "threads": a track per thread with nested B/E slices for tasks and constructs (the
//     same nesting as the OTF2 export), and a counter track "ready tasks";
//   * one process per task construct ("tasks: task fib.c:39"): each instance is a slice from its
//     first start to its completion on one of the construct's lanes (instances that overlap in
//     time take different lanes), with nested slices while it is suspended, ready or detached;
//   * flow arrows for task creation (creator -> first start), dependences (predecessor's end ->
//     successor's start) and migrations (where a task left -> where it resumed).
// Times are in microseconds with nanosecond decimals; displayTimeUnit is ns.
#include <fmt/format.h>

#include "export/formats.h"
#include "export/output.h"
#include "export/perfetto_timeline.h"

namespace tasklens::exports {

namespace {

class PerfettoJsonExporter final : public PerfettoTimeline {
 public:
  PerfettoJsonExporter(const format::Experiment& x, const ExportOptions& o,
                       symbols::Symbolizer* symbols, std::string path)
      : PerfettoTimeline(x, o, symbols), path_(std::move(path)) {}

  Result<bool> open() {
    auto opened = out_.open(path_);
    if (opened) out_.write_behind();  // hundreds of MB: the kernel's copy overlaps the encoding
    return opened;
  }
  Result<ExportSummary> finish(const replay::ReplayStats& stats) override;

 private:
  TASKLENS_PERFETTO_ENCODER_OVERRIDES

  // One trace event: `{"ph":"B","pid":1,"tid":2,"ts":1.234` (the caller closes the object).
  void head(char ph, uint32_t pid, uint32_t tid, uint64_t ts);
  void metadata(const char* what, uint32_t pid, uint32_t tid, const std::string& name);
  const std::string& quoted_name(uint32_t region);

  std::string path_;
  TextOut out_;
  uint64_t events_ = 0;
  std::vector<std::string> names_;  // region id -> JSON-quoted name
};

void PerfettoJsonExporter::head(char ph, uint32_t pid, uint32_t tid, uint64_t ts) {
  out_.piece(events_ ? ",\n{\"ph\":\"" : "{\"ph\":\"");
  out_.piece(ph);
  out_.piece("\",\"pid\":");
  out_.piece(uint64_t(pid));
  out_.piece(",\"tid\":");
  out_.piece(uint64_t(tid));
  out_.piece(",\"ts\":");
  out_.piece(ts / 1000);
  char frac[5] = {'.', char('0' + ts % 1000 / 100), char('0' + ts % 100 / 10), char('0' + ts % 10),
                  0};
  out_.piece(std::string_view(frac, 4));
  out_.end_piece();
  ++events_;
}

void PerfettoJsonExporter::metadata(const char* what, uint32_t pid, uint32_t tid,
                                    const std::string& name) {
  out_.print("{}{{\"ph\":\"M\",\"pid\":{},\"tid\":{},\"name\":\"{}\",\"args\":{{\"name\":{}}}}}",
             events_ ? ",\n" : "", pid, tid, what, json_quote(name));
  ++events_;
}

const std::string& PerfettoJsonExporter::quoted_name(uint32_t region) {
  if (region >= names_.size()) names_.resize(region + 1);
  if (names_[region].empty()) names_[region] = json_quote(regions_.at(region).name);
  return names_[region];
}

void PerfettoJsonExporter::header(uint64_t) {
  out_.write("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
}

void PerfettoJsonExporter::process(uint32_t pid, const std::string& name, uint32_t sort_index) {
  metadata("process_name", pid, 0, name);
  out_.print(
      ",\n{{\"ph\":\"M\",\"pid\":{},\"tid\":0,\"name\":\"process_sort_index\","
      "\"args\":{{\"sort_index\":{}}}}}",
      pid, sort_index);
  ++events_;
}

void PerfettoJsonExporter::thread(uint32_t pid, uint32_t tid, const std::string& name) {
  metadata("thread_name", pid, tid, name);
}

void PerfettoJsonExporter::begin_region(uint32_t pid, uint32_t tid, uint64_t t, uint32_t region,
                                        const char* category, const TimelineTask* task) {
  head('B', pid, tid, t);
  out_.piece(",\"cat\":\"");
  out_.piece(category);
  out_.piece("\",\"name\":");
  out_.piece(quoted_name(region));
  if (task) {
    out_.print(",\"args\":{{\"task\":\"{}\",\"parent\":\"{}\"}}}}", id_text(task->id),
               id_text(task->parent));
  } else {
    out_.write("}");
  }
}

void PerfettoJsonExporter::begin_state(uint32_t pid, uint32_t tid, uint64_t t, const char* name) {
  head('B', pid, tid, t);
  out_.print(",\"cat\":\"task state\",\"name\":\"{}\"}}", name);
}

void PerfettoJsonExporter::end_slice(uint32_t pid, uint32_t tid, uint64_t t) {
  head('E', pid, tid, t);
  out_.write("}");
}

// The start binds to the slice enclosing it, the end to the next slice on its track (the task
// slice that begins there).
void PerfettoJsonExporter::flow_start(const char* kind, uint64_t id, uint32_t th, uint64_t t) {
  head('s', kPerfettoThreadsPid, th + 1, t);
  out_.print(",\"cat\":\"{}\",\"name\":\"{}\",\"id\":{}}}", kind, kind, id);
}

void PerfettoJsonExporter::flow_end(const char* kind, uint64_t id, uint32_t th, uint64_t t) {
  head('f', kPerfettoThreadsPid, th + 1, t);
  out_.print(",\"cat\":\"{}\",\"name\":\"{}\",\"id\":{}}}", kind, kind, id);
}

void PerfettoJsonExporter::counter(uint64_t t, uint64_t ready) {
  head('C', kPerfettoThreadsPid, 0, t);
  out_.print(",\"name\":\"ready tasks\",\"args\":{{\"ready\":{}}}}}", ready);
}

void PerfettoJsonExporter::parameter_value(uint32_t th, uint64_t t, const std::string& name,
                                           int64_t value) {
  head('i', kPerfettoThreadsPid, th + 1, t);
  out_.print(",\"s\":\"t\",\"cat\":\"parameter\",\"name\":{},\"args\":{{\"value\":{}}}}}",
             json_quote(name), value);
}

Result<ExportSummary> PerfettoJsonExporter::finish(const replay::ReplayStats& stats) {
  out_.write("\n]}\n");
  auto closed = out_.close();
  if (!closed) return closed.error();
  return summary(path_, events_, "trace events", out_.bytes(), "ui.perfetto.dev, chrome://tracing");
}

Result<std::unique_ptr<Exporter>> make_perfetto_json_exporter(const format::Experiment& x,
                                                              const std::string& out,
                                                              const ExportOptions& o,
                                                              symbols::Symbolizer* symbols) {
  return open_exporter<PerfettoJsonExporter>(x, o, symbols, out);
}

}  // namespace

extern const ExportFormat kPerfettoJsonFormat;
const ExportFormat kPerfettoJsonFormat = {
    "perfetto-json",
    {"chrome", "json"},
    {".json"},
    true,
    "a JSON file",
    "Chrome/Perfetto trace-event JSON (chrome://tracing, ui.perfetto.dev; 5x bigger than perfetto)",
    240,  // measured 226
    make_perfetto_json_exporter,
    nullptr};

}  // namespace tasklens::exports
