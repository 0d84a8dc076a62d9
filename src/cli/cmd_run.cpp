// tasklens run: start a program with the recorder attached and summarize what was recorded.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/mpi_run_output.h"
#include "cli/run_args.h"
#include "cli/run_command.h"
#include "cli/run_summary.h"
#include "format/counter_kinds.h"

namespace tasklens::cli {

namespace {

// The program and its arguments, taken off the command line before CLI11 sees it (their options
// are the program's, not ours).
std::vector<std::string> g_program_command;

const RunSteps& full_run_steps() {
  static const RunSteps steps = {
      default_mpi_output_dir, claim_mpi_rank_output,
      [](const RunOutput& output, const std::vector<std::string>& command, const ChildExit& child) {
        print_run_summary(stderr, output.dir, command, child, descendant_experiments(output.dir));
      }};
  return steps;
}

}  // namespace

void add_run_command(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* sub = app.add_subcommand(
      "run",
      "Run a program with the recorder attached through OMPT (no recompiling) and write an "
      "experiment directory. The exit status is the program's (128+N if killed by signal N); "
      "125 when tasklens itself failed, 126/127 when the program is not executable/not found.");
  sub->add_option("-o,--output", o->output,
                  "Experiment directory to write (default: tasklens-<app>-<timestamp>)");
  sub->add_option("-n,--threads", o->threads, "Number of OpenMP threads (sets OMP_NUM_THREADS)")
      ->check(CLI::Range(1, 4096));
  sub->add_option("--buffer-mb", o->buffer_mb,
                  "Recorder memory in MiB, a fixed pool (default 64; TASKLENS_BUFFER_MB)")
      ->check(CLI::Range(1, 1 << 20));
  sub->add_option("--overflow", o->overflow,
                  "When the writer cannot keep up: block (wait, default) or drop (count losses)")
      ->check(CLI::IsMember({"block", "drop"}));
  sub->add_option("--mode", o->mode,
                  "trace (default): every event, for every report section; profile: the "
                  "call-path profile, task counts and breakdown built in memory that does not "
                  "grow with the run, written to profile.json, for runs too large to trace "
                  "(docs/PROFILE-MODE.md)")
      ->check(CLI::IsMember({"trace", "profile"}));
  sub->add_option("--counters", o->counters,
                  "perf_event counters per task, comma-separated: " +
                      format::counter_names(PERF_TYPE_SOFTWARE) + " (software; hardware ones - " +
                      format::counter_names(PERF_TYPE_HARDWARE) +
                      " - need a PMU), read at every task switch (trace and profile mode)")
      ->type_name("LIST")
      ->check(CLI::Validator(
          [](std::string& list) -> std::string {
            const auto bad =
                list.empty() ? std::nullopt : format::unknown_counter(list);  // "": none
            if (!bad) return "";
            return "unknown counter '" + std::string(*bad) +
                   "' (known: " + format::counter_names(PERF_TYPE_SOFTWARE) + ", " +
                   format::counter_names(PERF_TYPE_HARDWARE) + ")";
          },
          "", "counter names"));
  sub->add_flag("-q,--quiet", o->quiet, "Print no summary");
  sub->add_flag("--force", o->force,
                "Replace the experiment in the output directory (removes only files tasklens "
                "wrote there; a directory holding anything else is refused)");
  sub->footer("The program and its arguments come last, after the options (and after an "
              "optional --): tasklens run -n 4 -- ./app --its-own-flag");
  sub->callback([o, exit_code] {
    o->command = g_program_command;
    *exit_code = run_program(*o, full_run_steps());
  });
}

size_t split_run_command(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) != "run") return size_t(argc);
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--" || a.empty() || a[0] != '-') {
      int first = a == "--" ? i + 1 : i;
      g_program_command.assign(argv + first, argv + argc);
      return size_t(i);
    }
    for (const char* opt : kRunValueOptions) {
      if (a == opt) ++i;  // its value follows
    }
  }
  return size_t(argc);
}

int print_handed_summary(int argc, char** argv) {
  if (argc < 8 || std::string(argv[6]) != "--") {
    std::fprintf(stderr, "tasklens: %s: expected DIR SIGNALED CODE WALL_NS -- program args\n",
                 kRunSummaryArg);
    return kRunToolFailed;
  }
  ChildExit child;
  child.started = true;
  child.signaled = std::atoi(argv[3]) != 0;
  child.code = std::atoi(argv[4]);
  child.wall_ns = std::strtoull(argv[5], nullptr, 10);
  std::string dir = argv[2];
  print_run_summary(stderr, dir, std::vector<std::string>(argv + 7, argv + argc), child,
                    descendant_experiments(dir));
  return child.signaled ? 128 + child.code : child.code;
}

}  // namespace tasklens::cli
