// tasklens export: convert an experiment for another tool (Vampir, Paraver, Perfetto, Graphviz).
//
//   tasklens export DIR --to otf2|paraver|perfetto|perfetto-json|dot -o PATH [--from T0 --to T1] [--threads L]
//
// `--to` names the format, and with a time the end of the window: each value of --to is one or
// the other (a format name or a time such as 1500000, 1.5ms, 20us, 2s).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cmath>
#include <cstdio>

#include "cli/commands.h"
#include "cli/mpi_export.h"
#include "cli/progress.h"
#include "export/export.h"
#include "format/experiment.h"
#include "format/stream_reader.h"

namespace tasklens::cli {
namespace {

struct ExportCli {
  std::string dir;
  std::string out;
  std::vector<std::string> to;  // format and/or window end
  std::string from;
  std::string threads;
  std::string graph = "auto";
  bool no_symbols = false;
  bool quiet = false;
  double max_gb = 4;     // a whole-trace export estimated bigger than this stops first
  bool big_ok = false;   // go on anyway
  exports::ExportOptions options;
};

// " (e.g. --from 0 --to 120ms)": a window of `fraction` of the run's recorded time, when known.
std::string window_hint(const format::Metadata& m, double fraction) {
  const auto& c = m.clock;
  if (c.end.ns <= c.start.ns || c.start.ns == 0) return "";
  double ms = double(c.end.ns - c.start.ns) * fraction / 1e6;
  if (ms >= 1) return fmt::format(" (e.g. --from 0 --to {:.0f}ms)", ms);
  return fmt::format(" (e.g. --from 0 --to {:.0f}us)", std::max(1.0, ms * 1e3));
}

// "1500", "1500ns", "1.5us", "20ms", "2s" -> ns since the start of the run.
bool parse_time(const std::string& text, uint64_t* ns) {
  if (text.empty()) return false;
  size_t used = 0;
  double v;
  try {
    v = std::stod(text, &used);
  } catch (...) {
    return false;
  }
  std::string unit = text.substr(used);
  double scale;
  if (unit.empty() || unit == "ns") scale = 1;
  else if (unit == "us") scale = 1e3;
  else if (unit == "ms") scale = 1e6;
  else if (unit == "s") scale = 1e9;
  else return false;
  double r = v * scale;
  if (!(r >= 0) || r > 1.8e19) return false;
  *ns = uint64_t(std::llround(r));
  return true;
}

// "0,2-3" -> {0, 2, 3}.
bool parse_threads(const std::string& text, std::vector<uint32_t>* out) {
  size_t i = 0;
  while (i < text.size()) {
    size_t comma = text.find(',', i);
    std::string part = text.substr(i, comma == std::string::npos ? std::string::npos : comma - i);
    size_t dash = part.find('-');
    try {
      size_t used = 0;
      unsigned long lo = std::stoul(part.substr(0, dash), &used);
      if (used != (dash == std::string::npos ? part.size() : dash)) return false;
      unsigned long hi = lo;
      if (dash != std::string::npos) {
        std::string rest = part.substr(dash + 1);
        hi = std::stoul(rest, &used);
        if (used != rest.size()) return false;
      }
      if (hi < lo || hi > 65535) return false;
      for (unsigned long t = lo; t <= hi; ++t) out->push_back(uint32_t(t));
    } catch (...) {
      return false;
    }
    if (comma == std::string::npos) break;
    i = comma + 1;
  }
  return !out->empty();
}

int fail(const std::string& message) {
  std::fprintf(stderr, "tasklens export: %s\n", message.c_str());
  return 2;
}

int run_export(ExportCli& o) {
  const exports::ExportFormat* format = nullptr;
  bool have_end = false;
  for (const std::string& v : o.to) {
    uint64_t t;
    if (const exports::ExportFormat* f = exports::find_export_format(v)) {
      if (format) return fail(fmt::format("--to names two formats ({}, {})", format->name, v));
      format = f;
    } else if (parse_time(v, &t)) {
      if (have_end) return fail("--to gives two window ends");
      o.options.to_ns = t;
      have_end = true;
    } else {
      return fail(fmt::format("--to {}: not a format ({}) nor a time (e.g. 1500000, 1.5ms, 2s)",
                              v, exports::export_format_names()));
    }
  }
  if (!format) format = exports::export_format_for_path(o.out);
  if (!format) return fail("which format? --to " + exports::export_format_names("|"));
  if (o.out == "-" && !format->to_stdout) {
    std::vector<std::string_view> names;
    for (const exports::ExportFormat* f : exports::export_formats()) {
      if (f->to_stdout) names.push_back(f->name);
    }
    std::string can;  // "a, b and c"
    for (size_t i = 0; i < names.size(); ++i) {
      can += std::string(i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + std::string(names[i]);
    }
    return fail(fmt::format("-o -: {} writes several files; only the {} exports can go to stdout",
                            format->name, can));
  }
  if (!o.from.empty() && !parse_time(o.from, &o.options.from_ns)) {
    return fail("--from " + o.from + ": not a time (e.g. 1500000, 1.5ms, 2s)");
  }
  if (!o.threads.empty() && !parse_threads(o.threads, &o.options.threads)) {
    return fail("--threads " + o.threads + ": not a list of thread numbers (e.g. 0,2-3)");
  }
  o.options.symbols = !o.no_symbols;
  o.options.graph = o.graph == "tasks"        ? exports::GraphDetail::kTasks
                    : o.graph == "constructs" ? exports::GraphDetail::kConstructs
                                              : exports::GraphDetail::kAuto;

  // An MPI run: a format that draws every rank (a process each, on one time line) does; Perfetto
  // JSON joins the ranks' documents; the other formats export one rank.
  if (format::is_mpi_run(o.dir) && format->run && o.out != "-") {
    auto run = format::open_mpi_run(o.dir);
    if (!run) return fail(run.error().message);
    ProgressLine progress("exporting");
    auto s = format->run(*run, o.out, o.options, progress.callback());
    progress.done();
    if (!s) return fail(s.error().message);
    if (!o.quiet) {
      std::string files;
      for (const auto& f : s->files) files += (files.empty() ? "" : ", ") + f;
      fmt::print("tasklens export: wrote {} ({} ranks, a process each; {} {} from {} events)\n",
                 files, run->ranks.size(), s->records_out, s->unit, s->events_in);
    }
    for (const auto& n : s->notes) {
      bool warning = n.rfind("warning:", 0) == 0;
      if (warning || !o.quiet) fmt::print(warning ? stderr : stdout, "  {}\n", n);
    }
    for (const auto& w : run->warnings) fmt::print(stderr, "tasklens export: warning: {}\n", w);
    return run->warnings.empty() ? 0 : 1;
  }
  if (format::is_mpi_run(o.dir) && format->name == "perfetto-json" && o.out != "-") {
    auto run = format::open_mpi_run(o.dir);
    if (!run) return fail(run.error().message);
    std::string error;
    if (!export_mpi_run_perfetto_json(*run, *format, o.out, o.options, &error)) return fail(error);
    if (!o.quiet) {
      fmt::print("tasklens export: wrote {} ({} ranks, a process group each)\n", o.out,
                 run->ranks.size());
    }
    return 0;
  }
  if (format::is_mpi_run(o.dir) && (format->run || format->name == "perfetto-json")) {
    return fail(fmt::format("{} is an MPI run: --to {} writes every rank to a file, not to "
                            "standard output (-o FILE)", o.dir, format->name));
  }
  if (format::is_mpi_run(o.dir)) {
    std::string whole;  // the formats that draw the whole run
    for (const exports::ExportFormat* f : exports::export_formats()) {
      if (f->run) whole += (whole.empty() ? "" : ", ") + std::string(f->name);
    }
    return fail(fmt::format("{} is an MPI run: --to {} exports one rank, give its folder "
                            "({}/rank-N); {} and perfetto-json (to a file) export every rank "
                            "(docs/MPI.md)",
                            o.dir, format->name, o.dir, whole));
  }
  auto x = format::open_experiment(o.dir);
  if (!x) return fail(x.error().message);
  if (x->metadata.profile_mode()) return fail(o.dir + ": a profile-mode experiment " + kNeedsTrace);
  // A timeline without one of its threads would mislead: refuse the run.
  if (const std::string* bad = x->first_unreadable_stream()) return fail(*bad);
  FILE* info = o.out == "-" ? stderr : stdout;
  if (format->name.rfind("perfetto", 0) == 0 && o.options.threads.empty() &&
      o.options.from_ns == 0 && o.options.to_ns == UINT64_MAX) {
    uint64_t recorded = x->metadata.recorder.events_written;
    if (recorded > o.options.browser_events) {
      fmt::print(stderr,
                 "tasklens export: warning: the trace has {} events; the whole of it will be too "
                 "big for a browser (more than {} trace events). Narrow it with --from/--to or "
                 "--threads, or open it with trace_processor.\n",
                 recorded, o.options.browser_events);
      o.options.browser_warned = true;  // said before writing: not again at the end
    }
  }
  // A whole-trace export of a long run can take many GB: say so before writing, and how to window.
  if (o.options.threads.empty() && o.options.from_ns == 0 && o.options.to_ns == UINT64_MAX &&
      !o.big_ok) {
    uint64_t recorded = x->metadata.recorder.events_written;
    double gb = double(recorded) * format->bytes_per_event / 1e9;
    if (gb > o.max_gb) {
      return fail(fmt::format(
          "{} of the whole trace would be about {} ({} events, about {} bytes each): "
          "export a window with --from/--to{} or some threads with --threads, or pass --big "
          "to write it all (the limit is --max-gb {})",
          format->name,
          gb >= 1 ? fmt::format("{:.1f} GB", gb) : fmt::format("{:.0f} MB", std::max(1.0, gb * 1e3)),
          recorded, format->bytes_per_event,
          window_hint(x->metadata, o.max_gb / gb), o.max_gb));
    }
  }
  ProgressLine progress("exporting");
  auto s = exports::export_experiment(*x, *format, o.out, o.options, progress.callback());
  progress.done();
  if (!s) return fail(s.error().message);
  if (!o.quiet) {
    std::string files;
    for (const auto& f : s->files) files += (files.empty() ? "" : ", ") + f;
    fmt::print(info, "tasklens export: wrote {} ({} {} from {} events)\n", files, s->records_out,
               s->unit, s->events_in);
  }
  for (const auto& n : s->notes) {
    bool warning = n.rfind("warning:", 0) == 0;
    if (warning || !o.quiet) fmt::print(warning ? stderr : info, "  {}\n", n);
  }
  // Damaged metadata or a lost stream: what was sound is exported, the rest said.
  for (const auto& d : x->damage) fmt::print(stderr, "tasklens export: warning: {}\n", d);
  return x->damage.empty() ? 0 : 1;
}

}  // namespace

// The formats as --help lists them: "otf2 (...): help" lines, and what -o names for each.
std::string formats_help() {
  std::string text = "The format, one of:";
  for (const exports::ExportFormat* f : exports::export_formats()) {
    std::string also;
    for (std::string_view a : f->aliases) {
      if (!a.empty()) also += std::string(also.empty() ? " (or " : ", ") + std::string(a);
    }
    text += fmt::format("\n  {}{}{}: {}", f->name, also, also.empty() ? "" : ")", f->help);
  }
  return text + "\nWith a time (ns, or with a unit: us, ms, s): the end of the window";
}

std::string output_help() {
  std::string text = "Output, per format:";
  for (const exports::ExportFormat* f : exports::export_formats()) {
    text += fmt::format("\n  {}: {}{}", f->name, f->output, f->to_stdout ? " ('-': stdout)" : "");
  }
  return text;
}

void add_export_command(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<ExportCli>();
  CLI::App* sub = app.add_subcommand(
      "export", fmt::format("Convert an experiment for another tool ({}; mappings: "
                            "docs/EXPORTS.md)",
                            exports::export_format_names()));
  sub->add_option("dir", o->dir, "Experiment directory")->required();
  sub->add_option("--to", o->to, formats_help())
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_option("-o,--output", o->out, output_help())->required();
  sub->add_option("--from", o->from, "Start of the window (time since the start of the run)");
  sub->add_option("--threads", o->threads, "Threads to export, e.g. 0,2-3 (default: all)");
  sub->add_flag("--no-symbols", o->no_symbols, "Name constructs by code address, not source line");
  sub->add_option("--graph", o->graph,
                  "DOT: one node per task (tasks), per construct (constructs), or tasks up to "
                  "--max-graph-tasks tasks and --max-graph-dependences dependences (auto)")
      ->check(CLI::IsMember({"auto", "tasks", "constructs"}))
      ->capture_default_str();
  sub->add_option("--max-graph-tasks", o->options.max_graph_tasks,
                  "DOT, --graph auto: above this many tasks, one node per construct")
      ->capture_default_str();
  sub->add_option("--max-graph-dependences", o->options.max_graph_dependences,
                  "DOT, --graph auto: above this many dependence edges, one node per construct "
                  "(Graphviz's layout time grows steeply with them)")
      ->capture_default_str();
  sub->add_option("--max-task-rows", o->options.max_task_rows,
                  "Paraver: above this many tasks, task-view rows are shared by tasks that do not "
                  "overlap")
      ->capture_default_str();
  sub->add_option("--browser-events", o->options.browser_events,
                  "Perfetto: warn above this many trace events")
      ->capture_default_str();
  sub->add_option("--max-gb", o->max_gb,
                  "Stop before a whole-trace export estimated bigger than this many GB")
      ->capture_default_str();
  sub->add_flag("--big", o->big_ok, "Write the whole trace even above --max-gb");
  sub->add_flag("-q,--quiet", o->quiet, "Print only warnings and errors");
  sub->callback([o, exit_code] { *exit_code = run_export(*o); });
}

}  // namespace tasklens::cli
