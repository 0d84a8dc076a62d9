// Progress: the in-place progress line on a terminal's stderr.
#include "cli/progress.h"

#include <fmt/format.h>
#include <time.h>
#include <unistd.h>

namespace tasklens::cli {
namespace {

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

}  // namespace

ProgressLine::ProgressLine(std::string what)
    : what_(std::move(what)), enabled_(isatty(2)), start_ns_(now_ns()) {}

replay::Progress ProgressLine::callback() {
  return [this](uint64_t done, uint64_t expected) { update(done, expected); };
}

void ProgressLine::update(uint64_t done, uint64_t expected) {
  // Stay quiet for short work.
  if (!enabled_ || now_ns() - start_ns_ < 1000000000ull) return;
  if (expected > done) {
    fmt::print(stderr, "\rtasklens: {} {:.1f}M of {:.1f}M events ({:.0f}%)   ", what_,
               double(done) / 1e6, double(expected) / 1e6, 100.0 * double(done) / double(expected));
  } else {
    fmt::print(stderr, "\rtasklens: {} {:.1f}M events   ", what_, double(done) / 1e6);
  }
  shown_ = true;
}

void ProgressLine::done() {
  if (shown_) fmt::print(stderr, "\r{:60}\r", "");
  shown_ = false;
}

}  // namespace tasklens::cli
