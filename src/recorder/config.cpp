#include "recorder/config.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace tasklens::recorder {

void read_config(Config& config, const char* app_name) {
  if (const char* dir = std::getenv("TASKLENS_OUTPUT"); dir && *dir) {
    std::snprintf(config.output_dir, sizeof config.output_dir, "%s", dir);
  } else {
    char stamp[32];
    time_t now = time(nullptr);
    tm local{};
    localtime_r(&now, &local);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
    std::snprintf(config.output_dir, sizeof config.output_dir, "tasklens-%s-%s", app_name, stamp);
  }
  if (const char* fd = std::getenv("TASKLENS_OUTPUT_FD"); fd && *fd) {
    char* end = nullptr;
    long v = std::strtol(fd, &end, 10);
    if (end && *end == 0 && v >= 0 && v < (1l << 20)) config.output_fd = int(v);
  }
  if (const char* mb = std::getenv("TASKLENS_BUFFER_MB"); mb && *mb) {
    long v = 0;
    if (parse_buffer_mb(mb, &v)) {
      config.buffer_bytes = size_t(v) << 20;
    } else {
      std::fprintf(stderr, "tasklens: TASKLENS_BUFFER_MB=%s is not a whole number of MiB from 1 "
                   "to %ld; recording with the default %zu MiB\n",
                   mb, kMaxBufferMb, config.buffer_bytes >> 20);
    }
  }
  if (const char* p = std::getenv("TASKLENS_OVERFLOW"); p && std::strcmp(p, "drop") == 0) {
    config.overflow = OverflowPolicy::kDrop;
  }
  if (const char* c = std::getenv("TASKLENS_CLOCK"); c && std::strcmp(c, "monotonic") == 0) {
    config.clock = ClockSource::kMonotonic;
  }
  if (const char* g = std::getenv("TASKLENS_TEST_WRITER_GATE"); g && *g) {
    std::snprintf(config.writer_gate, sizeof config.writer_gate, "%s", g);
  }
  if (const char* m = std::getenv("TASKLENS_MODE"); m && std::strcmp(m, "profile") == 0) {
    config.profile = true;
  }
  if (const char* c = std::getenv("TASKLENS_COUNTERS"); c && *c) {
    std::snprintf(config.counters, sizeof config.counters, "%s", c);
  }
  if (const char* q = std::getenv("TASKLENS_QUIET"); q && *q && *q != '0') config.quiet = true;
}

}  // namespace tasklens::recorder
