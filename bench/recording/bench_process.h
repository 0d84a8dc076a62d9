// Running a program for a benchmark: wall time and peak memory of one run, medians.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tasklens::bench {

struct ProcessRun {
  int status = -1;       // exit status, or 128 + signal
  double seconds = 0;    // wall time from spawn to exit
  long peak_rss_kib = 0; // the child's ru_maxrss
  double cpu_seconds = 0; // the child's user + system time, all its threads
  std::string out;       // stdout
};

// Runs argv (argv[0] a path) with `env` entries ("NAME=value") added to or replacing this
// process's environment, stdout captured, stderr discarded.
ProcessRun run_process(const std::vector<std::string>& argv, const std::vector<std::string>& env);

double median(std::vector<double> v);

}  // namespace tasklens::bench
