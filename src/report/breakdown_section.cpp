// The breakdown section of `tasklens report`, as text and JSON.
#include "report/breakdown_section.h"

#include <fmt/format.h>

#include "analysis/breakdown.h"
#include "format/plural.h"
#include "report/text_format.h"

namespace tasklens::report {
namespace {

using analysis::Breakdown;
using analysis::TimeSplit;

nlohmann::json split_json(const TimeSplit& t) {
  return {{"work_ns", t.work_ns}, {"overhead_ns", t.overhead_ns}, {"idle_ns", t.idle_ns}};
}

std::string split_row(const std::string& label, const TimeSplit& t) {
  uint64_t all = t.total_ns();
  return fmt::format("  {:<34} {:>12} {:>6}  {:>12} {:>6}  {:>12} {:>6}\n", label,
                     duration(t.work_ns), percent(t.work_ns, all), duration(t.overhead_ns),
                     percent(t.overhead_ns, all), duration(t.idle_ns), percent(t.idle_ns, all));
}

std::string region_label(uint64_t codeptr, replay::Symbolizer& symbols) {
  if (codeptr == 0) return "outside parallel regions";
  const replay::Location& l = symbols.resolve(codeptr);
  if (!l.file.empty()) return fmt::format("parallel {}:{}", l.file, l.line);
  return fmt::format("parallel {}", symbols.short_name(codeptr));
}

class BreakdownSection : public Section {
 public:
  explicit BreakdownSection(const ReportOptions& o) : pass_(o.slices) {}
  replay::Pass& pass() override { return pass_; }

  void text(const ReportContext& ctx, std::string& out) override {
    const Breakdown& b = pass_.result();
    out += fmt::format("Verdict {}: {}.\n", analysis::verdict_code(b.verdict),
                       analysis::verdict_meaning(b.verdict));
    out += fmt::format("  Idleness is {:.1f}% and overhead {:.1f}% of the threads' time (high: "
                       ">= {:.0f}%): {}\n\n",
                       100 * b.idle_share, 100 * b.overhead_share, 100 * b.high_threshold,
                       analysis::verdict_advice(b.verdict));
    out += "Time breakdown (POT: work = running a task body; overhead = not, while a task is "
           "ready;\nidleness = not, with no task ready)\n";
    out += fmt::format("  {:<34} {:>19}  {:>19}  {:>19}\n", "", "work", "overhead", "idleness");
    out += split_row(fmt::format("all {} ({} each)", format::plural(b.threads.size(), "thread"),
                                 duration(b.run_ns)),
                     b.total);
    for (const auto& t : b.threads) out += split_row(fmt::format("thread {}", t.thread), t.time);
    out += "\nBy parallel region (accumulated over threads)\n";
    for (const auto& r : b.regions) {
      if (r.time.total_ns() == 0) continue;
      std::string label = region_label(r.codeptr, ctx.symbols);
      if (r.codeptr) label += fmt::format(" x{}", r.instances);
      out += split_row(label, r.time);
    }
    out += fmt::format("\nOver time ({} slices of {} each; bar height = share of thread time)\n",
                       b.series.size(), duration(b.series.empty() ? 0 : b.series[0].end_ns -
                                                                          b.series[0].begin_ns));
    std::vector<double> work, over, idle;
    for (const auto& s : b.series) {
      double all = double(s.time.total_ns());
      work.push_back(all ? double(s.time.work_ns) / all : 0);
      over.push_back(all ? double(s.time.overhead_ns) / all : 0);
      idle.push_back(all ? double(s.time.idle_ns) / all : 0);
    }
    out += "  work      |" + sparkline(work) + "|\n";
    out += "  overhead  |" + sparkline(over) + "|\n";
    out += "  idleness  |" + sparkline(idle) + "|\n";
  }

  nlohmann::json json(const ReportContext& ctx) override {
    const Breakdown& b = pass_.result();
    nlohmann::json j = split_json(b.total);
    j["total_ns"] = b.total.total_ns();
    j["run_ns"] = b.run_ns;
    j["idle_share"] = b.idle_share;
    j["overhead_share"] = b.overhead_share;
    j["high_threshold"] = b.high_threshold;
    j["verdict"] = analysis::verdict_code(b.verdict);
    j["verdict_meaning"] = analysis::verdict_meaning(b.verdict);
    j["advice"] = analysis::verdict_advice(b.verdict);
    j["threads"] = nlohmann::json::array();
    for (const auto& t : b.threads) {
      nlohmann::json row = split_json(t.time);
      row["thread"] = t.thread;
      row["begin_ns"] = t.begin_ns;
      row["end_ns"] = t.end_ns;
      j["threads"].push_back(row);
    }
    j["regions"] = nlohmann::json::array();
    for (const auto& r : b.regions) {
      nlohmann::json row = split_json(r.time);
      row["codeptr"] = fmt::format("{:#x}", r.codeptr);
      row["location"] = r.codeptr ? ctx.symbols.short_name(r.codeptr) : "outside parallel";
      row["instances"] = r.instances;
      row["wall_ns"] = r.wall_ns;
      row["max_team"] = r.max_team;
      j["regions"].push_back(row);
    }
    j["series"] = nlohmann::json::array();
    for (const auto& s : b.series) {
      nlohmann::json row = split_json(s.time);
      row["begin_ns"] = s.begin_ns;
      row["end_ns"] = s.end_ns;
      j["series"].push_back(row);
    }
    return j;
  }

 private:
  analysis::BreakdownPass pass_;
};

}  // namespace

std::unique_ptr<Section> make_breakdown_section(const ReportOptions& options) {
  return std::make_unique<BreakdownSection>(options);
}

}  // namespace tasklens::report
