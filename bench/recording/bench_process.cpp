// run_process on the shared process library (src/process), timed and measured; median.
#include "bench/recording/bench_process.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "process/spawn.h"

namespace tasklens::bench {

ProcessRun run_process(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  ProcessRun r;
  char out_path[] = "/tmp/tasklens-bench-out-XXXXXX";
  int out_fd = mkstemp(out_path);
  if (out_fd < 0) return r;
  unlink(out_path);
  process::SpawnOptions options;
  options.env = env;
  options.out = process::Stream::descriptor(out_fd);
  options.err = process::Stream::null();
  timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid;
  if (process::spawn(argv, options, &pid) == 0) {
    process::Exit exit = process::wait_for(pid);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r.seconds = double(t1.tv_sec - t0.tv_sec) + 1e-9 * double(t1.tv_nsec - t0.tv_nsec);
    r.status = exit.status();
    r.peak_rss_kib = exit.usage.ru_maxrss;
    r.cpu_seconds = double(exit.usage.ru_utime.tv_sec + exit.usage.ru_stime.tv_sec) +
                    1e-6 * double(exit.usage.ru_utime.tv_usec + exit.usage.ru_stime.tv_usec);
    lseek(out_fd, 0, SEEK_SET);
    r.out = process::read_to_end(out_fd);
  }
  close(out_fd);
  return r;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace tasklens::bench
