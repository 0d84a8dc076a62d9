// The task graph section of `tasklens report`, as text and JSON.
#include "report/graph_section.h"

#include <fmt/format.h>

#include "analysis/breakdown.h"
#include "analysis/task_graph.h"
#include "format/kinds.h"
#include "format/plural.h"
#include "report/breakdown_section.h"
#include "report/text_format.h"

namespace tasklens::report {
namespace {

using analysis::TaskGraph;

// Below this many times the thread count, the graph itself limits the speed-up (a schedule
// needs slack: Brent's bound is reached only when parallelism is well above the thread count).
constexpr double kSlack = 2.0;

// A greedy schedule takes at most work / P + span: a run much longer than that lost its time
// outside the graph.
uint64_t greedy_bound(const TaskGraph& g) {
  return analysis::greedy_schedule_ns(g.work_ns, g.span_ns, g.threads);
}

std::string advice(const TaskGraph& g) {
  if (g.span_ns == 0) return "no task body ran.";
  if (g.creation_bound.found) {
    return fmt::format(
        "task creation by one thread bounds the run: {} tasks created in {} ({} of the span). "
        "Create the tasks from several threads (e.g. nested tasks or a taskloop), or make each "
        "carry more work.",
        count(g.creation_bound.tasks), duration(g.creation_bound.ns),
        percent(g.creation_bound.ns, g.span_ns));
  }
  if (g.run_ns > 2 * greedy_bound(g)) {
    return fmt::format(
        "the graph is not what limits this run: a greedy schedule would take at most work / {} "
        "+ span = {}. The time goes to overhead and idleness (see the breakdown).",
        g.threads, duration(greedy_bound(g)));
  }
  if (g.parallelism < kSlack * g.threads) {
    return fmt::format(
        "the graph has too little parallelism for {}: the critical path is {:.0f}% of "
        "the work. Shorten it: split the long tasks on it, create tasks earlier, or remove "
        "dependences.",
        format::plural(g.threads, "thread"), 100.0 * double(g.span_ns) / double(g.work_ns));
  }
  return "the graph has enough parallelism and the run is close to the fastest schedule.";
}

constexpr size_t kPathShown = 4;  // constructs named on the critical path's line

std::string path_label(const analysis::PathShare& share, const ReportContext& ctx) {
  if (share.runtime) return "runtime (forks of parallel regions, task creation)";
  if (share.codeptr == 0) return "implicit tasks (serial code, parallel regions)";
  return fmt::format("{} task{} of {}", count(share.tasks), share.tasks == 1 ? "" : "s",
                     ctx.symbols.short_name(share.codeptr));
}

// A run of the critical path as the text prints it, e.g. `142 x task at jacobi.c:37, chained
// by depend(inout)`.
std::string run_label(const analysis::PathRun& run, const ReportContext& ctx) {
  using analysis::PathKind;
  if (run.kind == PathKind::kFork) {
    return fmt::format("runtime: fork of the parallel region at {}", ctx.symbols.short_name(run.codeptr));
  }
  std::string s = run.serial ? std::string("serial code (the initial task)")
                  : run.codeptr == 0
                      ? fmt::format("{} implicit task{}", count(run.tasks), run.tasks == 1 ? "" : "s")
                      : fmt::format("{} x task at {}", count(run.tasks),
                                    ctx.symbols.short_name(run.codeptr));
  if (run.chained) {
    s += run.chained + 1 >= run.tasks ? ", chained by " : fmt::format(", {} links by ", count(run.chained));
    std::string_view type = format::dependence_type_name(run.dependence_type);
    s += type.empty() ? "dependences" : fmt::format("depend({})", type);
  }
  if (run.via == analysis::PathVia::kDependence) s += ", after a dependence";
  if (run.creates) s += fmt::format(", creating {} task{}", count(run.creates), run.creates == 1 ? "" : "s");
  if (run.creation_ns) s += fmt::format(" ({} runtime)", duration(run.creation_ns));
  return s;
}

constexpr size_t kRunsShown = 12;   // runs of the critical path the text prints at most
constexpr double kRunShown = 0.01;  // ... when they are at least this share of the span

std::string few_left(uint64_t kept, const TaskGraph& graph) {
  if (kept >= 10ull * graph.threads) return "";
  return fmt::format("; few for {}, so keep some of the smaller ones",
                     format::plural(graph.threads, "thread"));
}

std::string grain_advice(const analysis::TaskGrain& g, const analysis::GrainAdvice& a,
                         uint64_t threshold, const TaskGraph& graph, const ReportContext& ctx) {
  if (a.below < 0.5) return "";
  std::string s = fmt::format("{:.0f}% of its tasks carry less than {}: ", 100 * a.below,
                              duration(threshold));
  if (!a.cut_off && a.depth_cut_off) {
    // From the creation tree: works on any binary, no tasklens_param_int needed.
    return s + fmt::format(
                   "run the tasks at creation depth >= {} inline (a cut-off on the recursion "
                   "depth: {} tasks fewer, {} left{}).",
                   a.depth, count(a.depth_tasks_inlined), count(a.depth_tasks_kept),
                   few_left(a.depth_tasks_kept, graph));
  }
  if (!a.cut_off) return s + "make fewer, larger tasks (a cut-off, a larger grain size).";
  const std::string& name = ctx.experiment.string(g.param);
  s += fmt::format("run the tasks with {} {} {} inline (a cut-off: {} tasks fewer, {} left",
                   name, a.inline_below ? "<=" : ">=", a.value, count(a.tasks_inlined),
                   count(a.tasks_kept));
  return s + few_left(a.tasks_kept, graph) + ").";
}

class GraphSection : public Section {
 public:
  // Its grain cost needs the breakdown's overhead: the breakdown section's when the report has
  // one of the same slicing (the same figures), else a pass of its own.
  replay::Pass& pass() override { return shared_ ? static_cast<replay::Pass&>(pass_) : group_; }
  void share_passes(const std::vector<std::unique_ptr<Section>>& sections) override {
    for (const auto& s : sections) {
      const analysis::BreakdownPass* b = breakdown_pass_of(*s);
      if (b && b->slices() == breakdown_.slices()) shared_ = b;
    }
  }
  const TaskGraph& graph() const { return pass_.result(); }

