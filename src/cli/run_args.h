// `tasklens run`'s command line read without CLI11, for the launcher (launcher_main.cpp): the
// plain forms only; anything else is left to the full CLI, which gives these forms the same
// meaning and says what is wrong with the others.
#pragma once

#include "cli/run_command.h"

namespace tasklens::cli {

// The options of `tasklens run` that take a value, given as the next argument.
inline constexpr const char* kRunValueOptions[] = {"-o",          "--output",   "-n",
                                                   "--threads",   "--buffer-mb", "--overflow",
                                                   "--mode",      "--counters"};

// argv[1] is "run": true with *o filled when each option is one of kRunValueOptions followed by
// a valid value that does not start with '-' (a number without leading zeros in its range, a
// name among its choices) or -q, --quiet, --force, none given twice, and a program follows
// (after -- or as the first argument that is not an option). False leaves the command line to
// the full CLI: --help, --opt=value, bundled flags, mistakes.
bool parse_plain_run_args(int argc, char** argv, RunOptions* o);

}  // namespace tasklens::cli
