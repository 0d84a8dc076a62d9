// tasklens check: is an experiment sound? Exit 0 when it is, 1 when data was lost or events
// contradict each other, 2 when it cannot be read at all.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>

#include "cli/commands.h"
#include "format/experiment.h"
#include "format/mpi_run.h"
#include "format/off_cpu.h"
#include "format/plural.h"
#include "replay/consistency.h"

namespace tasklens::cli {
namespace {

int check(const std::string& dir) {
  auto x = format::open_experiment(dir);
  if (!x) {
    fmt::print(stderr, "tasklens check: {}\n", x.error().message);
    return 2;
  }
  if (x->metadata.profile_mode()) {
    fmt::print(stderr, "tasklens check: {}: a profile-mode experiment {}\n", dir, kNeedsTrace);
    return 2;
  }
  if (x->streams.empty()) {
    fmt::print(stderr, "tasklens check: {}: no thread streams (the program recorded nothing)\n",
               dir);
    return 1;
  }
  replay::ConsistencyReport rep = replay::check_consistency(*x);
  fmt::print("{}: {} run of {}, {}, {}\n", dir, x->status, x->program_name(),
             format::plural(rep.threads, "thread"), format::plural(rep.events, "event"));
  fmt::print("  parallel regions {}, implicit tasks {}, explicit tasks {} created / {} started / "
             "{} completed ({} cancelled)\n",
             rep.parallel_regions, rep.implicit_tasks, rep.explicit_created, rep.explicit_started,
             rep.explicit_completed, rep.explicit_cancelled);
  fmt::print("  suspensions {} (resumed {}, on another thread {}), dependences {}, runtime "
             "edges {}\n",
             rep.suspensions, rep.resumptions, rep.migrations, rep.dependences,
             rep.task_dependences);
  if (rep.untied_silent_parts) {
    fmt::print("  note: {} of untied tasks ran with no event at their start or end (libomp; "
               "docs/REPLAY.md)\n",
               format::plural(rep.untied_silent_parts, "part"));
  }
  for (const auto& w : x->warnings) fmt::print("  note: {}\n", w);
  for (const auto& d : x->damage) fmt::print("  damaged: {}\n", d);
  if (uint64_t bad = format::off_cpu(*x).damaged) {
    fmt::print("  damaged: off_cpu.bin: {} of threads no recording has, left out\n",
               format::plural(bad, "switch record"));
  }
  if (x->status == "running") {
    // Killed without a chance to flush (SIGKILL, power loss, _exit): each thread's last chunk,
    // still in memory, is gone; how many events it held is unknown.
    fmt::print("  lost: what the threads held in memory when the run was killed (up to one chunk "
               "of {} events per thread)\n",
               x->metadata.recorder.chunk_events);
  }
  for (const auto& p : rep.stream_problems) {
    fmt::print("  {}: {}\n",
               p.severity == format::Problem::Severity::kDataLost ? "lost" : "note", p.message);
  }
  for (const auto& i : rep.issues) fmt::print("  inconsistent: {}\n", i);
  if (rep.inconsistencies() > rep.issues.size()) {
    fmt::print("  ... and {} more inconsistencies\n", rep.inconsistencies() - rep.issues.size());
  }
  replay::Soundness verdict = replay::soundness(rep, *x);
  if (verdict.sound) {
    fmt::print("  sound: {}\n", verdict.reason);
    return 0;
  }
  if (x->status != "complete" && rep.explicit_unfinished) {
    fmt::print("  {} explicit tasks had not completed when the run ended ({} had started)\n",
               rep.explicit_unfinished, rep.explicit_unfinished_started);
  }
  if (x->status != "complete") {
    fmt::print("  not sound: {}; everything before the end was read\n", verdict.reason);
  } else {
    fmt::print("  not sound: {}\n", verdict.reason);
  }
  return 1;
}

// An MPI run's directory: every rank checked as an experiment of its own (docs/MPI.md).
int check_mpi_run(const std::string& dir) {
  auto run = format::open_mpi_run(dir);
  if (!run) {
    fmt::print(stderr, "tasklens check: {}\n", run.error().message);
    return 2;
  }
  fmt::print("{}: MPI run of {} ({} recorded)\n", dir, format::plural(uint64_t(run->size), "rank"),
             run->ranks.size());
  int code = run->warnings.empty() ? 0 : 1;
  for (const auto& w : run->warnings) fmt::print("  note: {}\n", w);
  for (const auto& rank : run->ranks) code = std::max(code, check(rank.dir));
  return code;
}

}  // namespace

void add_check_command(CLI::App& app, int* exit_code) {
  auto dir = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand(
      "check", "Validate an experiment: exit 0 when sound, 1 when data was lost or events are "
               "inconsistent (each said), 2 when it cannot be read");
  sub->add_option("dir", *dir, "Experiment directory")->required();
  sub->callback([dir, exit_code] { *exit_code = format::is_mpi_run(*dir) ? check_mpi_run(*dir) : check(*dir); });
}

}  // namespace tasklens::cli
