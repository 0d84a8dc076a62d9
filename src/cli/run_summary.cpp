// The summary `tasklens run` prints at the end: counts read back from the experiment.
#include "cli/run_summary.h"

#include <fmt/format.h>
#include <string.h>

#include <filesystem>

#include "analysis/contention.h"
#include "analysis/profile_file.h"
#include "format/kinds.h"
#include "format/profile_file.h"
#include "format/event_views.h"
#include "format/stream_reader.h"

namespace tasklens::cli {
namespace fs = std::filesystem;

RunCounts count_experiment(const format::Experiment& x) {
  RunCounts c;
  std::error_code ec;
  // This experiment's files only: the pid-N folders of other processes are experiments of their
  // own, the .reserve is not trace, and a GCC program's run holds a symbolic link to libomp
  // (.libgomp-on-libomp/libgomp.so.1), which is not the trace either.
  for (const auto& entry : fs::directory_iterator(x.dir, ec)) {
    if (entry.is_symlink(ec) || !entry.is_regular_file(ec)) continue;
    if (entry.path().filename() != ".reserve") c.trace_bytes += entry.file_size(ec);
  }
  c.threads = x.streams.size();
  const format::Metadata& m = x.metadata;
  c.events_lost = m.recorder.events_lost;
  if (x.status == "complete" && m.explicit_tasks) {
    c.parallel_regions = m.count(format::layout(format::Kind::kParallelBegin).name.data());
    c.explicit_tasks = *m.explicit_tasks;
    c.events = m.recorder.events_written;
    return c;
  }
  c.scanned = true;
  std::vector<format::Event> chunk;
  for (const auto& path : x.streams) {
    auto r = format::StreamReader::open(path);
    if (!r) continue;
    while ((*r)->next_chunk(chunk)) {
      for (const format::Event& e : chunk) {
        ++c.events;
        if (e.kind == format::Kind::kParallelBegin) ++c.parallel_regions;
        c.explicit_tasks += format::creates_explicit_task(e);
      }
    }
  }
  return c;
}

// The machine's contention (analysis/contention.h), one line, when there was any.
void print_contention(FILE* out, const format::Experiment& x) {
  std::string contention = analysis::contention_warning(analysis::read_contention(x));
  if (!contention.empty()) fmt::print(out, "  warning: {}\n", contention);
}

// One line per process recorded below the top one: its pid, parent, program and events.
void print_descendants(FILE* out, const std::vector<std::string>& descendants) {
  if (descendants.empty()) return;
  fmt::print(out, "  processes started by the program, each recorded in its own experiment:\n");
  for (const std::string& d : descendants) {
    auto x = format::open_experiment(d);
    if (!x) {
      fmt::print(out, "    {}: {}\n", d, x.error().message);
      continue;
    }
    RunCounts c = count_experiment(*x);
    fmt::print(out, "    {}: pid {} (parent {}), {}, {} threads, {} events, {}\n", d,
               x->metadata.program.pid, x->metadata.parent ? x->metadata.parent->ppid : 0,
               x->program_name(), c.threads, c.events, x->status);
  }
}

void print_run_summary(FILE* out, const std::string& dir, const std::vector<std::string>& command,
                       const ChildExit& child, const std::vector<std::string>& descendants) {
  auto x = format::open_experiment(dir);
  if (!x) {
    fmt::print(out, "tasklens: the experiment in {} cannot be read: {}\n", dir, x.error().message);
    print_descendants(out, descendants);
    return;
  }
  RunCounts c = count_experiment(*x);
  std::string how = child.signaled
                        ? fmt::format("killed by signal {} ({})", child.code,
                                      sigabbrev_np(child.code) ? sigabbrev_np(child.code) : "?")
                        : fmt::format("exit status {}", child.code);
  // The program at the top of the experiment: the one started, or the first process it started
  // that ran OpenMP (a shell script's, say).
  std::string started = fs::path(command[0]).filename().string();
  std::string recorded = x->program_name() == "?" ? started : x->program_name();
  fmt::print(out, "tasklens: recorded {} ({}) into {}\n",
             recorded == started ? started : recorded + ", started by " + started, how, dir);
  if (x->metadata.profile_mode()) {
    // No events: the profile was built in the process (docs/PROFILE-MODE.md).
    std::error_code ec;
    auto bytes = fs::file_size(fs::path(dir) / format::kProfileFile, ec);
    fmt::print(out, "  mode               profile (no trace)\n");
    fmt::print(out, "  wall time          {:.3f} s\n", double(child.wall_ns) * 1e-9);
    if (ec) {
      fmt::print(out, "  profile            not written: {}\n", analysis::why_no_profile(x->metadata));
    } else {
      fmt::print(out, "  profile            {:.1f} kB\n", double(bytes) / 1000.0);
    }
    print_contention(out, *x);
    if (ec) {
      // Nothing to report: a trace keeps the events up to a crash.
      fmt::print(out, "  next: run without --mode profile to keep the events up to the end\n");
    } else {
      fmt::print(out, "  next: tasklens report {} --profile\n", dir);
    }
    return;
  }
  fmt::print(out, "  threads            {}\n", c.threads);
  fmt::print(out, "  parallel regions   {}\n", c.parallel_regions);
  fmt::print(out, "  explicit tasks     {}\n", c.explicit_tasks);
  fmt::print(out, "  events             {}\n", c.events);
  fmt::print(out, "  wall time          {:.3f} s\n", double(child.wall_ns) * 1e-9);
  fmt::print(out, "  trace size         {:.2f} MiB ({:.2f} bytes/event)\n",
             double(c.trace_bytes) / (1024.0 * 1024.0),
             c.events ? double(c.trace_bytes) / double(c.events) : 0.0);
  bool disk_full = x->metadata.recorder.disk_full;
  if (disk_full) {
    fmt::print(out, "  events lost        {} (disk full: the trace holds every event written "
                    "before the disk filled up, the rest is counted here; see `tasklens check "
                    "{}`)\n", c.events_lost, dir);
  } else if (c.events_lost == 0 && x->status == "complete") {
    fmt::print(out, "  events lost        0\n");
  } else if (x->status == "complete" &&
             !x->metadata.recorder.write_error.empty()) {
    fmt::print(out, "  events lost        {} (the trace could not be written: see the note "
                    "below and `tasklens check {}`)\n", c.events_lost, dir);
  } else if (x->status == "complete") {
    fmt::print(out, "  events lost        {} (the recorder's buffer overflowed; see `tasklens "
                    "check {}`)\n", c.events_lost, dir);
  } else {
    fmt::print(out, "  events lost        {} counted, plus what the threads held when the run "
                    "ended ({}); see `tasklens check {}`\n",
               c.events_lost, x->status, dir);
  }
  for (const std::string& w : x->warnings) fmt::print(out, "  note: {}\n", w);
  print_descendants(out, descendants);
  print_contention(out, *x);
  fmt::print(out, "  next: tasklens report {}\n", dir);
}

}  // namespace tasklens::cli
