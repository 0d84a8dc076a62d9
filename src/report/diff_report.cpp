// tasklens diff: two runs side by side (diff_report.h).
#include "report/diff_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "report/profile_section.h"
#include "report/text_format.h"

namespace tasklens::report {
namespace {

nlohmann::json split_json(const analysis::TimeSplit& s) {
  return {{"work_ns", s.work_ns},     {"overhead_ns", s.overhead_ns},
          {"idle_ns", s.idle_ns},     {"serial_ns", s.serial_ns},
          {"preempted_ns", s.preempted_ns}};
}

// Every construct of either run, by location: (before, after), null where absent.
struct Pair {
  const DiffConstruct* before = nullptr;
  const DiffConstruct* after = nullptr;
  int64_t change() const {
    return int64_t(after ? after->time.sum : 0) - int64_t(before ? before->time.sum : 0);
  }
};

std::vector<std::pair<std::string, Pair>> pairs(const DiffRun& before, const DiffRun& after) {
  std::map<std::string, Pair> by_location;
  for (const DiffConstruct& c : before.constructs) by_location[c.location].before = &c;
  for (const DiffConstruct& c : after.constructs) by_location[c.location].after = &c;
  std::vector<std::pair<std::string, Pair>> out(by_location.begin(), by_location.end());
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return std::llabs(a.second.change()) > std::llabs(b.second.change());
  });
  return out;
}

nlohmann::json side_json(const DiffConstruct* c) {
  if (!c) return nullptr;
  return {{"instances", c->instances}, {"time_ns", stat_json(c->time)}};
}

std::string signed_duration(int64_t ns) {
  return (ns < 0 ? "-" : "+") + duration(uint64_t(ns < 0 ? -ns : ns));
}

std::string side_text(const DiffConstruct* c) {
  if (!c) return "-";
  return fmt::format("{} x {}", count(c->instances), mean_duration(c->time.mean()));
}

}  // namespace

void add_construct(DiffRun& run, const std::string& location, uint64_t instances,
                   const analysis::Stat& time) {
  for (DiffConstruct& c : run.constructs) {  // a few constructs per program
    if (c.location != location) continue;
    c.instances += instances;
    c.time.merge(time);
    return;
  }
  run.constructs.push_back({location, instances, time});
}

nlohmann::json diff_json(const DiffRun& before, const DiffRun& after) {
  nlohmann::json j;
  j["before"] = before.name;
  j["after"] = after.name;
  j["run"] = {{"before_ns", before.run_ns}, {"after_ns", after.run_ns}};
  j["breakdown"] = {{"before", split_json(before.split)}, {"after", split_json(after.split)}};
  j["verdict"] = {{"before", analysis::verdict_code(before.verdict)},
                  {"after", analysis::verdict_code(after.verdict)}};
  auto span = [](const DiffRun& r) {
    return r.span_ns ? nlohmann::json(*r.span_ns) : nlohmann::json(nullptr);
  };
  j["critical_path"] = {{"before_ns", span(before)}, {"after_ns", span(after)}};
  auto warning = [](const DiffRun& r) {
    return r.warning.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.warning);
  };
  j["warnings"] = {{"before", warning(before)}, {"after", warning(after)}};
  nlohmann::json& cs = j["constructs"] = nlohmann::json::array();
  for (const auto& [location, p] : pairs(before, after)) {
    cs.push_back({{"location", location},
                  {"before", side_json(p.before)},
                  {"after", side_json(p.after)}});
  }
  return j;
}

std::string diff_text(const DiffRun& before, const DiffRun& after) {
  std::string out = fmt::format("tasklens diff: {} -> {}\n", before.name, after.name);
  // Said first: a busy machine in either run explains changes the program did not make.
  for (const DiffRun* r : {&before, &after}) {
    if (!r->warning.empty()) {
      out += fmt::format("warning: {}: {}\n", r == &before ? "before" : "after", r->warning);
    }
  }
  auto row = [&](const std::string& what, uint64_t a, uint64_t b) {
    out += fmt::format("  {:<22} {:>12} {:>12} {:>13}\n", what, duration(a), duration(b),
                       signed_duration(int64_t(b) - int64_t(a)));
  };
  out += fmt::format("  {:<22} {:>12} {:>12} {:>13}\n", "", "before", "after", "change");
  row("run time", before.run_ns, after.run_ns);
  row("work", before.split.work_ns, after.split.work_ns);
  row("overhead", before.split.overhead_ns, after.split.overhead_ns);
  row("idleness", before.split.idle_ns, after.split.idle_ns);
  row("serial", before.split.serial_ns, after.split.serial_ns);
  row("preempted", before.split.preempted_ns, after.split.preempted_ns);
  if (before.span_ns && after.span_ns) {
    row("critical path", *before.span_ns, *after.span_ns);
  } else {
    auto side = [](const DiffRun& r) { return r.span_ns ? duration(*r.span_ns) : "-"; };
    out += fmt::format("  {:<22} {:>12} {:>12} {:>13}\n", "critical path", side(before),
                       side(after), "(profile mode: no task graph)");
  }
  out += fmt::format("  {:<22} {:>12} {:>12}\n", "verdict", analysis::verdict_code(before.verdict),
                     analysis::verdict_code(after.verdict));
  out += "\nTask constructs (instances x mean time), largest change in total time first\n";
  for (const auto& [location, p] : pairs(before, after)) {
    std::string note = !p.before ? "  (only after)" : !p.after ? "  (only before)" : "";
    out += fmt::format("  {:<30} {:>20} {:>20} {:>13}{}\n", location, side_text(p.before),
                       side_text(p.after), signed_duration(p.change()), note);
  }
  return out;
}

}  // namespace tasklens::report
