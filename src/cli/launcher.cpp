#include "cli/launcher.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

extern char** environ;

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

ChildExit run_child(const std::vector<std::string>& argv,
                    const std::vector<std::pair<std::string, std::string>>& env) {
  ChildExit out;
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    bool replaced = false;
    for (const auto& [k, v] : env) {
      if (std::strncmp(*e, k.c_str(), k.size()) == 0 && (*e)[k.size()] == '=') replaced = true;
    }
    if (!replaced) env_strings.emplace_back(*e);
  }
  for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp, args;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy = argv;
  for (auto& a : argv_copy) args.push_back(a.data());
  args.push_back(nullptr);

  // The terminal's SIGINT/SIGQUIT go to the whole foreground group: let the child decide.
  struct sigaction ignore{}, old_int{}, old_quit{}, term{}, old_term{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);
  term.sa_handler = forward_term;
  sigaction(SIGTERM, &term, &old_term);

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGQUIT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);

  uint64_t t0 = now_ns();
  pid_t pid;
  int rc = posix_spawn(&pid, args[0], nullptr, &attr, args.data(), envp.data());
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    out.error = argv[0] + ": cannot start: " + std::strerror(rc);
  } else {
    out.started = true;
    g_child = pid;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    out.wall_ns = now_ns() - t0;
    g_child = -1;
    if (WIFSIGNALED(status)) {
      out.signaled = true;
      out.code = WTERMSIG(status);
    } else {
      out.code = WEXITSTATUS(status);
    }
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  return out;
}

}  // namespace tasklens::cli
