// The summary `tasklens run` prints at the end: counts read back from the experiment.
#include "cli/run_summary.h"

#include <fmt/format.h>
#include <string.h>

#include <filesystem>

#include "format/stream_reader.h"

namespace tasklens::cli {
namespace fs = std::filesystem;

RunCounts count_experiment(const format::Experiment& x) {
  RunCounts c;
  std::error_code ec;
  // What the recorder wrote: regular files only. A GCC program's run holds a symbolic link to
  // libomp (.libgomp-on-libomp/libgomp.so.1), which is not the trace.
  for (const auto& entry : fs::recursive_directory_iterator(x.dir, ec)) {
    if (entry.is_symlink(ec) || !entry.is_regular_file(ec)) continue;
    c.trace_bytes += entry.file_size(ec);
  }
  c.threads = x.streams.size();
  c.events_lost = x.meta.value("/recorder/events_lost"_json_pointer, uint64_t(0));
  if (x.status == "complete" && x.meta.contains("explicit_tasks")) {
    c.parallel_regions = x.meta.value("/counts/parallel_begin"_json_pointer, uint64_t(0));
    c.explicit_tasks = x.meta.value("explicit_tasks", uint64_t(0));
    c.events = x.meta.value("/recorder/events_written"_json_pointer, uint64_t(0));
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
        if (e.kind == format::Kind::kTaskCreate && (e.flags & format::task_flag::kExplicit)) {
          ++c.explicit_tasks;
        }
      }
    }
  }
  return c;
}

void print_run_summary(FILE* out, const std::string& dir, const std::vector<std::string>& command,
                       const ChildExit& child) {
  auto x = format::open_experiment(dir);
  if (!x) {
    fmt::print(out, "tasklens: the experiment in {} cannot be read: {}\n", dir, x.error().message);
    return;
  }
  RunCounts c = count_experiment(*x);
  std::string how = child.signaled
                        ? fmt::format("killed by signal {} ({})", child.code,
                                      sigabbrev_np(child.code) ? sigabbrev_np(child.code) : "?")
                        : fmt::format("exit status {}", child.code);
  fmt::print(out, "tasklens: recorded {} ({}) into {}\n", fs::path(command[0]).filename().string(),
             how, dir);
  fmt::print(out, "  threads            {}\n", c.threads);
  fmt::print(out, "  parallel regions   {}\n", c.parallel_regions);
  fmt::print(out, "  explicit tasks     {}\n", c.explicit_tasks);
  fmt::print(out, "  events             {}\n", c.events);
  fmt::print(out, "  wall time          {:.3f} s\n", double(child.wall_ns) * 1e-9);
  fmt::print(out, "  trace size         {:.2f} MiB ({:.2f} bytes/event)\n",
             double(c.trace_bytes) / (1024.0 * 1024.0),
             c.events ? double(c.trace_bytes) / double(c.events) : 0.0);
  if (c.events_lost == 0 && x->status == "complete") {
    fmt::print(out, "  events lost        0\n");
  } else if (x->status == "complete" &&
             !x->meta.value("/recorder/write_error"_json_pointer, std::string()).empty()) {
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
  fmt::print(out, "  next: tasklens report {}\n", dir);
}

}  // namespace tasklens::cli
