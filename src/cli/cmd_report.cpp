// tasklens report: replay an experiment once and explain it, as text or one JSON document.
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <thread>

#include "analysis/contention.h"
#include "analysis/creation_cost.h"
#include "analysis/profile.h"
#include "analysis/profile_copies.h"
#include "analysis/profile_file.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "format/experiment.h"
#include "format/json_in.h"
#include "format/mpi_env.h"
#include "format/mpi_run.h"
#include "format/off_cpu.h"
#include "format/plural.h"
#include "html/page.h"
#include "html/timeline_data.h"
#include "replay/consistency.h"
#include "replay/parallel_replay.h"
#include "replay/record_feed.h"
#include "replay/replay.h"
#include "report/graph_section.h"
#include "report/mpi_run_report.h"
#include "report/section.h"
#include "report/text_format.h"

namespace tasklens::cli {
namespace {
namespace fs = std::filesystem;

struct ReportOptionsCli {
  std::string dir;
  bool json = false;
  std::string html;  // --html FILE: the page instead of text or JSON
  bool all = false;
  bool no_symbols = false;
  report::ReportOptions report;
  std::map<std::string, bool> wanted;  // section name -> asked for by its flag
};

// What `tasklens check` says of the trace: the header states it, and a verdict drawn from a
// trace that is not sound says so.
struct CheckVerdict {
  replay::Soundness soundness;
  uint64_t inconsistencies = 0;
};

CheckVerdict verdict(const replay::ConsistencyReport& rep, const format::Experiment& x) {
  return {replay::soundness(rep, x), rep.inconsistencies()};
}

CheckVerdict check_trace(const format::Experiment& x) {
  return verdict(replay::check_consistency(x), x);
}

std::string check_text(const CheckVerdict& c) {
  return c.soundness.sound ? "sound" : "not sound: " + c.soundness.reason;
}

nlohmann::json run_json(const format::Experiment& x, const replay::ReplayStats& stats,
                        const symbols::Symbolizer& symbols, const CheckVerdict& check,
                        const std::string& contention) {
  nlohmann::json j = {
      {"program", x.program_name()},
      {"args", x.metadata.program.args},
      {"status", x.status},
      {"mode", x.metadata.mode.empty() ? std::string("trace") : x.metadata.mode},
      {"threads", stats.threads},
      {"events", stats.events},
      {"run_ns", stats.end_ns},
      {"runtime", x.metadata.runtime.version},
      {"warnings", x.warnings},
      {"check",
       {{"sound", check.soundness.sound},
        {"reason", check.soundness.reason},
        {"inconsistencies", check.inconsistencies}}},
  };
  for (const auto& p : stats.problems) j["warnings"].push_back(p.message);
  if (!contention.empty()) j["warnings"].push_back(contention);
  for (const auto& n : symbols.notes()) j["warnings"].push_back(n);
  for (const auto& d : x.damage) j["warnings"].push_back(d);
  return j;
}

std::string run_text(const format::Experiment& x, const replay::ReplayStats& stats,
                     const symbols::Symbolizer& symbols, const CheckVerdict& check,
                     const std::string& contention) {
  std::string args;
  for (const std::string& a : x.metadata.program.args) {
    args += (args.empty() ? "" : " ") + a;
  }
  // A profile-mode run has no events and no trace for `check` to read.
  bool profile = x.metadata.profile_mode();
  std::string out = fmt::format(
      "tasklens report: {}  ({}, {}, {}, {} run{})\n", args.empty() ? x.program_name() : args,
      format::plural(stats.threads, "thread"), report::duration(stats.end_ns),
      profile ? std::string("profile mode")
              : format::plural(stats.events, "event", "", report::count(stats.events)),
      x.status, profile ? "" : "; tasklens check: " + check_text(check));
  if (!check.soundness.sound) {
    out += "  warning: the trace is not sound (" + check.soundness.reason +
           "; see tasklens check): the verdict and every figure below are drawn from it\n";
  }
  for (const auto& d : x.damage) out += "  warning: " + d + "\n";
  for (const auto& w : x.warnings) out += "  note: " + w + "\n";
  for (const auto& p : stats.problems) out += "  note: " + p.message + "\n";
  if (!contention.empty()) out += "warning: " + contention + "\n";
  for (const auto& n : symbols.notes()) out += "  note: " + n + "\n";
  return out + "\n";
}

// More explicit tasks than this and --all leaves the what-if out (run_report).
constexpr uint64_t kWhatIfUnderAllTasks = 200'000;

// Whether the report may use a second thread: the sections marked own_replay in a replay of
// their own, and `check` beside the replays. TASKLENS_REPORT_THREADS=1 keeps everything on one
// thread (the output is the same: tests/integration/report_threads_test.cpp).
bool parallel_report() {
  const char* env = std::getenv("TASKLENS_REPORT_THREADS");
  if (env && *env) return std::atoi(env) > 1;
  return std::thread::hardware_concurrency() > 1;
}

// Whether section `name` was asked for by its own flag (not only through --all).
bool asked_for(const ReportOptionsCli& o, const std::string& name) {
  auto it = o.wanted.find(name);
  return it != o.wanted.end() && it->second;
}

// The report of experiment `dir`; with `capture`, its JSON document is stored there, not printed.
int run_report(const ReportOptionsCli& o, const std::string& dir, nlohmann::json* capture) {
  auto x = format::open_experiment(dir);
  if (!x) {
    fmt::print(stderr, "tasklens report: {}\n", x.error().message);
    return 2;
  }
  bool any_flag = false;
  for (const auto& [name, on] : o.wanted) any_flag |= on;
  std::vector<std::unique_ptr<report::Section>> sections;
  std::vector<std::string> names;
  std::vector<bool> own_replay;         // SectionInfo::own_replay, per section
  bool all = o.all || !o.html.empty();  // the page shows every section, as --all does
  // --all leaves the what-if out past kWhatIfUnderAllTasks tasks: its simulations cost about
  // 10 us per task (fib 28, 1.03 M tasks: 9.5 s of a 9.6 s report) against ~0.1 us for every
  // other section. Asked for by name, it always runs.
  const uint64_t tasks = x->metadata.explicit_tasks.value_or(0);
  for (const auto& info : report::all_sections()) {
    bool on = all || info.flag.empty() || (any_flag ? o.wanted.at(info.name) : info.default_on);
    on |= info.name == "mpi" && x->metadata.mpi;  // a rank of an MPI run (docs/MPI.md)
    if (on && info.name == "what_if" && !asked_for(o, "what_if") && tasks > kWhatIfUnderAllTasks) {
      x->warnings.push_back(fmt::format(
          "the what_if section is left out of --all for a run of {} tasks (its simulations take "
          "about {} s): ask for it with --what-if",
          tasks, (tasks + 99'999) / 100'000));
      continue;
    }
    if (!on) continue;
    sections.push_back(info.make(o.report));
    names.push_back(info.name);
    own_replay.push_back(info.own_replay);
  }
  // Before the replay: the task model asks it which task constructs are copies of one.
  symbols::Symbolizer symbols(x->metadata.objects, !o.no_symbols);
  // A profile-mode experiment: no trace to replay; the sections that can be answered read
  // profile.json, the others are refused when asked for and left out otherwise.
  std::optional<analysis::ProfileModeData> profile_data;
  if (x->metadata.profile_mode()) {
    auto data = analysis::read_profile_mode(*x);
    if (!data) {
      fmt::print(stderr, "tasklens report: {}\n", data.error().message);
      return 2;
    }
    profile_data = std::move(*data);
    // One row per construct, as the trace's task model makes it (the symbolizer then also lists
    // each construct's code addresses under `codeptrs`).
    analysis::merge_construct_copies(profile_data->profile, symbols);
    if (!o.html.empty()) {
      fmt::print(stderr, "tasklens report: --html {}\n", kNeedsTrace);
      return 2;
    }
    for (size_t i = sections.size(); i-- > 0;) {
      if (sections[i]->use_profile_mode(*profile_data)) continue;
      if (asked_for(o, names[i])) {
        fmt::print(stderr, "tasklens report: the {} section {}\n", names[i], kNeedsTrace);
        return 2;
      }
      x->warnings.push_back("the " + names[i] + " section " + kNeedsTrace);
      sections.erase(sections.begin() + long(i));
      names.erase(names.begin() + long(i));
      own_replay.erase(own_replay.begin() + long(i));
    }
    for (const std::string& n : profile_data->notes) x->warnings.push_back(n);
  }
  for (auto& s : sections) s->share_passes(sections);
  // Group 0 is replayed on this thread; group 1, when there is one, in a replay of its own on
  // another, and `check` on a third, all from one decoding (parallel_replay.h).
  const bool parallel = parallel_report() && o.html.empty();
  std::vector<std::vector<replay::Pass*>> groups(1);
  for (size_t i = 0; i < sections.size(); ++i) {
    size_t g = parallel && own_replay[i] ? 1 : 0;
    if (groups.size() <= g) groups.resize(g + 1);
    groups[g].push_back(&sections[i]->pass());
  }
  std::unique_ptr<html::TimelineData> timeline;
  if (!o.html.empty() && !capture) {
    timeline = std::make_unique<html::TimelineData>(*x, &symbols);
    groups[0].push_back(&timeline->pass());
  }
  Result<replay::ReplayStats> stats = replay::ReplayStats{};
  CheckVerdict check;
  if (profile_data) {
    stats->threads = profile_data->threads;
    stats->end_ns = profile_data->run_ns;
    check.soundness = {true, "profile mode: no trace to check"};
  } else {
    ProgressLine progress("replaying");
    // The first task creation asks it (TaskModel::set_constructs): started while the
    // creation-cost scan runs, not after it, where every replay would wait for it.
    symbols.start();
    replay::ConsistencySink check_sink(*x);
    std::vector<replay::RecordSink*> sinks;
    if (parallel) {
      // `check` reads the records the replays decode, on the decoding thread.
      sinks.push_back(&check_sink);
      // Both are read before the replays start (each claiming pass waits for the creation-cost
      // scan, and run_replays reads off_cpu.bin first): at once, the file on a thread of its
      // own beside the scan's (alone, it was a serial 0.1 s of a fib 30 recorded at load 7).
      std::thread off_cpu([&] { format::off_cpu(*x); });
      analysis::creation_cost(*x);
      off_cpu.join();
    }
    stats = replay::run_replays(*x, groups, progress.callback(), &symbols, sinks);
    progress.done();
    if (!stats) {
      fmt::print(stderr, "tasklens report: {}\n", stats.error().message);
      return 2;
    }
    check = parallel ? verdict(check_sink.report, *x) : check_trace(*x);
  }
  report::ReportContext ctx{*x, symbols, o.report, *stats};
  // The machine's contention (analysis/contention.h): one line, from the metadata, off_cpu.bin
  // or the profile already read.
  std::string contention = analysis::contention_warning(
      analysis::read_contention(*x, profile_data ? &*profile_data : nullptr));
  if (o.json || timeline || capture) {
    nlohmann::json doc = {{"tasklens_report_version", 1}, {"run", nullptr}};
    for (size_t i = 0; i < sections.size(); ++i) {
      doc[names[i]] = sections[i]->json(ctx);
      sections[i]->extra_json(ctx, doc);
    }
    // Last: its notes name what symbolizing the sections found (a stripped program).
    doc["run"] = run_json(*x, *stats, symbols, check, contention);
    if (!check.soundness.sound && doc.contains("breakdown")) {
      doc["breakdown"]["verdict_note"] =
          "drawn from a trace tasklens check finds not sound: " + check.soundness.reason;
    }
    if (capture) {
      *capture = std::move(doc);
    } else if (timeline) {
      // The page holds the same document, plus what its timeline draws.
      std::vector<uint64_t> path_tasks;
      for (const auto& s : sections) {
        if (const analysis::TaskGraph* g = report::graph_of(*s)) path_tasks = g->path_tasks;
      }
      doc["timeline"] = timeline->json(path_tasks);
      auto written = html::write_page(o.html, doc);
      if (!written) {
        fmt::print(stderr, "tasklens report: {}\n", written.error().message);
        return 2;
      }
      fmt::print(stderr, "tasklens report: wrote {}\n", o.html);
    } else {
      std::string text = doc.dump(1) + "\n";
      std::fwrite(text.data(), 1, text.size(), stdout);
    }
  } else {
    std::string text;
    for (size_t i = 0; i < sections.size(); ++i) {
      if (i) text += "\n";
      sections[i]->text(ctx, text);
    }
    text = run_text(*x, *stats, symbols, check, contention) + text;  // last, as for JSON
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
  // Damaged metadata or a lost stream: the report is of what was sound, said in its warnings.
  return x->damage.empty() ? 0 : 1;
}

// A report part of a parallel report (below), handed from one process to process 0 through
// a scratch folder of the job (one host, or a shared /tmp): written whole, then renamed.
void write_part(const fs::path& parts, size_t index, int code, const nlohmann::json& doc) {
  std::error_code ec;
  fs::create_directories(parts, ec);
  fs::path file = parts / ("part-" + std::to_string(index) + ".json");
  fs::path tmp = file.string() + ".tmp";
  {
    std::ofstream f(tmp);
    f << nlohmann::json{{"code", code}, {"doc", doc}}.dump();
  }
  fs::rename(tmp, file, ec);
}

// Waits for part `index` (up to 30 minutes) and reads it: the report's exit code, 2 when missing.
int read_part(const fs::path& parts, size_t index, nlohmann::json* doc) {
  fs::path file = parts / ("part-" + std::to_string(index) + ".json");
  std::error_code ec;
  for (int waited_ms = 0; !fs::exists(file, ec); waited_ms += 20) {
    if (waited_ms > 30 * 60 * 1000) {
      fmt::print(stderr, "tasklens report: no part {} from the other processes\n", index);
      return 2;
    }
    usleep(20 * 1000);
  }
  std::ifstream in(file);
  // A report nests two levels per profile tree level (at most kMaxProfileDepth) and a few more
  // around them; a part nested deeper is not one of ours.
  auto parsed = format::parse_json(in, 2 * analysis::kMaxProfileDepth + 64);
  if (!parsed || !parsed->is_object()) return 2;
  nlohmann::json part = std::move(*parsed);
  *doc = std::move(part["doc"]);
  return part.value("code", 2);
}

// An MPI run's directory: every rank's report, then the ranks side by side (docs/MPI.md).
int run_mpi_report(const ReportOptionsCli& o) {
  auto run = format::open_mpi_run(o.dir);
  if (!run) {
    fmt::print(stderr, "tasklens report: {}\n", run.error().message);
    return 2;
  }
  if (!o.html.empty()) {
    fmt::print(stderr,
               "tasklens report: {} is an MPI run: --html draws one rank, give its folder "
               "({}/rank-N)\n",
               o.dir, o.dir);
    return 2;
  }
  // Under an MPI launcher (`mpirun -np P tasklens report DIR`), process p makes the reports of
  // ranks p, p + P, ...; the others hand theirs to process 0, which alone prints (docs/MPI.md).
  format::MpiPlace me = format::mpi_place_from_env();
  size_t procs = me.is_rank() && me.size > 1 && *format::mpi_job_id() ? size_t(me.size) : 1;
  size_t mine = procs > 1 ? size_t(me.rank) : 0;
  fs::path parts =
      fs::temp_directory_path() / (std::string("tasklens-report-") + format::mpi_job_id());
  std::vector<nlohmann::json> docs(run->ranks.size());
  int code = 0;
  ReportOptionsCli with_calls = o;  // the ranks' collectives, matched by mpi_run_json
  with_calls.report.mpi_collectives = true;
  for (size_t i = mine; i < run->ranks.size(); i += procs) {
    int c = run_report(with_calls, run->ranks[i].dir, &docs[i]);
    if (mine != 0) {
      write_part(parts, i, c, docs[i]);
    } else if (c == 2) {
      return 2;
    }
    code = std::max(code, c);
  }
  if (mine != 0) return code;
  for (size_t i = 0; i < run->ranks.size(); ++i) {
    if (i % procs == 0) continue;
    int c = read_part(parts, i, &docs[i]);
    if (c == 2) return 2;
    code = std::max(code, c);
  }
  if (procs > 1) {
    std::error_code ec;
    fs::remove_all(parts, ec);
  }
  nlohmann::json doc = report::mpi_run_json(*run, docs);
  std::string text = o.json ? doc.dump(1) + "\n" : report::mpi_run_text(doc);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return code;
}

}  // namespace

void add_report_command(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<ReportOptionsCli>();
  CLI::App* sub = app.add_subcommand(
      "report",
      "Replay an experiment and explain where the time went: the work / overhead / "
      "idleness breakdown first, more sections on request");
  sub->add_option("dir", o->dir, "Experiment directory")->required();
  sub->add_flag("--json", o->json,
                "One JSON document of the sections asked for, as the text would show them "
                "(with --all: every section; keys: docs/REPORT.md)");
  sub->add_flag("--all", o->all, "Every section");
  CLI::Option* json_flag = sub->get_option("--json");
  sub->add_option("--html", o->html,
                  "Write every section and the timeline as one self-contained HTML page to FILE "
                  "(docs/HTML-REPORT.md)")
      ->type_name("FILE")
      ->excludes(json_flag);
  for (const auto& info : report::all_sections()) {
    if (info.flag.empty()) continue;
    o->wanted[info.name] = false;
    sub->add_flag(info.flag, o->wanted[info.name], info.help);
  }
  sub->add_option("--slices", o->report.slices, "Time slices of the breakdown's time series")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub->add_option("--depth", o->report.depth, "Depth limit of call trees (-1: no limit)")
      ->capture_default_str();
  sub->add_option("--what-if-threads", o->report.what_if_threads,
                  "Thread counts for --what-if, e.g. 1,2,4,8 (implies --what-if)")
      ->delimiter(',')
      ->check(CLI::Range(1u, std::numeric_limits<uint32_t>::max()));
  sub->add_option("--what-if-cutoffs", o->report.what_if_cutoffs,
                  "Cut-off depths for --what-if to simulate besides its search for the fastest, "
                  "e.g. 3 or 2,3,4 (implies --what-if)")
      ->delimiter(',')
      ->check(CLI::Range(1u, std::numeric_limits<uint32_t>::max()));
  sub->add_option("--what-if-also", o->report.what_if_also,
                  "Further recordings of the same program for --what-if, e.g. DIR2,DIR3: "
                  "predicts from the median of their costs and gives the spread (implies "
                  "--what-if)")
      ->delimiter(',');
  sub->add_flag("--no-symbols", o->no_symbols, "Show code addresses, not source locations");
  sub->callback([o, exit_code] {
    if (!o->report.what_if_threads.empty() || !o->report.what_if_cutoffs.empty() ||
        !o->report.what_if_also.empty()) {
      o->wanted["what_if"] = true;
    }
    *exit_code = format::is_mpi_run(o->dir) ? run_mpi_report(*o) : run_report(*o, o->dir, nullptr);
  });
}

}  // namespace tasklens::cli
