// bin/tasklens, the command users type: a small executable that starts `tasklens run`'s program
// itself and hands every other command line to the full CLI (tool_paths.h: full_cli_path), with
// the same arguments. Each `tasklens run` used to load the whole CLI (CLI11, the readers, the
// reports: a 60 MB executable) before the program; this one is linked statically with only
// run's flow (run_command.h), which starts in a fraction of the time (docs/PERFORMANCE-RECORDING.md,
// "Fixed cost of a run"). The full CLI prints the summary after the program.
#include <errno.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/run_args.h"
#include "cli/run_command.h"
#include "cli/tool_paths.h"
#include "format/mpi_env.h"

namespace tasklens::cli {
namespace {

// Replaces this process with the full CLI run with `args` (args[0] is kept: the usage lines say
// the command typed). Returns only when it cannot start, having said why.
void exec_full_cli(const std::vector<std::string>& args) {
  std::string self = self_executable();
  setenv("TASKLENS_LAUNCHER", self.c_str(), 1);
  std::string full = full_cli_path();
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execv(full.c_str(), argv.data());
  std::fprintf(stderr, "tasklens: cannot start %s (installed with %s): %s\n", full.c_str(),
               self.c_str(), std::strerror(errno));
}

// The summary after the program: the full CLI's (kRunSummaryArg in commands.h), which reads the
// experiment; the directory stays locked through the exec.
void hand_over_summary(const RunOutput& output, const std::vector<std::string>& command,
                       const ChildExit& child) {
  std::vector<std::string> args = {"tasklens", kRunSummaryArg, output.dir,
                                   std::to_string(int(child.signaled)), std::to_string(child.code),
                                   std::to_string(child.wall_ns), "--"};
  args.insert(args.end(), command.begin(), command.end());
  exec_full_cli(args);
}

}  // namespace
}  // namespace tasklens::cli

int main(int argc, char** argv) {
  using namespace tasklens::cli;
  RunOptions o;
  // An MPI rank's run shares its directory with the other ranks: the full CLI's (mpi_run_output.h).
  if (parse_plain_run_args(argc, argv, &o) && !tasklens::format::mpi_place_from_env().is_rank()) {
    static const RunSteps steps = {nullptr, nullptr, hand_over_summary};
    return run_program(o, steps);
  }
  exec_full_cli(std::vector<std::string>(argv, argv + argc));
  return argc > 1 && std::strcmp(argv[1], "run") == 0 ? kRunToolFailed : 2;
}
