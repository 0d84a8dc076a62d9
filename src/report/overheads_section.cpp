// The overheads section of `tasklens report`, as text (ompP's layout) and JSON.
#include "report/overheads_section.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "format/plural.h"
#include "report/text_format.h"

namespace tasklens::report {
namespace {

using analysis::Construct;
using analysis::ConstructTimes;
using analysis::Cost;
using analysis::CostTimes;
using analysis::Overheads;
using analysis::RegionOverheads;

constexpr uint32_t kAmdahlThreads[] = {2, 4, 8, 16, 32};
constexpr size_t kMaxConstructRows = 12;

double share(uint64_t part, uint64_t whole) { return whole ? double(part) / double(whole) : 0; }

// "12.345 ms (12.3)": a time and its percentage of `whole`, in ompP's style.
std::string cell(uint64_t ns, uint64_t whole) {
  return fmt::format("{:>11} ({:>5.1f})", duration(ns), 100 * share(ns, whole));
}

// With `preempted`, a last column for the time off the CPU, which is in no class.
std::string cost_header(bool preempted) {
  std::string s = fmt::format("  {:<5} {:>11}  {:>19}", "", "Total", "Ovhds (%)");
  for (Cost c : analysis::kOverheadClasses) {
    s += fmt::format(" {} {:>17}", c == analysis::kOverheadClasses[0] ? '=' : '+',
                     fmt::format("{} (%)", analysis::cost_short(c)));
  }
  if (preempted) {
    s += fmt::format("   {:>17}", fmt::format("{} (%)", analysis::cost_short(Cost::kPreempted)));
  }
  return s + "\n";
}

std::string cost_row(const std::string& id, uint64_t total, const CostTimes& c, uint64_t whole,
                     bool preempted) {
  std::string s = fmt::format("  {:<5} {:>11}  {:>19}", id, duration(total),
                              cell(c.overhead_ns(), whole));
  for (Cost cls : analysis::kOverheadClasses) s += fmt::format("   {:>17}", cell(c[cls], whole));
  if (preempted) s += fmt::format("   {:>17}", cell(c[Cost::kPreempted], whole));
  return s + "\n";
}

nlohmann::json times_json(const ConstructTimes& t) {
  return {{"count", t.count},         {"exec_ns", t.exec_ns},   {"body_ns", t.body_ns},
          {"exit_bar_ns", t.exit_bar_ns}, {"enter_ns", t.enter_ns}, {"exit_ns", t.exit_ns},
          {"task_ns", t.task_ns}};
}

// The largest overhead class of `c`, or work when there is no overhead at all.
Cost main_overhead(const CostTimes& c) {
  Cost best = Cost::kWork;
  uint64_t most = 0;
  for (Cost cls : analysis::kOverheadClasses) {
    if (c[cls] > most) most = c[cls], best = cls;
  }
  return best;
}

std::string construct_location(const analysis::ConstructOverheads& c, const RegionOverheads& r,
                               symbols::Symbolizer& symbols) {
  if (c.kind == Construct::kParallel) return region_location(r.codeptr, symbols);
  return c.codeptr ? symbols.short_name(c.codeptr) : "-";
}

class OverheadsSection : public Section {
 public:
  explicit OverheadsSection(const ReportOptions&) {}
  replay::Pass& pass() override { return pass_; }

