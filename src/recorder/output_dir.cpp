#include "recorder/output_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "format/chunk.h"
#include "format/experiment_dir.h"

namespace tasklens::recorder {
namespace {

// The pid that experiment.json in `dirfd` names (its first "pid" key: program.pid), 0 if none.
pid_t experiment_pid(int dirfd) {
  int fd = openat(dirfd, format::kMetadataFile, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return 0;
  static char buf[16384];  // once per process, at start-up: not on a thread's (small) stack
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return 0;
  buf[n] = 0;
  const char* p = std::strstr(buf, "\"pid\":");
  return p ? pid_t(std::strtol(p + 6, nullptr, 10)) : 0;
}

// The parent of `pid` from /proc/PID/stat, 0 when unknown.
pid_t parent_of(pid_t pid) {
  char path[64], buf[512];
  std::snprintf(path, sizeof path, "/proc/%d/stat", int(pid));
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return 0;
  buf[n] = 0;
  const char* close_paren = std::strrchr(buf, ')');  // the command may hold spaces and ')'
  if (!close_paren) return 0;
  int ppid = 0;
  char state = 0;
  if (std::sscanf(close_paren + 1, " %c %d", &state, &ppid) != 2) return 0;
  return pid_t(ppid);
}

bool is_ancestor(pid_t pid) {
  if (pid <= 1) return false;
  for (pid_t p = getppid(); p > 1; p = parent_of(p)) {
    if (p == pid) return true;
  }
  return false;
}

// The descriptor `tasklens run` passed when it is the directory `dir` names.
int inherited_dir(const char* dir, int fd) {
  struct stat by_fd, by_path;
  if (fd < 0 || fstat(fd, &by_fd) != 0 || !S_ISDIR(by_fd.st_mode)) return -1;
  if (lstat(dir, &by_path) != 0 || by_path.st_dev != by_fd.st_dev ||
      by_path.st_ino != by_fd.st_ino) {
    return -1;
  }
  // The descendants of this process must not inherit it across exec: they find the directory
  // taken and write their own experiment (below).
  fcntl(fd, F_SETFD, FD_CLOEXEC);
  return fd;
}

// Claims experiment.json in `dirfd` (created empty, O_EXCL): the one process that wins writes
// at the top of this directory. Its content is written by the first write_metadata.
bool claim_top(int dirfd) {
  int fd = format::create_in_dir(dirfd, format::kMetadataFile, O_WRONLY);
  if (fd < 0) return false;
  close(fd);
  return true;
}

}  // namespace

bool claim_output_dir(const char* dir, int inherited_fd, OutputDir* out, char* error,
                      size_t error_len) {
  *out = OutputDir{};
  int fd = inherited_dir(dir, inherited_fd);
  // Within a `tasklens run` (it set TASKLENS_OUTPUT_FD), which holds the directory's lock for its
  // whole process tree, even when this process no longer has the descriptor (a program that
  // closes the descriptors it inherited, a descendant after exec).
  bool from_run = inherited_fd >= 0;
  if (fd < 0) {
    fd = format::open_experiment_dir(dir, error, error_len);
    if (fd < 0) return false;
  }
  bool locked_by_other = !from_run && !format::lock_experiment_dir(fd);
  format::DirContents contents;
  if (!format::read_dir_contents(fd, &contents)) {
    std::snprintf(error, error_len, "cannot read %s: %s", dir, strerror(errno));
    close(fd);
    return false;
  }
  if (!locked_by_other && !contents.has_experiment) {
    if (contents.foreign[0]) {
      std::snprintf(error, error_len,
                    "%s is not empty (it holds %s, which tasklens did not write); give a new "
                    "or empty directory", dir, contents.foreign);
      close(fd);
      return false;
    }
    if (claim_top(fd)) {
      out->fd = fd;
      std::snprintf(out->path, sizeof out->path, "%s", dir);
      return true;
    }
    // Another process of this run claimed it between the two steps: a descendant, below.
  }
  // The directory is taken. Only a process started (directly or not) by the one at its top, or
  // within the same `tasklens run`, writes beside it, into pid-N.
  pid_t owner = experiment_pid(fd);
  if (!from_run && !is_ancestor(owner)) {
    if (locked_by_other) {
      std::snprintf(error, error_len, "%s is in use by another recording (pid %d)", dir, int(owner));
    } else {
      std::snprintf(error, error_len, "%s already holds an experiment (of pid %d); give a new or "
                    "empty directory", dir, int(owner));
    }
    close(fd);
    return false;
  }
  char name[32];
  std::snprintf(name, sizeof name, "pid-%d", int(getpid()));
  if (mkdirat(fd, name, 0755) != 0) {
    std::snprintf(error, error_len, "cannot create %s/%s: %s", dir, name, strerror(errno));
    close(fd);
    return false;
  }
  int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  close(fd);
  if (sub < 0 || !format::lock_experiment_dir(sub) || !claim_top(sub)) {
    std::snprintf(error, error_len, "cannot write in %s/%s: %s", dir, name, strerror(errno));
    if (sub >= 0) close(sub);
    return false;
  }
  out->fd = sub;
  out->descendant = true;
  out->owner_pid = owner;
  std::snprintf(out->path, sizeof out->path, "%s/%s", dir, name);
  return true;
}

}  // namespace tasklens::recorder
