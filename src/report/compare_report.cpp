// The text and JSON of `tasklens compare`.
#include "report/compare_report.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "format/plural.h"
#include "report/overheads_section.h"
#include "report/text_format.h"

namespace tasklens::report {
namespace {

using analysis::Cost;

std::string plural_threads(uint32_t n) { return format::plural(n, "thread"); }

double share(uint64_t part, uint64_t whole) { return whole ? double(part) / double(whole) : 0; }

}  // namespace

std::string ProgramIdentity::command() const {
  std::string s = path;
  for (const auto& a : args) s += " " + a;
  return s;
}

ProgramIdentity program_identity(const format::Experiment& x) {
  ProgramIdentity id;
  const format::Metadata::Program& p = x.metadata.program;
  id.path = p.path.empty() ? std::string("?") : p.path;
  id.args.assign(p.args.begin() + std::min<size_t>(1, p.args.size()), p.args.end());
  return id;
}

std::string program_mismatch(const std::vector<std::string>& names,
                             const std::vector<ProgramIdentity>& programs) {
  std::string differ;
  for (size_t i = 1; i < programs.size(); ++i) {
    if (programs[i] == programs[0]) continue;
    differ += fmt::format("{}{} ran `{}`", differ.empty() ? "" : "; ", names[i],
                          programs[i].command());
  }
  if (differ.empty()) return "";
  return fmt::format(
      "the runs are not runs of one program: {} ran `{}`, but {}. Compare runs of the same "
      "program and arguments with different thread counts",
      names[0], programs[0].command(), differ);
}

std::string region_key(const std::vector<format::Metadata::LoadedObject>& objects,
                       uint64_t codeptr,
                       symbols::Symbolizer& symbols) {
  const symbols::Location& l = symbols.resolve(codeptr);
  if (!l.file.empty()) return fmt::format("{}:{}", l.file, l.line);
  // The object that holds the address: the one with the largest base at or below it.
  std::string object;
  uint64_t base = 0;
  for (const auto& o : objects) {
    if (o.base <= codeptr && o.base >= base) base = o.base, object = o.path;
  }
  if (object.empty()) return format::address_text(codeptr);
  return fmt::format("{}+{:#x}", std::filesystem::path(object).filename().string(),
                     codeptr - base);
}

std::string scaling_text(const analysis::Scaling& s, const ProgramIdentity& program) {
  std::string out = fmt::format("tasklens compare: {}  ({} runs)\n", program.command(),
                                s.runs.size());
  for (const auto& n : s.notes) out += "  note: " + n + "\n";
  if (s.runs.empty()) return out;
  const auto& base = s.runs.front();
  out += "\nTime accumulated over threads (threads x wall time), by class (ompP, Fürlinger & Gerndt, Fig. 6: equal "
         "totals are perfect scaling)\n";
  out += fmt::format("  {:>7} {:>11} {:>7} {:>6} {:>11}  {:>11} {:>11}", "Threads", "Wallclock",
                     "Speedup", "Effic.", "Amdahl", "Total", "Ovhds (%)");
  for (Cost c : analysis::kAllCosts) out += fmt::format(" {:>11}", analysis::cost_short(c));
  out += fmt::format(" {:>11}  {}\n", "Serial", "Run");
  for (const auto& p : s.runs) {
    out += fmt::format("  {:>7} {:>11} {:>6.2f}x {:>5.0f}% {:>11}  {:>11} {:>11}", p.threads,
                       duration(p.run_ns), p.speedup, 100 * p.efficiency, duration(p.amdahl_ns),
                       duration(p.total_ns),
                       fmt::format("{:.1f}%", 100 * share(p.cost.overhead_ns(), p.total_ns)));
    for (Cost c : analysis::kAllCosts) out += fmt::format(" {:>11}", duration(p.cost[c]));
    out += fmt::format(" {:>11}  {}\n", duration(p.serial_ns), p.name);
  }
  const auto& a = s.amdahl;
  out += fmt::format(
      "  Speedup and efficiency against the {} run. Amdahl: the wall time Amdahl's law predicts "
      "from it, parallel fraction {:.4f} ({}){}.\n",
      plural_threads(base.threads), a.alpha,
      a.measured ? "measured on one thread" : "estimated from its work",
      std::isinf(a.max_speedup) ? "" : fmt::format(", speedup at most {:.2f}x", a.max_speedup));
  out += "  Serial: time outside parallel regions, accumulated over threads (one thread runs, "
         "the others wait).\n";

  out += "\nTask graph per run (work = the graph's work: task bodies and serial code; inflation = "
         "the tasks' own\ntime, the breakdown's work and creation without preemption or serial "
         "code, against the first\nrun's; bound = max(work / threads, span), which no schedule "
         "beats)\n";
  out += fmt::format("  {:>7} {:>11} {:>9} {:>11} {:>11} {:>11} {:>11}  {}\n", "Threads", "Work",
                     "Inflation", "Span", "Parallelism", "Bound", "Wallclock", "Run");
  for (const auto& p : s.runs) {
    // No tasks' time in the first run (it ran no region): no ratio to show.
    std::string inflation =
        s.runs.front().tasks_work_ns ? fmt::format("{:.2f}x", p.work_inflation) : "-";
    out += fmt::format("  {:>7} {:>11} {:>9} {:>11} {:>11.1f} {:>11} {:>11}  {}\n", p.threads,
                       duration(p.work_ns), inflation, duration(p.span_ns), p.parallelism,
                       duration(p.bound_ns), duration(p.run_ns), p.name);
  }

  if (s.regions.empty()) return out;
  out += "\nPer parallel region: work and overhead accumulated over threads (ompP, Fürlinger & Gerndt, Fig. 7)\n";
  out += fmt::format("  {:<5} {:<28}", "", "Location");
  for (const auto& p : s.runs) out += fmt::format("  {:>23}", plural_threads(p.threads));
  out += fmt::format("\n  {:<5} {:<28}", "", "");
  for (size_t i = 0; i < s.runs.size(); ++i) out += fmt::format("  {:>11} {:>11}", "Work", "Ovhds");
  out += "\n";
  for (size_t r = 0; r < s.regions.size(); ++r) {
    const auto& reg = s.regions[r];
    std::string key = reg.key.size() > 28 ? "..." + reg.key.substr(reg.key.size() - 25) : reg.key;
    out += fmt::format("  {:<5} {:<28}", region_id(r), key);
    for (const auto& pt : reg.runs) {
      if (!pt.present) {
        out += fmt::format("  {:>11} {:>11}", "-", "-");
      } else {
        out += fmt::format("  {:>11} {:>11}", duration(pt.cost[Cost::kWork]),
                           duration(pt.cost.overhead_ns()));
      }
    }
    out += "\n";
  }
  return out;
}

nlohmann::json scaling_json(const analysis::Scaling& s, const ProgramIdentity& program) {
  nlohmann::json j = {{"tasklens_compare_version", 1},
                      {"program", {{"path", program.path}, {"args", program.args}}},
                      {"notes", s.notes}};
  const auto& a = s.amdahl;
  j["amdahl"] = {{"alpha", a.alpha},
                 {"measured", a.measured},
                 {"t1_ns", a.t1_ns},
                 {"max_speedup", std::isinf(a.max_speedup) ? nlohmann::json(nullptr)
                                                           : nlohmann::json(a.max_speedup)},
                 {"from", s.runs.empty() ? "" : s.runs.front().name}};
  j["runs"] = nlohmann::json::array();
  for (const auto& p : s.runs) {
    nlohmann::json r = {{"dir", p.name},
                        {"threads", p.threads},
                        {"run_ns", p.run_ns},
                        {"speedup", p.speedup},
                        {"efficiency", p.efficiency},
                        {"amdahl_ns", p.amdahl_ns},
                        {"parallel_coverage", p.coverage},
                        {"total_ns", p.total_ns},
                        {"serial_ns", p.serial_ns},
                        {"serial_share", share(p.serial_ns, p.total_ns)},
                        {"regions_total_ns", p.cost.total_ns()},
                        {"graph",
                         {{"work_ns", p.work_ns},
                          {"span_ns", p.span_ns},
                          {"path_runtime_ns", p.path_runtime_ns},
                          {"parallelism", p.parallelism},
                          {"bound_ns", p.bound_ns},
                          {"tasks_work_ns", p.tasks_work_ns},
                          {"preempted_ns", p.preempted_ns},
                          {"work_inflation", p.work_inflation}}}};
    add_cost_fields(r, p.cost, p.total_ns);
    j["runs"].push_back(r);
  }
  j["regions"] = nlohmann::json::array();
  for (size_t i = 0; i < s.regions.size(); ++i) {
    const auto& reg = s.regions[i];
    nlohmann::json rj = {{"id", region_id(i)}, {"key", reg.key}, {"runs", nlohmann::json::array()}};
    for (size_t k = 0; k < reg.runs.size(); ++k) {
      const auto& pt = reg.runs[k];
      nlohmann::json pj = {{"threads", s.runs[k].threads}, {"present", pt.present}};
      if (pt.present) {
        pj["instances"] = pt.instances;
        pj["wall_ns"] = pt.wall_ns;
        pj["total_ns"] = pt.total_ns;
        add_cost_fields(pj, pt.cost, pt.total_ns);
      }
      rj["runs"].push_back(pj);
    }
    j["regions"].push_back(rj);
  }
  return j;
}

}  // namespace tasklens::report
