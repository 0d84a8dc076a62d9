#include "cli/run_output.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "format/chunk.h"
#include "format/experiment_dir.h"

namespace tasklens::cli {
namespace fs = std::filesystem;

bool clear_tasklens_files(const fs::path& dir, std::string* error) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const fs::path& p = entry.path();
    std::string name = p.filename().string();
    if (!format::is_tasklens_entry(name.c_str())) {
      *error = (dir / name).string() + " was not written by tasklens: not removed";
      return false;
    }
    if (entry.is_directory(ec) && !entry.is_symlink(ec) &&
        (name.rfind("pid-", 0) == 0 || name.rfind(format::kRankPrefix, 0) == 0)) {
      if (!clear_tasklens_files(p, error)) return false;
    }
  }
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    fs::remove_all(entry.path(), ec);
    if (ec) {
      *error = "cannot remove " + entry.path().string() + ": " + ec.message();
      return false;
    }
  }
  return true;
}

bool claim_run_output(const std::string& dir, bool force, RunOutput* out, std::string* error) {
  out->dir = dir;
  std::error_code ec;
  out->created = !fs::exists(fs::symlink_status(dir, ec));
  char why[4400];
  int fd = format::open_experiment_dir(dir.c_str(), why, sizeof why);
  if (fd < 0) {
    *error = why;
    return false;
  }
  if (!format::lock_experiment_dir(fd)) {
    *error = dir + " is in use by another recording (locked); choose another -o";
    close(fd);
    return false;
  }
  format::DirContents c;
  if (!format::read_dir_contents(fd, &c)) {
    *error = "cannot read " + dir + ": " + std::strerror(errno);
    close(fd);
    return false;
  }
  if (!c.empty && c.foreign[0]) {
    *error = dir + " is not empty: it holds " + c.foreign +
             ", which tasklens did not write; choose a new or empty directory";
    close(fd);
    return false;
  }
  if (!c.empty && !force) {
    *error = dir + (c.has_experiment ? " already holds an experiment" : " holds tasklens files") +
             "; choose another -o, or --force to replace it";
    close(fd);
    return false;
  }
  if (!c.empty && !clear_tasklens_files(dir, error)) {
    close(fd);
    return false;
  }
  if (access(dir.c_str(), W_OK) != 0) {
    *error = "cannot write in " + dir + ": " + std::strerror(errno);
    close(fd);
    return false;
  }
  out->fd = fd;
  return true;
}

void remove_unused_output(const RunOutput& out) {
  std::error_code ec;
  fs::remove_all(fs::path(out.dir) / ".libgomp-on-libomp", ec);
  fs::remove(fs::path(out.dir) / ".reserve", ec);
  if (out.created) fs::remove(out.dir, ec);  // only when empty
}

std::vector<std::string> descendant_experiments(const std::string& dir) {
  std::vector<std::pair<long, std::string>> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("pid-", 0) == 0 && format::is_tasklens_entry(name.c_str()) &&
        entry.is_directory(ec)) {
      found.emplace_back(std::strtol(name.c_str() + 4, nullptr, 10), entry.path().string());
    }
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (auto& f : found) out.push_back(f.second);
  return out;
}

}  // namespace tasklens::cli
