// The task graph section of `tasklens report`, as text and JSON.
#include "report/graph_section.h"

#include <fmt/format.h>

#include "analysis/task_graph.h"
#include "report/text_format.h"

namespace tasklens::report {
namespace {

using analysis::TaskGraph;

// Below this many times the thread count, the graph itself limits the speed-up (a schedule
// needs slack: Brent's bound is reached only when parallelism is well above the thread count).
constexpr double kSlack = 2.0;

std::string advice(const TaskGraph& g) {
  if (g.span_ns == 0) return "no task body ran.";
  if (g.parallelism < kSlack * g.threads) {
    return fmt::format(
        "the graph has too little parallelism for {} threads: the critical path is {:.0f}% of "
        "the work. Shorten it: split the long tasks on it, create tasks earlier, or remove "
        "dependences.",
        g.threads, 100.0 * double(g.span_ns) / double(g.work_ns));
  }
  if (g.run_ns > 2 * g.bound_ns) {
    return "the graph has parallelism to spare; the time goes to overhead and idleness (see the "
           "breakdown), not to the critical path.";
  }
  return "the graph has enough parallelism and the run is close to the fastest schedule.";
}

class GraphSection : public Section {
 public:
  replay::Pass& pass() override { return pass_; }

  void text(const ReportContext&, std::string& out) override {
    const TaskGraph& g = pass_.result();
    out += "Task graph (work-span model over the measured task bodies: work = all of them, span "
           "= the\nlongest chain of them that dependences, taskwaits, taskgroups and barriers "
           "impose)\n";
    out += fmt::format("  work {}, span {} (the critical path): average parallelism {:.1f}\n",
                       duration(g.work_ns), duration(g.span_ns), g.parallelism);
    out += fmt::format("  {} explicit tasks, {} dependence edges\n", count(g.tasks),
                       count(g.dependence_edges));
    out += fmt::format(
        "  On {} threads no schedule takes less than max(work / {}, span) = {}; the run took {} "
        "({:.0f}% of the way there).\n",
        g.threads, g.threads, duration(g.bound_ns), duration(g.run_ns),
        g.run_ns ? 100.0 * double(g.bound_ns) / double(g.run_ns) : 0.0);
    out += "  " + advice(g) + "\n\n";
  }

  nlohmann::json json(const ReportContext&) override {
    const TaskGraph& g = pass_.result();
    return {{"work_ns", g.work_ns},
            {"span_ns", g.span_ns},
            {"parallelism", g.parallelism},
            {"threads", g.threads},
            {"bound_ns", g.bound_ns},
            {"run_ns", g.run_ns},
            {"tasks", g.tasks},
            {"dependence_edges", g.dependence_edges},
            {"advice", advice(g)}};
  }

 private:
  analysis::TaskGraphPass pass_;
};

}  // namespace

std::unique_ptr<Section> make_graph_section(const ReportOptions&) {
  return std::make_unique<GraphSection>();
}

}  // namespace tasklens::report
