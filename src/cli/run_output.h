// `tasklens run`'s experiment directory: claimed before the program starts (never a symbolic
// link, locked, empty or holding only tasklens's files with --force), passed to the recorder as
// an open descriptor, and removed again when nothing was recorded.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace tasklens::cli {

struct RunOutput {
  std::string dir;
  int fd = -1;           // open and locked until the summary is printed; inherited by the program
  bool created = false;  // the directory did not exist before
};

// Claims `dir`. With `force`, files tasklens wrote there before are removed first; any other
// file is refused. False with a message in `error`.
bool claim_run_output(const std::string& dir, bool force, RunOutput* out, std::string* error);

// After a run that recorded nothing: removes what tasklens created (the libgomp shim, and the
// directory itself when it made it).
void remove_unused_output(const RunOutput& out);

// Removes the entries tasklens wrote in `dir`, refusing (with `error`) if any other is there;
// pid-N and rank-r folders are cleared the same way, recursively.
bool clear_tasklens_files(const std::filesystem::path& dir, std::string* error);

// The pid-N folders of the processes recorded below the top one, sorted by pid.
std::vector<std::string> descendant_experiments(const std::string& dir);

}  // namespace tasklens::cli
