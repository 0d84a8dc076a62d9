// WriteBehind: a file's blocks written by a thread of its own.
#include "export/write_behind.h"

#include <cerrno>

namespace tasklens::exports {

WriteBehind::WriteBehind(FILE* file) : file_(file), thread_([this] { run(); }) {}

WriteBehind::~WriteBehind() {
  {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return !has_pending_; });
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void WriteBehind::write(fmt::memory_buffer& block) {
  {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return !has_pending_; });
    std::swap(pending_, block);
    has_pending_ = true;
  }
  cv_.notify_all();
  block.clear();
}

int WriteBehind::finish() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return !has_pending_; });
  return error_;
}

void WriteBehind::run() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [this] { return has_pending_ || stop_; });
    if (!has_pending_) return;
    // The block is the writer's until has_pending_ is cleared: write it without the lock.
    lock.unlock();
    size_t n = pending_.size();
    bool ok = std::fwrite(pending_.data(), 1, n, file_) == n;
    int err = ok ? 0 : (errno ? errno : EIO);
    pending_.clear();
    lock.lock();
    if (err && !error_) error_ = err;
    has_pending_ = false;
    cv_.notify_all();
  }
}

}  // namespace tasklens::exports
