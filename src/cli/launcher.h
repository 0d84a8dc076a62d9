// Starting the application as a child process with the recorder attached, and waiting for it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tasklens::cli {

struct ChildExit {
  bool started = false;
  std::string error;  // why it could not start
  bool signaled = false;
  int code = 0;       // exit status, or the signal number when signaled
  uint64_t wall_ns = 0;
};

// Runs argv[0] (already resolved to a path) with `env` ("NAME=value") added to this process's
// environment, each entry replacing one of the same name. While it runs, SIGINT and SIGQUIT
// reach the child through the terminal only and SIGTERM is forwarded to it; if tasklens dies
// (even by SIGKILL) the child gets SIGTERM (PR_SET_PDEATHSIG).
ChildExit run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env);

// The program `name` resolves to: itself when it has a slash, else the first match on PATH.
// Errors name the problem ("no such file", "not executable").
bool resolve_program(const std::string& name, std::string* path, std::string* error);

}  // namespace tasklens::cli