  void text(const ReportContext& ctx, std::string& out) override {
    const TaskGraph& g = pass_.result();
    out += "Task graph (work-span model over the measured task bodies: work = all of them, span "
           "= the\nlongest chain of them that dependences, taskwaits, taskgroups and barriers "
           "impose)\n";
    out += fmt::format("  work {}, span {} (the critical path): average parallelism {:.1f}\n",
                       duration(g.work_ns), duration(g.span_ns), g.parallelism);
    out += fmt::format("  {} explicit tasks, {} dependence edges", count(g.tasks),
                       count(g.dependence_edges));
    if (g.satisfied_edges) {
      out += fmt::format(" ({} satisfied at creation: the predecessor had completed)",
                         count(g.satisfied_edges));
    }
    out += "\n";
    if (g.runtime_ns) {
      out += fmt::format("  {} of runtime in forks of parallel regions{} (not work), {} of it on "
                         "the critical path\n",
                         duration(g.runtime_ns),
                         g.creation_ns ? fmt::format(" and task creation ({})", duration(g.creation_ns))
                                       : std::string(),
                         duration(g.path_runtime_ns));
    }
    if (g.preempted_ns) {
      out += fmt::format(
          "  {} of the threads' time off the CPU while runnable left out of the tasks "
          "(another process or thread had the CPU: the machine's, not the tasks')\n",
          duration(g.preempted_ns));
    }
    if (!g.critical_path.empty()) {
      out += "  The critical path runs through:";
      for (size_t i = 0; i < g.critical_path.size() && i < kPathShown; ++i) {
        const analysis::PathShare& share = g.critical_path[i];
        out += fmt::format("{} {} ({}, {})", i ? ";" : "", path_label(share, ctx),
                           duration(share.ns), percent(share.ns, g.span_ns));
      }
      if (g.critical_path.size() > kPathShown) out += "; ...";
      out += "\n";
    }
    if (g.creation_bound.found) {
      out += fmt::format("  Task creation by one thread bounds the run: {} tasks created in {} ({} "
                         "of the span, {} of its part in parallel regions)\n",
                         count(g.creation_bound.tasks), duration(g.creation_bound.ns),
                         percent(g.creation_bound.ns, g.span_ns),
                         percent(g.creation_bound.ns, g.span_ns - g.path_serial_ns));
    }
    if (!g.path_runs.empty()) {
      // Runs of at least kRunShown of the span, in order; the shorter ones between them
      // summed on one line.
      out += "  The critical path in order (runs of one construct; shorter ones summed):\n";
      uint64_t short_ns = 0, short_runs = 0;
      auto flush_short = [&] {
        if (short_runs) {
          out += fmt::format("    {:<64} {:>10} {:>6}\n",
                             fmt::format("({} short run{})", count(short_runs),
                                         short_runs == 1 ? "" : "s"),
                             duration(short_ns), percent(short_ns, g.span_ns));
        }
        short_ns = short_runs = 0;
      };
      size_t shown = 0;
      for (size_t i = 0; i < g.path_runs.size(); ++i) {
        const analysis::PathRun& run = g.path_runs[i];
        // What follows a creation bound (the tasks created last, a dependence chain) is shown
        // up to the next serial code, however short.
        bool after_bound = g.creation_bound.found && i > g.creation_bound.run &&
                           i <= g.creation_bound.run + kRunsShown && !run.serial;
        bool show = g.path_runs.size() <= kRunsShown || after_bound ||
                    (shown < kRunsShown && double(run.ns) >= kRunShown * double(g.span_ns));
        if (!show) {
          short_ns += run.ns;
          ++short_runs;
          continue;
        }
        flush_short();
        ++shown;
        out += fmt::format("    {:<64} {:>10} {:>6}\n", run_label(run, ctx), duration(run.ns),
                           percent(run.ns, g.span_ns));
      }
      short_runs += g.path_runs_left_off;
      flush_short();
    }
    out += fmt::format(
        "  On {} no schedule takes less than max(work / {}, span) = {}; the run took {} "
        "({:.0f}% of the way there).\n",
        format::plural(g.threads, "thread"), g.threads, duration(g.bound_ns), duration(g.run_ns),
        g.run_ns ? 100.0 * double(g.bound_ns) / double(g.run_ns) : 0.0);
    out += "  " + advice(g) + "\n\n";
    if (g.grains.empty()) return;
    const analysis::GrainCost gc = grain_cost();
    uint64_t cost = gc.task_cost_ns, threshold = gc.threshold_ns;
    out += fmt::format(
        "Task sizes (subtree work = a task's running time plus what it waited for; each task "
        "costs the\nrun {} of overhead, the breakdown's overhead per task; a task should carry "
        "{}x that, {})\n",
        duration(cost), analysis::kGrainFactor, duration(threshold));
    out += fmt::format("  {:<28} {:>12} {:>13} {:>13}  {}\n", "construct", "tasks",
                       "mean subtree", "below", "");
    for (const analysis::TaskGrain& grain : g.grains) {
      if (grain.tasks == 0) continue;
      analysis::GrainAdvice a = analysis::advise_grain(grain, threshold);
      out += fmt::format("  {:<28} {:>12} {:>13} {:>12.0f}%  {}\n",
                         ctx.symbols.short_name(grain.codeptr), count(grain.tasks),
                         duration(grain.subtree_ns / grain.tasks), 100 * a.below,
                         grain_advice(grain, a, threshold, g, ctx));
    }
    out += "\n";
  }