  void text(const ReportContext& ctx, std::string& out) override {
    const Overheads& o = pass_.result();
    const auto& regions = o.regions;
    out += "Overhead analysis (ompP, Fürlinger & Gerndt; times accumulated over threads)\n";
    out += fmt::format("  Total runtime (wallclock) : {} [{}]\n", duration(o.run_ns),
                       format::plural(std::max(o.max_team, 1u), "thread"));
    out += fmt::format("  Number of parallel regions: {} ({})\n", regions.size(),
                       format::plural(o.instances, "instance", "", count(o.instances)));
    out += fmt::format("  Parallel coverage         : {} ({:.2f}%)\n", duration(o.parallel_ns),
                       100 * o.coverage);
    out += amdahl_text(o);
    if (o.unaccounted_ns) {
      out += fmt::format("  note: {} of thread time in {} region instances fell in no class (a "
                         "damaged trace?)\n",
                         o.unaccounted_ns > 0 ? duration(uint64_t(o.unaccounted_ns))
                                              : "-" + duration(uint64_t(-o.unaccounted_ns)),
                         o.unaccounted_instances);
    }
    if (regions.empty()) {
      out += "\n  No parallel region in this run.\n";
      return;
    }

    out += "\nParallel regions sorted by wallclock time:\n";
    out += fmt::format("  {:<5} {:<9} {:<30} {:>9} {:>5} {:>11} {:>7}\n", "", "Type", "Location",
                       "Instances", "Team", "Wallclock", "(%)");
    for (size_t i = 0; i < regions.size(); ++i) {
      const RegionOverheads& r = regions[i];
      out += fmt::format("  {:<5} {:<9} {:<30} {:>9} {:>5} {:>11} ({:>5.2f})\n", region_id(i),
                         r.level > 1 ? "nested" : "parallel",
                         region_location(r.codeptr, ctx.symbols), count(r.instances), r.max_team,
                         duration(r.wall_ns), 100 * share(r.wall_ns, o.run_ns));
    }
    out += fmt::format("  {:<5} {:<9} {:<30} {:>9} {:>5} {:>11} ({:>5.2f})\n", "*", "", "",
                       count(o.instances), "", duration(o.parallel_ns), 100 * o.coverage);

    out += "\nOverheads wrt. each individual parallel region (% of the region's Total = wallclock "
           "x threads):\n";
    // Time off the CPU while runnable: the machine's, not the program's (shown when there is any).
    const bool preempted = o.program[Cost::kPreempted] > 0;
    out += cost_header(preempted);
    for (size_t i = 0; i < regions.size(); ++i) {
      out += cost_row(region_id(i), regions[i].total_ns, regions[i].cost, regions[i].total_ns,
                      preempted);
    }

    out += "\nOverheads wrt. whole program (% of all regions' Total), most severe first:\n";
    out += cost_header(preempted);
    std::vector<size_t> order(regions.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return regions[a].cost.overhead_ns() > regions[b].cost.overhead_ns();
    });
    for (size_t i : order) {
      if (regions[i].level > 1) continue;  // inside their enclosing region already
      out += cost_row(region_id(i), regions[i].total_ns, regions[i].cost, o.program_total_ns,
                      preempted);
    }
    out += cost_row("*", o.program_total_ns, o.program, o.program_total_ns, preempted);
    out += fmt::format("  Work: {} ({:.1f}% of the regions' Total). Largest overhead: {}.\n",
                       duration(o.program[Cost::kWork]),
                       100 * share(o.program[Cost::kWork], o.program_total_ns),
                       o.program.overhead_ns() ? analysis::cost_name(main_overhead(o.program))
                                               : "none");
    if (preempted) {
      out += fmt::format(
          "  Preempted: {} ({:.1f}%) off the CPU while runnable, in no class: another process or "
          "thread had the CPU, not the program's overhead.\n",
          duration(o.program[Cost::kPreempted]),
          100 * share(o.program[Cost::kPreempted], o.program_total_ns));
    }

    for (size_t i = 0; i < regions.size(); ++i) constructs_text(ctx, regions[i], i, out);
  }

  nlohmann::json json(const ReportContext& ctx) override {
    const Overheads& o = pass_.result();
    nlohmann::json j = {
        {"run_ns", o.run_ns},
        {"threads", std::max(o.max_team, 1u)},
        {"threads_in_trace", o.threads},
        {"parallel_regions", o.regions.size()},
        {"instances", o.instances},
        {"parallel_ns", o.parallel_ns},
        {"parallel_coverage", o.coverage},
        {"serial_preempted_ns", o.serial_preempted_ns},
        {"unaccounted_ns", o.unaccounted_ns},
    };
    analysis::Amdahl a = analysis::amdahl(o, std::max(o.max_team, 1u));
    nlohmann::json predicted = nlohmann::json::array();
    for (uint32_t p : kAmdahlThreads) {
      predicted.push_back({{"threads", p}, {"time_ns", a.predicted_ns(p)}, {"speedup", a.speedup(p)}});
    }
    j["amdahl"] = {{"alpha", a.alpha},
                   {"measured", a.measured},
                   {"t1_ns", a.t1_ns},
                   {"max_speedup", std::isinf(a.max_speedup) ? nlohmann::json(nullptr)
                                                             : nlohmann::json(a.max_speedup)},
                   {"predicted", predicted}};
    nlohmann::json program = {{"total_ns", o.program_total_ns}};
    add_cost_fields(program, o.program, o.program_total_ns);
    j["program"] = program;
    j["regions"] = nlohmann::json::array();
    for (size_t i = 0; i < o.regions.size(); ++i) {
      const RegionOverheads& r = o.regions[i];
      nlohmann::json row = {
          {"id", region_id(i)},
          {"codeptr", format::address_text(r.codeptr)},
          {"location", region_location(r.codeptr, ctx.symbols)},
          {"level", r.level},
          {"instances", r.instances},
          {"wall_ns", r.wall_ns},
          {"wall_share", share(r.wall_ns, o.run_ns)},
          {"max_team", r.max_team},
          {"total_ns", r.total_ns},
      };
      add_cost_fields(row, r.cost, r.total_ns);
      row["program_overhead_share"] = share(r.cost.overhead_ns(), o.program_total_ns);
      row["threads"] = nlohmann::json::array();
      for (size_t t = 0; t < r.threads.size(); ++t) {
        nlohmann::json th = {{"thread", t}};
        add_cost_fields(th, r.threads[t], r.threads[t].total_ns());
        row["threads"].push_back(th);
      }
      row["constructs"] = nlohmann::json::array();
      for (const auto& c : r.constructs) {
        nlohmann::json cj = {{"kind", analysis::construct_name(c.kind)},
                             {"codeptr", format::address_text(c.codeptr)},
                             {"location", construct_location(c, r, ctx.symbols)}};
        if (c.kind == Construct::kSections) cj["sections"] = c.sections;
        if (c.kind == Construct::kTask) add_codeptrs(cj, c.codeptr, ctx.symbols);
        add_cost_fields(cj, c.cost, c.cost.total_ns());
        cj["timings"] = times_json(c.total());
        cj["threads"] = nlohmann::json::array();
        for (size_t t = 0; t < c.threads.size(); ++t) {
          nlohmann::json th = times_json(c.threads[t]);
          th["thread"] = t;
          cj["threads"].push_back(th);
        }
        row["constructs"].push_back(cj);
      }
      j["regions"].push_back(row);
    }
    return j;
  }

