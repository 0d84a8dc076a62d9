// The breakdown section of `tasklens report`, as text and JSON.
#include "report/breakdown_section.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/breakdown.h"
#include "analysis/contention.h"
#include "format/plural.h"
#include "report/text_format.h"

namespace tasklens::report {

const char* verdict_meaning(analysis::Verdict v) {
  static const char* const k[] = {
      "low idleness, low overhead: effectively parallel",
      "low idleness, high overhead: coarsen the concurrency granularity",
      "high idleness, low overhead: refine the concurrency granularity",
      "high idleness, high overhead: switch parallelization strategy"};
  return k[int(v)];
}

const char* verdict_advice(analysis::Verdict v) {
  static const char* const k[] = {
      ("the threads are busy running tasks; speed comes from the tasks' serial performance now."),
      ("the threads often wait in the runtime while tasks are ready: the tasks are too small for "
       "their creation and scheduling cost. Make fewer, larger tasks (raise the cut-off, grain "
       "size or block size)."),
      ("the threads often have nothing to run: there is too little parallelism at times (too few "
       "or too large tasks, long dependence chains, serial phases). Make more, smaller tasks or "
       "remove dependences."),
      ("the threads are often idle and, when work is there, the runtime costs too much: the task "
       "decomposition itself does not fit; rethink how work is split and synchronized.")};
  return k[int(v)];
}

namespace {

using analysis::Breakdown;
using analysis::TimeSplit;

nlohmann::json split_json(const TimeSplit& t) {
  return {{"work_ns", t.work_ns},     {"overhead_ns", t.overhead_ns},
          {"idle_ns", t.idle_ns},     {"serial_ns", t.serial_ns},
          {"preempted_ns", t.preempted_ns}, {"creation_ns", t.creation_ns}};
}

// A row of the five categories, each with its share of the row's total (a thread: its lifetime).
std::string split_row(const std::string& label, const TimeSplit& t) {
  uint64_t all = t.total_ns();
  std::string row = fmt::format("  {:<30}", label);
  for (uint64_t v : {t.work_ns, t.overhead_ns, t.idle_ns, t.serial_ns, t.preempted_ns}) {
    row += fmt::format(" {:>10} {:>6}", duration(v), percent(v, all));
  }
  return row + "\n";
}

// What the "all threads" row counted: every thread's lifetime, stated exactly.
std::string counted_line(const Breakdown& b) {
  uint64_t workers = 0, worker_ns = 0;
  std::string initial;
  for (const auto& t : b.threads) {
    if (t.initial) {
      initial = fmt::format("the initial thread from the process's start to its exit ({})",
                            duration(t.end_ns - t.begin_ns));
    } else {
      ++workers, worker_ns += t.end_ns - t.begin_ns;
    }
  }
  std::string others =
      workers == 0 ? std::string("no other thread")
                   : fmt::format("{} {}thread{} from {} creation to {} end ({} in all)", workers,
                                 initial.empty() ? "" : "other ", workers == 1 ? "" : "s",
                                 workers == 1 ? "its" : "their", workers == 1 ? "its" : "their",
                                 duration(worker_ns));
  if (initial.empty()) initial = "no initial thread in the trace";
  return fmt::format("  Counted: {};\n           {}.\n  The recorder started {} after the process "
                     "(at its first OpenMP construct).\n",
                     initial, others, duration(b.recorder_start_ns));
}

std::string region_label(uint64_t codeptr, symbols::Symbolizer& symbols) {
  if (codeptr == 0) return "outside parallel regions";
  const symbols::Location& l = symbols.resolve(codeptr);
  if (!l.file.empty()) return fmt::format("parallel {}:{}", l.file, l.line);
  return fmt::format("parallel {}", symbols.short_name(codeptr));
}

class BreakdownSection : public Section {
 public:
  explicit BreakdownSection(const ReportOptions& o) : pass_(o.slices) {}
  replay::Pass& pass() override { return pass_; }
  bool use_profile_mode(const analysis::ProfileModeData& data) override {
    loaded_ = &data.breakdown;
    return true;
  }
  const Breakdown& result() const { return loaded_ ? *loaded_ : pass_.result(); }
  const analysis::BreakdownPass* run_pass() const { return loaded_ ? nullptr : &pass_; }

