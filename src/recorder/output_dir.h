// Where this process writes its experiment (docs/RECORDER.md, "The output directory"): the
// directory `tasklens run` claimed and passed down (TASKLENS_OUTPUT_FD), or TASKLENS_OUTPUT
// claimed here; a process started by a recorded one (fork+exec, system()) that finds the
// directory taken by its ancestor writes its own experiment into DIR/pid-N instead, never into
// its ancestor's streams.
#pragma once

#include <sys/types.h>

#include <cstddef>

namespace tasklens::recorder {

struct OutputDir {
  int fd = -1;             // the experiment directory, locked, O_CLOEXEC
  char path[4200] = {};    // as given, or DIR/pid-N
  bool descendant = false;  // writing into DIR/pid-N
  pid_t owner_pid = 0;     // descendant: the pid of the experiment at the top of DIR
};

// Finds and claims the directory; `dir` is the configured one, `inherited_fd` the descriptor
// `tasklens run` passed (-1: not under `tasklens run`; it may be closed or reused by now). False with a message in `error` when this process must not
// record (a symbolic link, a directory holding other files, another run's directory).
bool claim_output_dir(const char* dir, int inherited_fd, OutputDir* out, char* error,
                      size_t error_len);

}  // namespace tasklens::recorder
