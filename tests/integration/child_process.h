// A program started in the background, for tests that must act while it runs: read its output
// line by line, write to its input, signal it, and wait for its end.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace tasklens::testing {

class ChildProcess {
 public:
  // Starts argv[0] (a path) with extra `env` entries ("NAME=value"); stdin and stdout are pipes,
  // stderr goes to a file read by wait().
  ChildProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  bool started() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  // Reads stdout until a line starting with `prefix`; returns that line, or "" at end of output.
  std::string wait_for_line(const std::string& prefix);
  void write_input(const std::string& text);
  void signal(int sig);
  // Waits for the end; returns the exit status, or 128 + signal.
  int wait();
  // All stdout read so far (and the rest, after wait()), and stderr after wait().
  const std::string& out() const { return out_; }
  const std::string& err() const { return err_; }

 private:
  pid_t pid_ = -1;
  int in_fd_ = -1, out_fd_ = -1;
  std::string err_path_;
  std::string out_, err_, pending_;
  int status_ = -1;
};

}  // namespace tasklens::testing