  void text(const ReportContext& ctx, std::string& out) override {
    const Breakdown& b = result();
    out += fmt::format("Verdict {}: {}.\n", analysis::verdict_code(b.verdict),
                       verdict_meaning(b.verdict));
    out += fmt::format(
        "  Idleness is {:.1f}% and overhead {:.1f}% of the threads' work, overhead "
        "and idleness (high: "
        ">= {:.0f}%): {}\n",
        100 * b.idle_share, 100 * b.overhead_share, 100 * b.high_threshold,
        verdict_advice(b.verdict));
    // The kernel's totals of the wait for a CPU that no switch record placed sit in the columns
    // the verdict is drawn from.
    uint64_t unplaced = analysis::unplaced_wait_ns(b.preemption_measured, b.run_ns, b.run_delay_ns,
                                                   b.total.preempted_ns);
    if (b.run_delay_known && unplaced >= analysis::kRunDelayWarnNs &&
        double(unplaced) > analysis::kPreemptedWarnShare * double(b.total.total_ns())) {
      out += fmt::format(
          "  Caution: the threads waited {} of their {} for a CPU while runnable (the kernel's "
          "totals),\n  counted in these shares: a busy machine, not the program, may explain "
          "them.\n",
          duration(unplaced), duration(b.total.total_ns()));
    }
    out += "\n";
    out +=
        "Time breakdown (POT: work = running a task body; overhead = not, while a task is "
        "ready;\nidleness = not, with no task ready; serial = the initial thread outside "
        "parallel regions;\npreempted = off the CPU while runnable: another process or "
        "thread had it)\n";
    out += counted_line(b);
    // The kernel's totals hold what the switch records miss (RECORDER.md); in a measured run it
    // is said when it passes the warning's bars (analysis/contention.h).
    uint64_t outside =
        b.run_delay_ns > b.total.preempted_ns ? b.run_delay_ns - b.total.preempted_ns : 0;
    if (!b.preemption_measured) {
      out += "  Preemption was not measured in this run: it is counted in the other columns.\n";
      if (b.run_delay_known) {
        out += fmt::format(
            "  The kernel's totals: the threads waited {} for a CPU while "
            "runnable.\n",
            duration(b.run_delay_ns));
      }
    } else if (b.run_delay_known && outside >= analysis::kRunDelayWarnNs &&
               double(outside) > analysis::kPreemptedWarnShare * double(b.total.total_ns())) {
      out += fmt::format(
          "  The kernel's totals: the threads waited {} for a CPU while runnable, "
          "{} of it\n  outside the switch records (the run's first 20 ms, or "
          "waking up): counted in the other columns.\n",
          duration(b.run_delay_ns), duration(outside));
    }
    if (b.preempted_by_program_ns) {
      out += fmt::format(
          "  Of the preempted time, {} was another thread of this program on the "
          "same CPU:\n  {}.\n",
          duration(b.preempted_by_program_ns), analysis::kOneCpuAdvice);
    }
    if (b.total.creation_ns) {
      out += fmt::format("  Overhead holds {} of task creation taken out of the creators' work "
                         "(the runtime's, estimated {} per task from {} {}).\n",
                         duration(b.total.creation_ns), duration(b.creation.ns),
                         count(b.creation.samples),
                         b.creation.method == analysis::CreationCost::Method::kBackToBack
                             ? "gaps between back-to-back creations"
                             : "creations between two other events");
    }
    out += fmt::format("  {:<30} {:>17} {:>17} {:>17} {:>17} {:>17}\n", "", "work", "overhead",
                       "idleness", "serial", "preempted");
    out += split_row(fmt::format("{}, {}", format::plural(b.threads.size(), "thread"),
                                 duration(b.total.total_ns())),
                     b.total);
    for (const auto& t : b.threads) out += split_row(fmt::format("thread {}", t.thread), t.time);
    // Profile mode has neither (its note says so): no empty headings.
    bool any_region = std::any_of(b.regions.begin(), b.regions.end(),
                                  [](const auto& r) { return r.time.total_ns() != 0; });
    if (any_region) out += "\nBy parallel region (accumulated over threads)\n";
    for (const auto& r : b.regions) {
      if (r.time.total_ns() == 0) continue;
      std::string label = region_label(r.codeptr, ctx.symbols);
      if (r.codeptr) label += fmt::format(" x{}", r.instances);
      out += split_row(label, r.time);
    }
    if (b.series.empty()) return;
    out +=
        fmt::format("\nOver time ({} slices of {} each; bar height = share of the threads' time)\n",
                    b.series.size(), duration(b.series[0].end_ns - b.series[0].begin_ns));
    std::vector<double> work, over, idle, serial, preempted;
    for (const auto& s : b.series) {
      double all = double(s.time.total_ns());
      auto share = [all](uint64_t v) { return all ? double(v) / all : 0; };
      work.push_back(share(s.time.work_ns));
      over.push_back(share(s.time.overhead_ns));
      idle.push_back(share(s.time.idle_ns));
      serial.push_back(share(s.time.serial_ns));
      preempted.push_back(share(s.time.preempted_ns));
    }
    out += "  work      |" + sparkline(work) + "|\n";
    out += "  overhead  |" + sparkline(over) + "|\n";
    out += "  idleness  |" + sparkline(idle) + "|\n";
    if (b.total.serial_ns) out += "  serial    |" + sparkline(serial) + "|\n";
    if (b.total.preempted_ns) out += "  preempted |" + sparkline(preempted) + "|\n";
  }

