// tasklens compare: runs of one program with different thread counts, side by side: the time
// accumulated over threads per overhead class (ompP's scalability analysis, Fürlinger & Gerndt, Sect. 2.2),
// as a table, as JSON and as an SVG chart.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "analysis/breakdown.h"
#include "analysis/contention.h"
#include "analysis/overheads.h"
#include "analysis/scaling.h"
#include "analysis/task_graph.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "format/experiment.h"
#include "format/stream_reader.h"
#include "replay/replay.h"
#include "report/compare_report.h"
#include "report/scaling_chart.h"
#include "symbols/symbolizer.h"

namespace tasklens::cli {
namespace {

struct CompareOptions {
  std::vector<std::string> dirs;
  std::string chart;
  bool json = false;
  bool no_symbols = false;
};

int fail(const std::string& message) {
  fmt::print(stderr, "tasklens compare: {}\n", message);
  return 2;
}

int run_compare(const CompareOptions& o) {
  if (o.dirs.size() < 2) return fail("give two or more experiment directories to compare");
  std::vector<format::Experiment> runs;
  std::vector<report::ProgramIdentity> programs;
  for (const auto& dir : o.dirs) {
    auto x = format::open_experiment(dir);
    if (!x) return fail(x.error().message);
    // A thread whose whole stream is unreadable would skew every total: refuse the run.
    if (const std::string* bad = x->first_unreadable_stream()) return fail(*bad);
    programs.push_back(report::program_identity(*x));
    runs.push_back(std::move(*x));
  }
  if (std::string why = report::program_mismatch(o.dirs, programs); !why.empty()) return fail(why);

  std::vector<analysis::ScalingRun> inputs;
  std::vector<std::string> notes;
  for (size_t i = 0; i < runs.size(); ++i) {
    const format::Experiment& x = runs[i];
    analysis::OverheadsPass pass;
    analysis::TaskGraphPass graph;
    analysis::BreakdownPass breakdown;
    ProgressLine progress("replaying " + o.dirs[i]);
    auto stats = replay::run_replay(x, {&pass, &graph, &breakdown}, progress.callback());
    progress.done();
    if (!stats) return fail(stats.error().message);
    for (const auto& p : stats->problems) notes.push_back(o.dirs[i] + ": " + p.message);
    // What check says of the run next to its name: events the recorder lost, streams lost,
    // damaged metadata, how the run ended (open_experiment's warnings say the usual ends).
    for (const auto& w : x.warnings) notes.push_back(o.dirs[i] + ": " + w);
    for (const auto& d : x.damage) notes.push_back(o.dirs[i] + ": damaged: " + d);
    if (x.status != "complete" && x.status != "running" && x.status != "crashed" &&
        x.status != "interrupted") {
      notes.push_back(o.dirs[i] + ": the run is " + x.status);
    }
    analysis::ScalingRun run;
    run.name = o.dirs[i];
    run.overheads = pass.result();
    run.graph = graph.result();
    run.split = breakdown.result().total;
    run.contention = analysis::contention_warning(analysis::read_contention(x));
    run.threads = std::max(run.overheads.max_team, 1u);
    symbols::Symbolizer symbols(x.metadata.objects, !o.no_symbols);
    for (const auto& r : run.overheads.regions) {
      run.region_keys.push_back(report::region_key(x.metadata.objects, r.codeptr, symbols));
    }
    inputs.push_back(std::move(run));
  }
  analysis::Scaling scaling = analysis::compute_scaling(std::move(inputs));
  scaling.notes.insert(scaling.notes.end(), notes.begin(), notes.end());

  if (!o.chart.empty()) {
    std::ofstream out(o.chart, std::ios::trunc);
    out << report::scaling_svg(scaling, "tasklens compare: " + programs[0].command());
    out.close();
    if (!out) return fail(o.chart + ": cannot write the chart");
  }
  std::string text;
  if (o.json) {
    nlohmann::json j = report::scaling_json(scaling, programs[0]);
    j["chart"] = o.chart.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.chart);
    text = j.dump(1) + "\n";
  } else {
    text = report::scaling_text(scaling, programs[0]);
    if (!o.chart.empty()) text += "\nChart: " + o.chart + "\n";
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

}  // namespace

void add_compare_command(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<CompareOptions>();
  CLI::App* sub = app.add_subcommand(
      "compare",
      "Compare runs of one program with different thread counts: time accumulated over threads "
      "per overhead class (ompP), speedup, the task graph's work, span and work inflation, and per "
      "parallel region work and overhead");
  sub->add_option("dirs", o->dirs, "Experiment directories (two or more)")->required();
  sub->add_option("-o,--chart", o->chart, "Write an SVG chart of the comparison to this file");
  sub->add_flag("--json", o->json, "One JSON document (keys: docs/REPORT.md)");
  sub->add_flag("--no-symbols", o->no_symbols, "Match regions across runs by object and offset, not source line");
  sub->callback([o, exit_code] { *exit_code = run_compare(*o); });
}

}  // namespace tasklens::cli
