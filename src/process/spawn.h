// Starting a program as a child process with a chosen environment and standard streams, and
// waiting for its end. One piece for everything that runs a program: `tasklens run`, the tests
// and the benchmarks. No dependencies.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <string>
#include <vector>

namespace tasklens::process {

// What one of the child's standard streams (0, 1, 2) is connected to.
struct Stream {
  enum class Kind { kInherit, kNull, kFile, kDescriptor };
  Kind kind = Kind::kInherit;
  std::string path;  // kFile: created or truncated for output, opened for reading as stdin
  int fd = -1;       // kDescriptor: an open descriptor (e.g. a pipe's end) duplicated onto it

  static Stream inherit() { return {}; }
  static Stream null() { return {Kind::kNull, "", -1}; }
  static Stream file(std::string p) { return {Kind::kFile, std::move(p), -1}; }
  static Stream descriptor(int d) { return {Kind::kDescriptor, "", d}; }
};

struct SpawnOptions {
  // "NAME=value" entries added to this process's environment, each replacing an entry of the
  // same name.
  std::vector<std::string> env;
  Stream in, out, err;
  // SIGINT, SIGQUIT and SIGTERM at their default action in the child, whatever this process
  // does with them.
  bool default_signals = false;
  // Non-zero: the child gets this signal when this process's calling thread ends, even by
  // SIGKILL (PR_SET_PDEATHSIG, set between fork and exec).
  int parent_death_signal = 0;
};

// This process's environment with `entries` ("NAME=value") added, each replacing an entry of
// the same name; in the order of `environ`, the added entries last.
std::vector<std::string> environment_with(const std::vector<std::string>& entries);

// Starts argv[0] (a path: PATH is not searched) with argv. Returns 0 and the child in *pid, or
// the error number (as posix_spawn) when it could not start.
int spawn(const std::vector<std::string>& argv, const SpawnOptions& options, pid_t* pid);

struct Exit {
  bool signaled = false;
  int code = 0;    // exit status, or the signal number when signaled
  rusage usage{};  // the child's user and system time and peak memory (ru_maxrss), all threads
  // The shell's convention: the exit status, or 128 + signal.
  int status() const { return signaled ? 128 + code : code; }
};

// Waits for the end of child `pid`, through interruptions by signals.
Exit wait_for(pid_t pid);

// Everything readable from `fd` until its end, through interruptions by signals.
std::string read_to_end(int fd);

}  // namespace tasklens::process
