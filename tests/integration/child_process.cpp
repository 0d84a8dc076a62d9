// ChildProcess: pipes to the program's stdin and stdout, its stderr in a scratch file.
#include "integration/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>

#include "process/spawn.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::testing {

ChildProcess::ChildProcess(const std::vector<std::string>& argv,
                           const std::vector<std::string>& env) {
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) return;
  if (pipe2(out, O_CLOEXEC) != 0) return;
  err_path_ = scratch_dir("child") + "/stderr";
  process::SpawnOptions options;
  options.env = env;
  options.in = process::Stream::descriptor(in[0]);
  options.out = process::Stream::descriptor(out[1]);
  options.err = process::Stream::file(err_path_);
  if (process::spawn(argv, options, &pid_) != 0) pid_ = -1;
  close(in[0]);
  close(out[1]);
  in_fd_ = in[1];
  out_fd_ = out[0];
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && status_ < 0) {
    kill(pid_, SIGKILL);
    wait();
  }
  if (in_fd_ >= 0) close(in_fd_);
  if (out_fd_ >= 0) close(out_fd_);
}

std::string ChildProcess::wait_for_line(const std::string& prefix) {
  while (true) {
    size_t nl;
    while ((nl = pending_.find('\n')) != std::string::npos) {
      std::string line = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      if (line.rfind(prefix, 0) == 0) return line;
    }
    char buf[4096];
    ssize_t n = read(out_fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return "";
    out_.append(buf, size_t(n));
    pending_.append(buf, size_t(n));
  }
}

void ChildProcess::write_input(const std::string& text) {
  ssize_t n = ::write(in_fd_, text.data(), text.size());
  (void)n;
}

void ChildProcess::signal(int sig) {
  if (pid_ > 0 && status_ < 0) kill(pid_, sig);
}

int ChildProcess::wait() {
  if (pid_ <= 0) return -1;
  if (status_ >= 0) return status_;
  if (in_fd_ >= 0) close(in_fd_), in_fd_ = -1;
  out_ += process::read_to_end(out_fd_);
  status_ = process::wait_for(pid_).status();
  err_ = read_file(err_path_);
  return status_;
}

}  // namespace tasklens::testing
