// Where the tests find what the build made, and how they run it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tasklens::testing {

std::string tasklens_bin();
std::string example(const std::string& name);        // build/examples/<name>
std::string bench_program(const std::string& name);  // build/bench/programs/<name>
std::string source_dir();

struct CommandResult {
  int status = -1;  // exit status, or 128 + signal
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs `argv` (no shell) with extra `env` entries ("NAME=value", each replacing an entry of the
// same name), stdin from /dev/null, capturing both outputs.
CommandResult run_command(const std::vector<std::string>& argv,
                          const std::vector<std::string>& env = {});

// `tasklens ARGS...` run so.
CommandResult run_tasklens(const std::vector<std::string>& args,
                           const std::vector<std::string>& env = {});

// The whole content of the file at `path` ("" when it cannot be read).
std::string read_file(const std::string& path);

// The number of lines of `text` (its '\n's).
size_t count_lines(const std::string& text);

// Replaces the file at `path` with `text` (written as bytes).
void write_file(const std::string& path, const std::string& text);

// The value of `key=` in a program's one-line output ("tasks=21890" -> 21890), or -1.
long long printed_value(const std::string& output, const std::string& key);

}  // namespace tasklens::testing
