// The what-if section: predictions of the simulator in words and JSON (docs/REPORT.md,
// "what_if"; the model: docs/WHAT-IF.md).
#include "report/what_if_section.h"

#include <fmt/format.h>

#include <algorithm>

#include "format/plural.h"
#include "report/text_format.h"
#include "simulate/what_if.h"

namespace tasklens::report {
namespace {

using simulate::Flattening;
using simulate::WhatIf;

const char* flattening_key(Flattening f) {
  switch (f) {
    case Flattening::kNone:
      return "none";
    case Flattening::kCreation:
      return "creation";
    case Flattening::kOverhead:
      return "overhead";
    case Flattening::kDependences:
      return "dependences";
    case Flattening::kSpan:
      return "span";
    case Flattening::kSerial:
      return "serial";
    case Flattening::kIdle:
      return "idle";
  }
  return "none";
}

std::string flattening_text(const WhatIf& w) {
  if (w.predictions.size() < 2) return "";
  if (w.flattening == Flattening::kNone && !w.flattens_at) {
    return fmt::format("The curve does not flatten up to {}.",
                       format::plural(w.predictions.back().threads, "thread"));
  }
  std::string why;
  switch (w.flattening) {
    case Flattening::kCreation:
      why =
          "one task creates the tasks one after another, and its creation strand bounds the run "
          "(see --graph)";
      break;
    case Flattening::kOverhead:
      why = fmt::format(
          "the scheduling cost of the tasks ({} each) grows to a quarter of the work "
          "or more: make the tasks larger (a cut-off)",
          duration(w.schedule_ns));
      break;
    case Flattening::kDependences:
      why =
          fmt::format("the critical path ({}), mostly a chain of dependences, is all that is left",
                      duration(w.span_ns));
      break;
    case Flattening::kSpan:
      why = fmt::format("the critical path ({}) is all that is left", duration(w.span_ns));
      break;
    case Flattening::kSerial:
      why = fmt::format(
          "the serial code ({} outside parallel regions and before the first) is "
          "most of the time left (Amdahl)",
          duration(w.serial_ns));
      break;
    case Flattening::kIdle:
      why = "threads find too few tasks to steal: too little parallelism when they look";
      break;
    case Flattening::kNone:
      break;
  }
  return fmt::format("The curve flattens at {}: {}.", format::plural(w.flattens_at, "thread"), why);
}

// "fib.c:35" or, for a recursion of several constructs, "fib.c:35 (with fib.c:37)".
std::string recursion_name(uint64_t first, const std::vector<uint64_t>& all,
                           const ReportContext& ctx) {
  std::string name = ctx.symbols.short_name(first), others;
  for (uint64_t c : all) {
    if (c != first) others += (others.empty() ? "" : ", ") + ctx.symbols.short_name(c);
  }
  return others.empty() ? name : name + " (with " + others + ")";
}

nlohmann::json locations(const std::vector<uint64_t>& all, const ReportContext& ctx) {
  nlohmann::json j = nlohmann::json::array();
  for (uint64_t c : all) j.push_back(ctx.symbols.short_name(c));
  return j;
}

simulate::WhatIfOptions options_of(const ReportOptions& options) {
  simulate::WhatIfOptions o;
  o.threads = options.what_if_threads;
  o.cutoff_depths = options.what_if_cutoffs;
  o.also = options.what_if_also;
  return o;
}

class WhatIfSection : public Section {
 public:
  explicit WhatIfSection(const ReportOptions& options) : pass_(options_of(options)) {}
  replay::Pass& pass() override { return pass_; }

