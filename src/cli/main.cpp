// tasklens: record OpenMP task programs through OMPT and explain where their time goes. The full
// CLI (libexec/tasklens/tasklens-cli): bin/tasklens, the launcher (launcher_main.cpp), starts
// it with the command line as typed for everything but a plain `tasklens run`.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <algorithm>
#include <exception>
#include <string>
#include <vector>
#include <string_view>

#include "cli/commands.h"
#include "cli/tool_paths.h"

namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// For an option `sub` does not know ("--thread"), the one it most likely meant ("--threads"):
// the closest long name by edit distance (at most 2), else one it is a prefix of. Returns the
// one-line error that says so, "" when there is nothing to suggest.
std::string suggest_option(const CLI::App* sub, int argc, char** argv) {
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.rfind("--", 0) != 0) continue;
    arg = arg.substr(0, arg.find('='));
    std::string best;
    size_t best_distance = 3;
    bool known = false;
    for (const CLI::Option* opt : sub->get_options()) {
      for (const std::string& name : opt->get_lnames()) {
        std::string flag = "--" + name;
        known |= flag == arg;
        size_t d = edit_distance(arg, flag);
        if (flag.rfind(arg, 0) == 0) d = std::min<size_t>(d, 2);
        if (d < best_distance) best_distance = d, best = flag;
      }
    }
    if (!known && !best.empty()) {
      return "tasklens " + sub->get_name() + ": unknown option " + arg + "; did you mean " + best +
             "?";
    }
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  tasklens::cli::take_launcher_path();
  if (argc > 1 && std::string_view(argv[1]) == tasklens::cli::kRunSummaryArg) {
    return tasklens::cli::print_handed_summary(argc, argv);
  }
  CLI::App app{
      "tasklens: records an OpenMP task program through OMPT and explains where its time goes.\n"
      "Start with `tasklens run -- ./app args`, then `tasklens report DIR`."};
  app.set_version_flag("--version", std::string("tasklens ") + TASKLENS_VERSION);
  app.require_subcommand(1);
  int exit_code = 0;
  tasklens::cli::add_run_command(app, &exit_code);
  // `tasklens run` starts before the program: it builds its own options only, not those of
  // the other commands (their validators and option tables are most of the CLI's own start).
  const bool run_only = argc > 1 && std::string_view(argv[1]) == "run";
  if (!run_only) {
    tasklens::cli::add_dump_command(app, &exit_code);
    tasklens::cli::add_check_command(app, &exit_code);
    tasklens::cli::add_report_command(app, &exit_code);
    tasklens::cli::add_compare_command(app, &exit_code);
    tasklens::cli::add_diff_command(app, &exit_code);
    tasklens::cli::add_export_command(app, &exit_code);
  }
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
  // `run`: the program and its arguments are set aside before CLI11 sees the rest.
  const int own_argc = int(tasklens::cli::split_run_command(argc, argv));
  try {
    app.parse(own_argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version print and succeed; a bad command line is a usage error: status 2,
    // or for `run` 125, so it cannot be mistaken for the program's own exit status.
    if (e.get_exit_code() == 0) return app.exit(e);
    // A mistyped option: one line with the option meant, instead of CLI11's two.
    std::string hint;
    if (argc > 1) {
      for (const CLI::App* sub : app.get_subcommands({})) {
        if (sub->get_name() == argv[1]) hint = suggest_option(sub, own_argc, argv);
      }
    }
    if (hint.empty()) {
      app.exit(e);
    } else {
      std::fprintf(stderr, "%s\n", hint.c_str());
    }
    return argc > 1 && std::string_view(argv[1]) == "run" ? tasklens::cli::kRunToolFailed : 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tasklens: %s\n", e.what());
    return 2;
  }
  return exit_code;
}
