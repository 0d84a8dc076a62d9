// posix_spawn with the environment, stream and signal settings of spawn.h; wait4 for the end.
#include "process/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace tasklens::process {
namespace {

// "NAME" of "NAME=value" (all of it when there is no '=').
std::string name_of(const std::string& entry) {
  return entry.substr(0, entry.find('='));
}

void connect(posix_spawn_file_actions_t* fa, int target, const Stream& s) {
  int write_flags = O_WRONLY | O_CREAT | O_TRUNC;
  switch (s.kind) {
    case Stream::Kind::kInherit:
      break;
    case Stream::Kind::kNull:
      posix_spawn_file_actions_addopen(fa, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY,
                                       0);
      break;
    case Stream::Kind::kFile:
      posix_spawn_file_actions_addopen(fa, target, s.path.c_str(),
                                       target == 0 ? O_RDONLY : write_flags, 0644);
      break;
    case Stream::Kind::kDescriptor:
      posix_spawn_file_actions_adddup2(fa, s.fd, target);
      break;
  }
}

// The child's side of spawn_forked(): streams, signals, the parent-death signal, exec. Reports
// the error number on `report` when it cannot exec. It runs after vfork(), in the parent's
// memory: system calls only, nothing allocated, nothing written but errno.
[[noreturn]] void exec_child(char* const* argp, char* const* envp, const SpawnOptions& options,
                             pid_t parent, int report) {
  const Stream* streams[3] = {&options.in, &options.out, &options.err};
  for (int target = 0; target < 3; ++target) {
    const Stream& s = *streams[target];
    int fd = -1;
    if (s.kind == Stream::Kind::kNull) fd = open("/dev/null", target == 0 ? O_RDONLY : O_WRONLY);
    if (s.kind == Stream::Kind::kFile) {
      fd = target == 0 ? open(s.path.c_str(), O_RDONLY)
                       : open(s.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    }
    if (s.kind == Stream::Kind::kDescriptor) fd = s.fd;
    if (s.kind != Stream::Kind::kInherit && (fd < 0 || dup2(fd, target) < 0)) break;
  }
  if (options.default_signals) {
    for (int sig : {SIGINT, SIGQUIT, SIGTERM}) signal(sig, SIG_DFL);
  }
  prctl(PR_SET_PDEATHSIG, options.parent_death_signal);
  // kill(getpid()), not raise(): after vfork, raise() would take the parent's thread id.
  if (getppid() != parent) kill(getpid(), options.parent_death_signal);  // it died before the prctl
  execve(argp[0], argp, envp);
  int err = errno;
  ssize_t ignored = write(report, &err, sizeof err);
  (void)ignored;
  _exit(127);
}

// spawn() with vfork and exec, for what posix_spawn cannot set up (the parent-death signal).
// vfork, not fork: the child borrows the parent's memory until it execs, so the parent's page
// tables are not copied and its pages not made copy-on-write (tasklens run's start-up,
// docs/PERFORMANCE-RECORDING.md "Fixed cost of a run").
int spawn_forked(char* const* argp, char* const* envp, const SpawnOptions& options, pid_t* pid) {
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) return errno;
  pid_t parent = getpid();
  pid_t child = vfork();
  if (child < 0) {
    int err = errno;
    close(report[0]);
    close(report[1]);
    return err;
  }
  if (child == 0) exec_child(argp, envp, options, parent, report[1]);
  close(report[1]);
  int err = 0;
  ssize_t n;
  while ((n = read(report[0], &err, sizeof err)) < 0 && errno == EINTR) {
  }
  close(report[0]);
  if (n == ssize_t(sizeof err)) {  // exec failed: the child has exited with 127
    int status;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    return err;
  }
  *pid = child;
  return 0;
}

}  // namespace

std::vector<std::string> environment_with(const std::vector<std::string>& entries) {
  std::vector<std::string> out;
  for (char** e = environ; *e; ++e) {
    std::string name = name_of(*e);
    bool replaced = false;
    for (const std::string& x : entries) replaced = replaced || name_of(x) == name;
    if (!replaced) out.emplace_back(*e);
  }
  out.insert(out.end(), entries.begin(), entries.end());
  return out;
}

int spawn(const std::vector<std::string>& argv, const SpawnOptions& options, pid_t* pid) {
  std::vector<std::string> env = environment_with(options.env);
  std::vector<std::string> args = argv;
  std::vector<char*> envp, argp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  for (auto& a : args) argp.push_back(a.data());
  argp.push_back(nullptr);
  if (options.parent_death_signal) return spawn_forked(argp.data(), envp.data(), options, pid);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  connect(&fa, 0, options.in);
  connect(&fa, 1, options.out);
  connect(&fa, 2, options.err);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  if (options.default_signals) {
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGQUIT);
    sigaddset(&defaults, SIGTERM);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  }
  int rc = posix_spawn(pid, argp[0], &fa, &attr, argp.data(), envp.data());
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
  return rc;
}

Exit wait_for(pid_t pid) {
  Exit out;
  int status = 0;
  while (wait4(pid, &status, 0, &out.usage) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    out.signaled = true;
    out.code = WTERMSIG(status);
  } else {
    out.code = WEXITSTATUS(status);
  }
  return out;
}

std::string read_to_end(int fd) {
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) {
    if (n > 0) out.append(buf, size_t(n));
  }
  return out;
}

}  // namespace tasklens::process
