#include "support/test_paths.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "support/trace_builder.h"

extern char** environ;

namespace tasklens::testing {

std::string tasklens_bin() { return TASKLENS_BIN; }
std::string example(const std::string& name) { return std::string(TASKLENS_EXAMPLES_DIR) + "/" + name; }
std::string bench_program(const std::string& name) {
  return std::string(TASKLENS_BENCH_PROGRAMS_DIR) + "/" + name;
}
std::string source_dir() { return TASKLENS_SOURCE_DIR; }

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

CommandResult run_command(const std::vector<std::string>& argv,
                          const std::vector<std::string>& env) {
  std::string dir = scratch_dir("cmd");
  std::string out_path = dir + "/stdout", err_path = dir + "/stderr";
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  std::vector<std::string> envs;
  for (char** e = environ; *e; ++e) envs.emplace_back(*e);
  for (const auto& e : env) envs.push_back(e);
  std::vector<char*> envp, args;
  for (auto& e : envs) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy = argv;
  for (auto& a : argv_copy) args.push_back(a.data());
  args.push_back(nullptr);
  pid_t pid;
  CommandResult r;
  if (posix_spawn(&pid, args[0], &fa, nullptr, args.data(), envp.data()) != 0) {
    r.err = "cannot start " + argv[0];
    posix_spawn_file_actions_destroy(&fa);
    return r;
  }
  posix_spawn_file_actions_destroy(&fa);
  int status = 0;
  waitpid(pid, &status, 0);
  r.status = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  return r;
}

long long printed_value(const std::string& output, const std::string& key) {
  std::string needle = " " + key + "=";
  size_t p = (" " + output).find(needle);
  if (p == std::string::npos) return -1;
  return std::atoll(output.c_str() + p + key.size() + 1);
}

}  // namespace tasklens::testing
