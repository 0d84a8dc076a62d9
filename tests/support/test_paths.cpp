// Where the tests find the build's binaries, and running them as commands.
#include "support/test_paths.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "process/spawn.h"
#include "support/trace_builder.h"

namespace tasklens::testing {

std::string tasklens_bin() { return TASKLENS_BIN; }
std::string example(const std::string& name) { return std::string(TASKLENS_EXAMPLES_DIR) + "/" + name; }
std::string bench_program(const std::string& name) {
  return std::string(TASKLENS_BENCH_PROGRAMS_DIR) + "/" + name;
}
std::string source_dir() { return TASKLENS_SOURCE_DIR; }

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t count_lines(const std::string& text) {
  return size_t(std::count(text.begin(), text.end(), '\n'));
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

CommandResult run_command(const std::vector<std::string>& argv,
                          const std::vector<std::string>& env) {
  std::string dir = scratch_dir("cmd");
  process::SpawnOptions options;
  options.env = env;
  options.in = process::Stream::null();
  options.out = process::Stream::file(dir + "/stdout");
  options.err = process::Stream::file(dir + "/stderr");
  pid_t pid;
  CommandResult r;
  if (process::spawn(argv, options, &pid) != 0) {
    r.err = "cannot start " + argv[0];
    return r;
  }
  r.status = process::wait_for(pid).status();
  r.out = read_file(options.out.path);
  r.err = read_file(options.err.path);
  return r;
}

long long printed_value(const std::string& output, const std::string& key) {
  std::string needle = " " + key + "=";
  size_t p = (" " + output).find(needle);
  if (p == std::string::npos) return -1;
  return std::atoll(output.c_str() + p + key.size() + 1);
}

CommandResult run_tasklens(const std::vector<std::string>& args,
                           const std::vector<std::string>& env) {
  std::vector<std::string> argv = {tasklens_bin()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv, env);
}

}  // namespace tasklens::testing