  void text(const ReportContext& ctx, std::string& out) override {
    const WhatIf& w = pass_.result();
    std::string how =
        w.schedule_estimate == simulate::Estimate::kTaskStarts
            ? fmt::format("the trimmed mean of {} task starts", count(w.schedule_samples))
            : fmt::format("the breakdown's overhead {} / {} tasks", duration(w.overhead_ns),
                          count(w.tasks_started));
    if (w.combination == simulate::Combination::kMedianWork) {
      how = fmt::format("the median of {} recordings' estimates, this one's from {}", w.recordings,
                        how);
    }
    out += fmt::format(
        "What-if: this run's task graph simulated on other thread counts (libomp's policy; "
        "docs/WHAT-IF.md)\n  recorded: {}, {}; {}, {} task fragments; scheduling {} per "
        "task ({})\n",
        format::plural(w.recorded_threads, "thread"), duration(w.recorded_run_ns),
        format::plural(w.tasks, "task", {}, count(w.tasks)), count(w.fragments),
        duration(w.schedule_ns), how);
    if (w.taskwait_samples) {
      out += fmt::format("  taskwait {} each (the trimmed mean of {} with nothing to wait for)\n",
                         duration(w.taskwait_ns), count(w.taskwait_samples));
    }
    for (const WhatIf::Creation& c : w.creation) {
      if (w.creation.size() < 2 || c.schedule_estimate != simulate::Estimate::kTaskStarts) continue;
      out += fmt::format("    {}: scheduling {} per task (trimmed mean of {}), creation {}\n",
                         ctx.symbols.short_name(c.codeptr), duration(c.schedule_ns),
                         count(c.schedule_samples), duration(c.ns));
    }
    if (w.ran_immediately_team_of_one) {
      out += fmt::format(
          "  {} ran at once at their creation in a team of one (libomp's serialized team): "
          "deferred in the simulation\n",
          format::plural(w.ran_immediately_team_of_one, "task", {},
                         count(w.ran_immediately_team_of_one)));
    }
    for (const std::string& e : w.recording_errors) {
      out += fmt::format("  left out (--what-if-also): {}\n", e);
    }
    if (w.recordings > 1) {
      out += fmt::format(
          "  {} recordings of the program: {}; the spread is each one's own prediction\n",
          w.recordings,
          w.combination == simulate::Combination::kMedianWork
              ? "one graph shape, each task fragment's median work and each cost's median"
              : "graphs of different shapes, each count's median prediction");
    }
    if (w.threads_clamped_from) {
      out += fmt::format("  {} asked for or recorded: simulated with at most {}\n",
                         format::plural(w.threads_clamped_from, "thread"),
                         format::plural(simulate::kMaxWorkers, "thread"));
    }
    const bool spread = w.recordings > 1;
    std::string stalled;  // the thread counts whose simulation stalled
    uint32_t last_stalled = 0;
    out += fmt::format("  {:>7}  {:>10}  {:>7}  {:>10}  {:>13}  {:>13}{}\n", "threads", "predicted",
                       "speedup", "efficiency", "Brent: lower", "upper",
                       spread ? "  recordings: min .. max" : "");
    for (const simulate::Prediction& p : w.predictions) {
      double speedup = p.sim.wall_ns ? double(w.one_thread_ns) / double(p.sim.wall_ns) : 0;
      std::string range;
      if (!p.wall_by_recording_ns.empty()) {
        auto [lo, hi] =
            std::minmax_element(p.wall_by_recording_ns.begin(), p.wall_by_recording_ns.end());
        range = fmt::format("  {} .. {}", duration(*lo), duration(*hi));
      }
      if (p.sim.stalled) {
        stalled += (stalled.empty() ? "" : ", ") + std::to_string(p.threads);
        last_stalled = p.threads;
      }
      out += fmt::format(
          "  {:>7}  {:>10}  {:>6.2f}x  {:>9.0f}%  {:>13}  {:>13}{}{}{}\n", p.threads,
          duration(p.sim.wall_ns), speedup, 100.0 * speedup / p.threads, duration(p.brent_lower_ns),
          duration(p.brent_upper_ns), range,
          p.threads == std::min(w.recorded_threads, simulate::kMaxWorkers) ? "  (recorded)" : "",
          p.sim.stalled ? "  (stalled)" : "");
    }
    if (!stalled.empty()) {
      // A crashed or damaged trace: tasks or team members whose end it lacks hold the rest.
      out += fmt::format(
          "  stalled at {} {}: nothing could run before the program's end (the graph lacks "
          "the end of a task or team member: see tasklens check); those times are where it "
          "stopped, not predictions\n",
          stalled, format::noun(last_stalled, "thread"));
    }
    std::string flat = flattening_text(w);
    if (!flat.empty()) out += "  " + flat + "\n";
    for (const simulate::CutoffBest& b : w.best_cutoffs) {
      std::string where = recursion_name(b.codeptr, b.constructs, ctx);
      if (!b.depth) {
        out += fmt::format("  cut-off of {}: no depth is faster at {} ({} predicted).\n", where,
                           format::plural(w.recorded_threads, "thread"), duration(b.wall_now_ns));
        continue;
      }
      out += fmt::format(
          "  cut-off of {}: keep tasks to depth {} and run deeper ones inline: {} tasks instead "
          "of {}, {} instead of {} at {} ({} faster).\n",
          where, b.depth, count(b.tasks), count(b.tasks_now), duration(b.wall_ns),
          duration(b.wall_now_ns), format::plural(w.recorded_threads, "thread"),
          percent(b.wall_now_ns - b.wall_ns, b.wall_now_ns));
    }
  }

