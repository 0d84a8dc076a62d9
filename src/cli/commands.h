// Each subcommand of `tasklens` registers itself on the CLI11 app and stores its exit status in
// *exit_code when it runs. One file per subcommand: cmd_<name>.cpp.
#pragma once

#include <cstddef>

#include "format/metadata.h"

namespace CLI {
class App;
}

namespace tasklens::cli {

// `tasklens run`'s exit status when tasklens itself failed (GNU env's 125), bad options included.
constexpr int kRunToolFailed = 125;
// What the commands and report sections that read events say of a profile-mode experiment.
constexpr const char* kNeedsTrace = format::Metadata::kNeedsTrace;

void add_run_command(CLI::App& app, int* exit_code);
// `tasklens run [options] [--] program args`: keeps program and args for the run command and
// returns how many leading arguments CLI11 should parse.
size_t split_run_command(int argc, char** argv);
// The launcher (launcher_main.cpp) hands the summary of the run it started to the full CLI:
// `tasklens-cli --launcher-run-summary DIR SIGNALED CODE WALL_NS -- program args`. Prints it and
// returns the run's exit status (the program's).
inline constexpr char kRunSummaryArg[] = "--launcher-run-summary";
int print_handed_summary(int argc, char** argv);
void add_dump_command(CLI::App& app, int* exit_code);
void add_check_command(CLI::App& app, int* exit_code);
void add_report_command(CLI::App& app, int* exit_code);
void add_compare_command(CLI::App& app, int* exit_code);
void add_diff_command(CLI::App& app, int* exit_code);
void add_export_command(CLI::App& app, int* exit_code);

}  // namespace tasklens::cli
