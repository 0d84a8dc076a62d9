// tasklens diff BEFORE AFTER: any two experiments side by side (src/report/diff_report.h).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>

#include "analysis/breakdown.h"
#include "analysis/contention.h"
#include "analysis/profile.h"
#include "analysis/profile_file.h"
#include "analysis/task_graph.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "format/experiment.h"
#include "replay/replay.h"
#include "report/diff_report.h"
#include "symbols/symbolizer.h"

namespace tasklens::cli {
namespace {

struct DiffOptions {
  std::string before, after;
  bool json = false;
  bool no_symbols = false;
};

int fail(const std::string& message) {
  fmt::print(stderr, "tasklens diff: {}\n", message);
  return 2;
}

void add_constructs(const analysis::Profile& profile, symbols::Symbolizer& symbols,
                    report::DiffRun* run) {
  for (const analysis::TaskConstruct& c : profile.tasks) {
    report::add_construct(*run, symbols.short_name(c.codeptr), c.instances, c.time);
  }
}

// A profile-mode run's figures come from its profile.json: the breakdown it built online and its
// task constructs; it has no task graph, so no critical path.
std::string summarize_profile_mode(const format::Experiment& x, bool no_symbols,
                                   report::DiffRun* run) {
  auto data = analysis::read_profile_mode(x);
  if (!data) return data.error().message;
  symbols::Symbolizer symbols(x.metadata.objects, !no_symbols);
  run->name = x.dir;
  run->run_ns = data->run_ns;
  run->split = data->breakdown.total;
  run->verdict = data->breakdown.verdict;
  run->span_ns.reset();
  run->warning = analysis::contention_warning(analysis::read_contention(x, &*data));
  add_constructs(data->profile, symbols, run);
  return "";
}

// One run's figures, or an error message.
std::string summarize(const std::string& dir, bool no_symbols, report::DiffRun* run) {
  auto x = format::open_experiment(dir);
  if (!x) return x.error().message;
  if (x->metadata.profile_mode()) return summarize_profile_mode(*x, no_symbols, run);
  analysis::BreakdownPass breakdown;
  analysis::ProfilePass profile;
  analysis::TaskGraphPass graph;
  symbols::Symbolizer symbols(x->metadata.objects, !no_symbols);
  ProgressLine progress("replaying " + dir);
  auto stats = replay::run_replay(*x, {&breakdown, &profile, &graph}, progress.callback(), &symbols);
  progress.done();
  if (!stats) return stats.error().message;
  run->name = dir;
  run->run_ns = stats->end_ns;
  run->split = breakdown.result().total;
  run->verdict = breakdown.result().verdict;
  run->span_ns = graph.result().span_ns;
  run->warning = analysis::contention_warning(analysis::read_contention(*x));
  add_constructs(profile.result(), symbols, run);
  return "";
}

int run_diff(const DiffOptions& o) {
  report::DiffRun before, after;
  if (std::string e = summarize(o.before, o.no_symbols, &before); !e.empty()) return fail(e);
  if (std::string e = summarize(o.after, o.no_symbols, &after); !e.empty()) return fail(e);
  std::string text = o.json ? nlohmann::json{{"diff", report::diff_json(before, after)}}.dump(1) + "\n"
                            : report::diff_text(before, after);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

}  // namespace

void add_diff_command(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<DiffOptions>();
  CLI::App* sub = app.add_subcommand(
      "diff",
      "Two experiments of anything (a code change, another cut-off, another input) side by "
      "side: run time, breakdown, verdict, critical path, and per task construct (by source "
      "location) instances and time, largest change first. A profile-mode experiment (run "
      "--mode profile) gives all but the critical path");
  sub->add_option("before", o->before, "Experiment directory before")->required();
  sub->add_option("after", o->after, "Experiment directory after")->required();
  sub->add_flag("--json", o->json, "One JSON document (keys: docs/REPORT.md, diff)");
  sub->add_flag("--no-symbols", o->no_symbols, "Match constructs by address, not source line");
  sub->callback([o, exit_code] { *exit_code = run_diff(*o); });
}

}  // namespace tasklens::cli