  nlohmann::json json(const ReportContext& ctx) override {
    const WhatIf& w = pass_.result();
    nlohmann::json j = {{"recorded_threads", w.recorded_threads},
                        {"threads_clamped_from", w.threads_clamped_from},
                        {"recorded_run_ns", w.recorded_run_ns},
                        {"work_ns", w.work_ns},
                        {"span_ns", w.span_ns},
                        {"serial_ns", w.serial_ns},
                        {"outside_graph_ns", w.outside_graph_ns},
                        {"preempted_ns", w.preempted_ns},
                        {"tasks", w.tasks},
                        {"fragments", w.fragments},
                        {"schedule_ns", w.schedule_ns},
                        {"measured_overhead_ns", w.overhead_ns},
                        {"tasks_started", w.tasks_started},
                        {"schedule_estimate", simulate::estimate_key(w.schedule_estimate)},
                        {"schedule_samples", w.schedule_samples},
                        {"taskwait_ns", w.taskwait_ns},
                        {"taskwait_samples", w.taskwait_samples},
                        {"ran_immediately", w.ran_immediately},
                        {"ran_immediately_team_of_one", w.ran_immediately_team_of_one},
                        {"flattens_at", w.flattens_at},
                        {"flattening", flattening_key(w.flattening)}};
    nlohmann::json& creation = j["creation"] = nlohmann::json::array();
    for (const WhatIf::Creation& c : w.creation) {
      nlohmann::json e = {{"creation_ns", c.ns},
                          {"creation_estimate", simulate::estimate_key(c.estimate)},
                          {"creation_samples", c.samples},
                          {"schedule_ns", c.schedule_ns},
                          {"schedule_estimate", simulate::estimate_key(c.schedule_estimate)},
                          {"schedule_samples", c.schedule_samples}};
      add_code_fields(e, c.codeptr, ctx.symbols);
      creation.push_back(e);
    }
    nlohmann::json& preds = j["predictions"] = nlohmann::json::array();
    for (const simulate::Prediction& p : w.predictions) {
      preds.push_back({{"threads", p.threads},
                       {"wall_ns", p.sim.wall_ns},
                       {"work_ns", p.sim.work_ns},
                       {"overhead_ns", p.sim.overhead_ns},
                       {"idle_ns", p.sim.idle_ns},
                       {"steals", p.sim.steals},
                       {"brent_lower_ns", p.brent_lower_ns},
                       {"brent_upper_ns", p.brent_upper_ns},
                       {"stalled", p.sim.stalled}});
      if (!p.wall_by_recording_ns.empty()) {
        auto [lo, hi] =
            std::minmax_element(p.wall_by_recording_ns.begin(), p.wall_by_recording_ns.end());
        preds.back()["wall_min_ns"] = *lo;
        preds.back()["wall_max_ns"] = *hi;
        preds.back()["wall_by_recording_ns"] = p.wall_by_recording_ns;
      }
    }
    j["recordings"] = w.recordings;
    j["combination"] = w.combination == simulate::Combination::kMedianWork ? "median_work"
                       : w.combination == simulate::Combination::kMedianPrediction
                           ? "median_prediction"
                           : "one";
    j["recording_errors"] = w.recording_errors;
    nlohmann::json& cuts = j["cutoffs"] = nlohmann::json::array();
    for (const simulate::CutoffPrediction& c : w.cutoffs) {
      cuts.push_back({{"construct", ctx.symbols.short_name(c.codeptr)},
                      {"codeptr", format::address_text(c.codeptr)},
                      {"constructs", locations(c.constructs, ctx)},
                      {"depth", c.depth},
                      {"tasks", c.tasks},
                      {"wall_ns", c.wall_ns}});
    }
    nlohmann::json& best = j["best_cutoffs"] = nlohmann::json::array();
    for (const simulate::CutoffBest& b : w.best_cutoffs) {
      best.push_back({{"construct", ctx.symbols.short_name(b.codeptr)},
                      {"codeptr", format::address_text(b.codeptr)},
                      {"constructs", locations(b.constructs, ctx)},
                      {"depth", b.depth},
                      {"tasks", b.tasks},
                      {"tasks_now", b.tasks_now},
                      {"wall_ns", b.wall_ns},
                      {"wall_now_ns", b.wall_now_ns}});
    }
    return j;
  }

 private:
  simulate::WhatIfPass pass_;
};

}  // namespace

std::unique_ptr<Section> make_what_if_section(const ReportOptions& options) {
  return std::make_unique<WhatIfSection>(options);
}

}  // namespace tasklens::report
