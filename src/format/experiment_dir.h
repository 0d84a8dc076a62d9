// Claiming an experiment directory safely, for `tasklens run` and for the recorder: the
// directory itself is never a symbolic link, it is locked (flock) by whoever writes into it, it
// holds nothing but tasklens's own files, and every file in it is created, never reused. Plain
// POSIX, no allocation: the recorder calls some of it from a signal handler (docs/RECORDER.md,
// "The output directory").
#pragma once

#include <cstddef>

namespace tasklens::format {

// An MPI run's directory (docs/MPI.md): its description, and one experiment per rank in
// rank-R.
inline constexpr char kMpiRunFile[] = "mpi-run.json";
inline constexpr char kRankPrefix[] = "rank-";

// The names tasklens writes in an experiment directory: experiment.json (and its .tmp),
// thread-NNNN.tlt, .reserve, .libgomp-on-libomp and the pid-N folders of descendant processes;
// in an MPI run's directory mpi-run.json (and its .tmp) and the rank-R folders.
// `tasklens run --force` removes these and nothing else.
bool is_tasklens_entry(const char* name);

// Creates `path` (and its parents; symbolic links among the parents are followed) and opens it.
// The last component must be a directory, not a symbolic link (O_NOFOLLOW). Returns the
// descriptor (O_CLOEXEC) or -1 with a message in `error`.
int open_experiment_dir(const char* path, char* error, size_t error_len);

// Takes the directory's lock without waiting (flock LOCK_EX|LOCK_NB on `dirfd`'s open file
// description: a child that inherits the descriptor shares it). False when another holds it.
bool lock_experiment_dir(int dirfd);

// What a directory holds, by is_tasklens_entry.
struct DirContents {
  bool empty = true;            // no entry at all (but . and ..)
  bool has_experiment = false;  // experiment.json
  char foreign[256] = {};       // the first entry tasklens did not write, "" if none
};
// Reads the entries of `dirfd` with getdents64 (async-signal-safe); false on a read error.
bool read_dir_contents(int dirfd, DirContents* out);

// Calls fn(name, arg) for every entry of `dirfd` but . and .. (getdents64, no allocation).
bool for_each_dir_entry(int dirfd, void (*fn)(const char* name, void* arg), void* arg);

// Creates file `name` in `dirfd`: O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC, so an existing file or a
// planted symbolic link is an error (EEXIST), never followed or overwritten.
int create_in_dir(int dirfd, const char* name, int flags, int mode = 0644);

}  // namespace tasklens::format