  nlohmann::json json(const ReportContext& ctx) override {
    const TaskGraph& g = pass_.result();
    const analysis::GrainCost gc = grain_cost();
    uint64_t threshold = gc.threshold_ns;
    nlohmann::json grains = nlohmann::json::array();
    for (const analysis::TaskGrain& grain : g.grains) {
      if (grain.tasks == 0) continue;
      analysis::GrainAdvice a = analysis::advise_grain(grain, threshold);
      nlohmann::json j = {{"tasks", grain.tasks},
                          {"subtree_ns", grain.subtree_ns},
                          {"below_threshold", a.below},
                          {"advice", grain_advice(grain, a, threshold, g, ctx)}};
      add_code_fields(j, grain.codeptr, ctx.symbols);
      if (grain.param) {
        j["parameter"] = ctx.experiment.string(grain.param);
        nlohmann::json values = nlohmann::json::array();
        for (const auto& [value, v] : grain.by_value) {
          values.push_back({{"value", value}, {"tasks", v.tasks}, {"subtree_ns", v.subtree_ns}});
        }
        j["values"] = values;
        if (a.cut_off) {
          j["cut_off"] = {{"inline", a.inline_below ? "<=" : ">="},
                          {"value", a.value},
                          {"tasks_inlined", a.tasks_inlined},
                          {"tasks_kept", a.tasks_kept}};
        }
      }
      nlohmann::json depths = nlohmann::json::array();
      for (const auto& [depth, v] : grain.by_depth) {
        depths.push_back({{"depth", depth}, {"tasks", v.tasks}, {"subtree_ns", v.subtree_ns}});
      }
      j["depths"] = depths;
      if (a.depth_cut_off) {
        nlohmann::json& cut = j["cut_off"];
        if (!a.cut_off) {
          cut = {{"inline", ">="},
                 {"tasks_inlined", a.depth_tasks_inlined},
                 {"tasks_kept", a.depth_tasks_kept}};
        }
        cut["depth"] = a.depth;
        cut["depth_tasks_inlined"] = a.depth_tasks_inlined;
        cut["depth_tasks_kept"] = a.depth_tasks_kept;
      }
      grains.push_back(j);
    }
    nlohmann::json path = nlohmann::json::array();
    for (const analysis::PathShare& share : g.critical_path) {
      nlohmann::json j = {{"ns", share.ns}, {"tasks", share.tasks}};
      if (share.runtime) {
        j["runtime"] = true;
      } else if (share.codeptr) {
        add_code_fields(j, share.codeptr, ctx.symbols);
      } else {
        j["implicit"] = true;
      }
      path.push_back(j);
    }
    nlohmann::json runs = nlohmann::json::array();
    for (const analysis::PathRun& run : g.path_runs) {
      nlohmann::json j = {{"kind", run.kind == analysis::PathKind::kFork ? "fork" : "task"},
                          {"via", analysis::path_via_name(run.via)},
                          {"ns", run.ns},
                          {"tasks", run.tasks},
                          {"creates", run.creates},
                          {"creating_ns", run.creating_ns},
                          {"creation_ns", run.creation_ns},
                          {"chained", run.chained},
                          {"label", run_label(run, ctx)}};
      if (run.chained) j["dependence_type"] = format::dependence_type_name(run.dependence_type);
      if (run.codeptr) {
        add_code_fields(j, run.codeptr, ctx.symbols);
      } else if (run.kind == analysis::PathKind::kWork) {
        j["implicit"] = true;
      }
      if (run.serial) j["serial"] = true;
      runs.push_back(j);
    }
    nlohmann::json bound = nullptr;
    if (g.creation_bound.found) {
      bound = {{"tasks", g.creation_bound.tasks},
               {"ns", g.creation_bound.ns},
               {"run", g.creation_bound.run}};
    }
    return {{"critical_path", path},
            {"critical_path_runs", runs},
            {"critical_path_runs_left_off", g.path_runs_left_off},
            {"creation_bound", bound},
            {"runtime_ns", g.runtime_ns},
            {"path_runtime_ns", g.path_runtime_ns},
            {"creation_ns", g.creation_ns},
            {"path_creation_ns", g.path_creation_ns},
            {"path_serial_ns", g.path_serial_ns},
            {"preempted_ns", g.preempted_ns},
            {"dependence_edges_satisfied_at_creation", g.satisfied_edges},
            {"task_cost_ns", gc.task_cost_ns},
            {"grain_threshold_ns", threshold},
            {"grains", grains},
            {"work_ns", g.work_ns},
            {"span_ns", g.span_ns},
            {"parallelism", g.parallelism},
            {"threads", g.threads},
            {"bound_ns", g.bound_ns},
            {"greedy_bound_ns", greedy_bound(g)},
            {"run_ns", g.run_ns},
            {"tasks", g.tasks},
            {"dependence_edges", g.dependence_edges},
            {"advice", advice(g)}};
  }

 private:
  analysis::GrainCost grain_cost() const {
    const analysis::BreakdownPass& b = shared_ ? *shared_ : breakdown_;
    return analysis::grain_cost(b.result().total.overhead_ns, pass_.result().tasks);
  }

  analysis::TaskGraphPass pass_;
  analysis::BreakdownPass breakdown_;
  const analysis::BreakdownPass* shared_ = nullptr;  // the breakdown section's, when it has one
  replay::PassGroup group_{{&pass_, &breakdown_}};
};

}  // namespace

const analysis::TaskGraph* graph_of(const Section& section) {
  auto* g = dynamic_cast<const GraphSection*>(&section);
  return g ? &g->graph() : nullptr;
}

std::unique_ptr<Section> make_graph_section(const ReportOptions&) {
  return std::make_unique<GraphSection>();
}

}  // namespace tasklens::report
