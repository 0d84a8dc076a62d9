// tasklens: record OpenMP task programs through OMPT and explain where their time goes.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <string_view>

#include "cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{
      "tasklens: records an OpenMP task program through OMPT and explains where its time goes.\n"
      "Start with `tasklens run -- ./app args`, then `tasklens report DIR`."};
  app.set_version_flag("--version", std::string("tasklens ") + TASKLENS_VERSION);
  app.require_subcommand(1);
  int exit_code = 0;
  tasklens::cli::add_run_command(app, &exit_code);
  tasklens::cli::add_dump_command(app, &exit_code);
  tasklens::cli::add_check_command(app, &exit_code);
  tasklens::cli::add_report_command(app, &exit_code);
  tasklens::cli::add_compare_command(app, &exit_code);
  tasklens::cli::add_export_command(app, &exit_code);
  std::string names;
  bool known = false;
  for (const CLI::App* sub : app.get_subcommands({})) {
    names += (names.empty() ? "" : ", ") + sub->get_name();
    known |= argc > 1 && sub->get_name() == argv[1];
  }
  if (argc > 1 && argv[1][0] != '-' && !known) {
    std::fprintf(stderr, "tasklens: unknown command '%s' (commands: %s; see tasklens --help)\n",
                 argv[1], names.c_str());
    return 2;
  }
  try {
    app.parse(int(tasklens::cli::split_run_command(argc, argv)), argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version print and succeed; a bad command line is a usage error: status 2,
    // or for `run` 125, so it cannot be mistaken for the program's own exit status.
    int status = app.exit(e);
    if (status == 0) return 0;
    return argc > 1 && std::string_view(argv[1]) == "run" ? tasklens::cli::kRunToolFailed : 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tasklens: %s\n", e.what());
    return 2;
  }
  return exit_code;
}
