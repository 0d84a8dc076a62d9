// run_child and resolve_program: `tasklens run`'s signal handling around the child process
// (spawned by src/process), and the lookup of the program on PATH.
#include "cli/launcher.h"

#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "process/spawn.h"

namespace tasklens::cli {
namespace {

pid_t g_child = -1;

void forward_term(int sig) {
  if (g_child > 0) kill(g_child, sig);
}

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

bool executable_file(const std::string& path, std::string* error) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    *error = path + ": " + std::strerror(errno);
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    *error = path + ": is a directory";
    return false;
  }
  if (access(path.c_str(), X_OK) != 0) {
    *error = path + ": not executable (" + std::strerror(errno) + ")";
    return false;
  }
  return true;
}

}  // namespace

bool resolve_program(const std::string& name, std::string* path, std::string* error) {
  if (name.find('/') != std::string::npos) {
    *path = name;
    return executable_file(name, error);
  }
  const char* env_path = std::getenv("PATH");
  std::string dirs = env_path ? env_path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) {
      *path = candidate;
      return executable_file(candidate, error);
    }
    start = end + 1;
  }
  *error = name + ": command not found (not a path, and not on PATH)";
  return false;
}

ChildExit run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  ChildExit out;
  // The terminal's SIGINT/SIGQUIT go to the whole foreground group: let the child decide.
  struct sigaction ignore{}, old_int{}, old_quit{}, term{}, old_term{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);
  term.sa_handler = forward_term;
  sigaction(SIGTERM, &term, &old_term);

  process::SpawnOptions options;
  options.env = env;
  options.default_signals = true;
  // If tasklens itself is killed (even by SIGKILL), the program gets SIGTERM: the recorder
  // flushes what it holds and the experiment says "interrupted", instead of a program that goes
  // on recording with nobody to report on it.
  options.parent_death_signal = SIGTERM;
  uint64_t t0 = now_ns();
  pid_t pid;
  int rc = process::spawn(argv, options, &pid);
  if (rc != 0) {
    out.error = argv[0] + ": cannot start: " + std::strerror(rc);
  } else {
    out.started = true;
    g_child = pid;
    process::Exit exit = process::wait_for(pid);
    out.wall_ns = now_ns() - t0;
    g_child = -1;
    out.signaled = exit.signaled;
    out.code = exit.code;
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  return out;
}

}  // namespace tasklens::cli
