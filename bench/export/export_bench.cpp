// Export throughput: events of the trace replayed per second for each format, with the peak
// memory of the process doing it (getrusage, one child process per format) and the size written.
//
//   export_bench [EXPERIMENT_DIR] [--formats otf2,paraver,perfetto,perfetto-json,dot] [--keep]
//
// Without a directory it records one first: `tasklens run -n 2 -- examples/fib 30` (about 1.35e7
// events). The first line measured is the replay alone (no output), the floor of every export.
// Outputs go to a scratch directory next to the experiment and are deleted unless --keep.
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "export/export.h"
#include "format/experiment.h"
#include "replay/replay.h"

namespace fs = std::filesystem;
using namespace tasklens;

namespace {

double now_s() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

uint64_t tree_bytes(const fs::path& p) {
  std::error_code ec;
  if (fs::is_regular_file(p, ec)) return fs::file_size(p, ec);
  uint64_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(p, ec)) {
    if (e.is_regular_file(ec)) n += e.file_size(ec);
  }
  return n;
}

struct Measure {
  double seconds = 0;
  uint64_t events = 0, records = 0, bytes = 0;
  long peak_kb = 0;
  std::string unit, error;
};

// Runs in a child process: one export (or the replay alone when `format` is empty).
Measure measure(const std::string& dir, const std::string& format, const std::string& out) {
  Measure m;
  auto x = format::open_experiment(dir);
  if (!x) {
    m.error = x.error().message;
    return m;
  }
  double t0 = now_s();
  if (format.empty()) {
    auto stats = replay::run_replay(*x, {});
    if (!stats) m.error = stats.error().message;
    else m.events = stats->events;
  } else {
    exports::ExportOptions o;
    auto s = exports::export_experiment(*x, *exports::find_export_format(format), out, o);
    if (!s) {
      m.error = s.error().message;
    } else {
      m.events = s->events_in;
      m.records = s->records_out;
      m.unit = s->unit;
    }
  }
  m.seconds = now_s() - t0;
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  m.peak_kb = ru.ru_maxrss;
  return m;
}

std::string record_trace(const fs::path& where) {
  std::string dir = (where / "fib30").string();
  if (fs::exists(fs::path(dir) / "experiment.json")) return dir;
  std::string cmd = fmt::format("'{}' run -q -n 2 -o '{}' -- '{}/fib' 30", TASKLENS_BIN, dir,
                                TASKLENS_EXAMPLES_DIR);
  std::fprintf(stderr, "export_bench: recording: %s\n", cmd.c_str());
  if (std::system(cmd.c_str()) != 0) return "";
  return dir;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir;
  std::vector<std::string> formats = {"otf2", "paraver", "perfetto", "perfetto-json", "dot"};
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--keep") {
      keep = true;
    } else if (a == "--formats" && i + 1 < argc) {
      formats.clear();
      std::string list = argv[++i];
      for (size_t p = 0; p <= list.size();) {
        size_t q = list.find(',', p);
        if (q == std::string::npos) q = list.size();
        formats.push_back(list.substr(p, q - p));
        p = q + 1;
      }
    } else if (a[0] != '-' && dir.empty()) {
      dir = a;
    } else {
      std::fprintf(stderr, "usage: export_bench [EXPERIMENT_DIR] [--formats LIST] [--keep]\n");
      return 2;
    }
  }
  fs::path scratch = fs::temp_directory_path() / "tasklens-export-bench";
  fs::create_directories(scratch);
  if (dir.empty()) dir = record_trace(scratch);
  if (dir.empty()) return 1;

  std::printf("export_bench: %s\n", dir.c_str());
  std::printf("%-13s %12s %8s %12s %12s %16s %10s %10s\n", "format", "events", "seconds",
              "events/s", "written", "unit", "MB", "peak MB");
  formats.insert(formats.begin(), "");  // the replay alone first
  for (const std::string& f : formats) {
    if (!f.empty() && !exports::find_export_format(f)) {
      std::fprintf(stderr, "export_bench: unknown format %s\n", f.c_str());
      return 2;
    }
    fs::path out = scratch / ("out-" + f);
    if (f == "otf2") out += ".otf2";
    if (f == "perfetto") out += ".pftrace";
    if (f == "perfetto-json") out += ".json";
    if (f == "dot") out += ".dot";
    std::error_code ec;
    int pipefd[2];
    if (pipe(pipefd) != 0) return 1;
    pid_t pid = fork();
    if (pid == 0) {
      close(pipefd[0]);
      Measure m = measure(dir, f, out.string());
      std::string line = fmt::format("{} {} {} {} {}\n{}\n{}\n", m.seconds, m.events, m.records,
                                     m.peak_kb, m.unit.empty() ? "-" : m.unit, m.error, "");
      (void)!write(pipefd[1], line.data(), line.size());
      _exit(m.error.empty() ? 0 : 1);
    }
    close(pipefd[1]);
    std::string text;
    char buf[4096];
    ssize_t n;
    while ((n = read(pipefd[0], buf, sizeof buf)) > 0) text.append(buf, size_t(n));
    close(pipefd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    Measure m;
    char unit[64] = {0};
    std::sscanf(text.c_str(), "%lf %lu %lu %ld %63[^\n]", &m.seconds, &m.events, &m.records,
                &m.peak_kb, unit);
    if (status != 0) {
      std::fprintf(stderr, "export_bench: %s failed: %s\n", f.c_str(), text.c_str());
      continue;
    }
    // What the format wrote: the file, the Paraver trio, or the OTF2 anchor, .def and directory.
    std::vector<std::string> written = {out.string()};
    if (f == "paraver") written = {out.string() + ".prv", out.string() + ".pcf", out.string() + ".row"};
    if (f == "otf2") {
      std::string stem = (scratch / "out-otf2").string();
      written = {stem + ".otf2", stem + ".def", stem};
    }
    m.bytes = 0;
    if (!f.empty()) {
      for (const auto& w : written) m.bytes += tree_bytes(w);
    }
    std::printf("%-13s %12lu %8.2f %12.0f %12lu %16s %10.0f %10.0f\n",
                f.empty() ? "(replay)" : f.c_str(), m.events, m.seconds,
                double(m.events) / m.seconds, m.records, f.empty() ? "-" : unit,
                double(m.bytes) / 1e6, double(m.peak_kb) / 1024.0);
    std::fflush(stdout);
    if (!keep) {
      for (const auto& w : written) fs::remove_all(w, ec);
    }
  }
  return 0;
}