  nlohmann::json json(const ReportContext& ctx) override {
    const Breakdown& b = result();
    nlohmann::json j = split_json(b.total);
    j["total_ns"] = b.total.total_ns();
    j["active_ns"] = b.total.active_ns();
    j["task_body_ns"] = b.task_body_ns;
    j["creation"] = {{"method", analysis::creation_method_name(b.creation.method)},
                     {"per_task_ns", b.creation.ns},
                     {"samples", b.creation.samples},
                     {"constructs_estimated", b.creation.by_construct.size()}};
    j["run_ns"] = b.run_ns;
    j["recorder_start_ns"] = b.recorder_start_ns;
    j["preemption_measured"] = b.preemption_measured;
    j["preempted_by_program_ns"] = b.preempted_by_program_ns;
    j["run_queue_wait_ns"] = b.run_delay_known ? nlohmann::json(b.run_delay_ns) : nlohmann::json();
    j["idle_share"] = b.idle_share;
    j["overhead_share"] = b.overhead_share;
    j["high_threshold"] = b.high_threshold;
    j["verdict"] = analysis::verdict_code(b.verdict);
    j["verdict_meaning"] = verdict_meaning(b.verdict);
    j["advice"] = verdict_advice(b.verdict);
    j["threads"] = nlohmann::json::array();
    for (const auto& t : b.threads) {
      nlohmann::json row = split_json(t.time);
      row["thread"] = t.thread;
      row["begin_ns"] = t.begin_ns;
      row["end_ns"] = t.end_ns;
      row["lifetime_ns"] = t.end_ns - t.begin_ns;
      row["initial"] = t.initial;
      j["threads"].push_back(row);
    }
    j["regions"] = nlohmann::json::array();
    for (const auto& r : b.regions) {
      nlohmann::json row = split_json(r.time);
      row["codeptr"] = format::address_text(r.codeptr);
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
  const Breakdown* loaded_ = nullptr;  // profile mode: the data read from profile.json
};

}  // namespace

const analysis::BreakdownPass* breakdown_pass_of(const Section& section) {
  auto* b = dynamic_cast<const BreakdownSection*>(&section);
  return b ? b->run_pass() : nullptr;
}

std::unique_ptr<Section> make_breakdown_section(const ReportOptions& options) {
  return std::make_unique<BreakdownSection>(options);
}

}  // namespace tasklens::report