 private:
  static std::string amdahl_text(const Overheads& o) {
    if (o.parallel_ns == 0) return "";
    analysis::Amdahl a = analysis::amdahl(o, std::max(o.max_team, 1u));
    std::string s = fmt::format(
        "  Amdahl estimate           : parallel fraction {:.4f} {}; T_p = T_1 a/p + T_1 (1-a) "
        "with T_1 = {}:\n                              ",
        a.alpha,
        a.measured ? "(measured: one-thread run)"
                   : "(estimated: serial time + the regions' work, as one thread would run it)",
        duration(a.t1_ns));
    for (uint32_t p : kAmdahlThreads) s += fmt::format("{:.2f}x on {}, ", a.speedup(p), p);
    if (std::isinf(a.max_speedup)) return s + "no limit\n";
    return s + fmt::format("at most {:.2f}x\n", a.max_speedup);
  }

  static void constructs_text(const ReportContext& ctx, const RegionOverheads& r, size_t i,
                              std::string& out) {
    out += fmt::format("\n{} constructs (ompP timings summed over threads; per thread in --json):\n",
                       region_id(i));
    out += fmt::format("  {:<16} {:<26} {:>9} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11}  {}\n",
                       "construct", "location", "execC", "execT", "bodyT", "exitBarT",
                       "enterT", "exitT", "taskT", "time by class (largest first)");
    std::vector<size_t> order(r.constructs.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin() + 1, order.end(), [&](size_t a, size_t b) {
      return r.constructs[a].cost.total_ns() > r.constructs[b].cost.total_ns();
    });
    size_t shown = 0;
    for (size_t k : order) {
      const auto& c = r.constructs[k];
      if (k != 0 && c.cost.total_ns() == 0 && c.total().count == 0) continue;
      if (shown++ == kMaxConstructRows) {
        out += fmt::format("  ... {} more in --json\n", r.constructs.size() - kMaxConstructRows);
        break;
      }
      ConstructTimes t = c.total();
      std::string classes;
      std::vector<std::pair<uint64_t, Cost>> parts;
      for (Cost cls : analysis::kAllCosts) {
        if (c.cost[cls]) parts.emplace_back(c.cost[cls], cls);
      }
      std::stable_sort(parts.begin(), parts.end(),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      for (size_t n = 0; n < parts.size() && n < 3; ++n) {
        classes += fmt::format("{}{} {}", n ? ", " : "", analysis::cost_name(parts[n].second),
                               percent(parts[n].first, c.cost.total_ns()));
      }
      std::string location = construct_location(c, r, ctx.symbols);
      if (location.size() > 26) location = "..." + location.substr(location.size() - 23);
      out += fmt::format("  {:<16} {:<26} {:>9} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11}  {}\n",
                         analysis::construct_name(c.kind), location, count(t.count),
                         duration(t.exec_ns), duration(t.body_ns), duration(t.exit_bar_ns),
                         duration(t.enter_ns), duration(t.exit_ns), duration(t.task_ns), classes);
    }
  }

  analysis::OverheadsPass pass_;
};

}  // namespace

void add_cost_fields(nlohmann::json& j, const CostTimes& c, uint64_t total) {
  for (Cost cls : analysis::kAllCosts) {
    j[std::string(analysis::cost_key(cls)) + "_ns"] = c[cls];
  }
  j["overhead_ns"] = c.overhead_ns();
  for (Cost cls : analysis::kAllCosts) {
    j[std::string(analysis::cost_key(cls)) + "_share"] = share(c[cls], total);
  }
  j["overhead_share"] = share(c.overhead_ns(), total);
}

std::string region_id(size_t index) { return fmt::format("R{}", index + 1); }

std::string region_location(uint64_t codeptr, symbols::Symbolizer& symbols) {
  if (codeptr == 0) return "?";
  return symbols.short_name(codeptr);
}

std::unique_ptr<Section> make_overheads_section(const ReportOptions& options) {
  return std::make_unique<OverheadsSection>(options);
}

}  // namespace tasklens::report
