// POT Fig. 4 on this machine: the load-imbalance micro-benchmark (POT, Pereira et al., Sect. 4.2) recorded
// with `tasklens run` over task grains from 128 ns to 1 ms, its breakdown compared with the ideal
// work g·n(n+1)/2 and idleness g·n(n-1)/2 per iteration. Prints the divergence in % per grain
// (POT: within 3 % from 16 us) and writes accuracy.csv. The tasks time themselves too: the
// "self" columns compare tasklens' work with their times and its idleness with the idleness
// those times imply (the benchmark's own overshoot, which no tool can remove, left out). The
// creation column is the runtime's estimated task creation time moved from work to overhead.
//
// Usage: accuracy_bench [threads=2] [csv=accuracy.csv]
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/breakdown.h"
#include "format/experiment.h"
#include "process/spawn.h"
#include "replay/replay.h"

namespace {

using namespace tasklens;
namespace fs = std::filesystem;

// Runs argv with its stdout in `out_path`; returns the exit status (-1: not started or killed).
int run(const std::vector<std::string>& argv, const std::string& out_path) {
  process::SpawnOptions options;
  options.out = process::Stream::file(out_path);
  pid_t pid;
  if (process::spawn(argv, options, &pid) != 0) return -1;
  process::Exit exit = process::wait_for(pid);
  return exit.signaled ? -1 : exit.code;
}

// The value of `key=` in the program's output line, or 0.
double printed(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string word;
  while (in >> word) {
    if (word.rfind(key + "=", 0) == 0) return std::atof(word.c_str() + key.size() + 1);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int threads = argc > 1 ? std::atoi(argv[1]) : 2;
  std::string csv_path = argc > 2 ? argv[2] : "accuracy.csv";
  std::string dir = fs::temp_directory_path() / ("tasklens-accuracy-" + std::to_string(getpid()));
  std::FILE* csv = std::fopen(csv_path.c_str(), "w");
  if (!csv) {
    std::fprintf(stderr, "accuracy_bench: cannot write %s\n", csv_path.c_str());
    return 2;
  }
  std::fprintf(csv, "grain_ns,iterations,threads,work_ns,ideal_work_ns,work_divergence,idle_ns,"
                    "ideal_idle_ns,idle_divergence,overhead_ns,self_timed_work_ns,"
                    "work_vs_self_timed,creation_ns,self_timed_idle_ns,idle_vs_self_timed,preempted_ns\n");
  std::printf("POT load-imbalance benchmark, %d threads (ideal per iteration: work g*n(n+1)/2, "
              "idleness g*n(n-1)/2)\n", threads);
  std::printf("%10s %6s %11s %11s %7s %7s %11s %11s %7s %7s %11s %11s %11s\n", "grain", "iter",
              "work", "ideal", "div %", "self %", "idleness", "ideal", "div %", "self %",
              "overhead", "creation", "preempted");
  double n = threads;
  for (uint64_t grain = 128; grain <= (uint64_t(1) << 20); grain *= 2) {
    // About 10,000 iterations as POT, fewer for coarse grains to bound the run time.
    uint64_t iterations = std::max<uint64_t>(100, std::min<uint64_t>(10000, 200000000 / (grain * 3)));
    std::string exp = dir + "/g" + std::to_string(grain);
    std::string out = dir + "/g" + std::to_string(grain) + ".out";
    fs::create_directories(dir);
    int rc = run({TASKLENS_BIN, "run", "-q", "-n", std::to_string(threads), "-o", exp, "--",
                  TASKLENS_IMBALANCE, std::to_string(grain), std::to_string(iterations)},
                 out);
    // What the tasks measured of themselves: the benchmark's own overshoot, which no tool can
    // remove (POT: "each task may run a few more nanoseconds than ideal").
    double self_timed = printed(out, "measured_work_ns");
    double self_idle = printed(out, "measured_idle_ns");
    auto x = format::open_experiment(exp);
    if (rc != 0 || !x) {
      std::fprintf(stderr, "accuracy_bench: the run at grain %llu failed\n",
                   (unsigned long long)grain);
      return 1;
    }
    analysis::BreakdownPass pass;
    if (!replay::run_replay(*x, {&pass})) return 1;
    const analysis::Breakdown& b = pass.result();
    double ideal_work = double(grain) * n * (n + 1) / 2 * double(iterations);
    double ideal_idle = double(grain) * n * (n - 1) / 2 * double(iterations);
    double work_div = 100.0 * (double(b.total.work_ns) - ideal_work) / ideal_work;
    double idle_div = 100.0 * (double(b.total.idle_ns) - ideal_idle) / ideal_idle;
    double self_div = self_timed > 0 ? 100.0 * (double(b.total.work_ns) - self_timed) / self_timed : 0;
    double self_idle_div =
        self_idle > 0 ? 100.0 * (double(b.total.idle_ns) - self_idle) / self_idle : 0;
    std::printf("%7llu ns %6llu %8.3f ms %8.3f ms %+6.1f%% %+6.1f%% %8.3f ms %8.3f ms %+6.1f%% "
                "%+6.1f%% %8.3f ms %8.3f ms %8.3f ms\n",
                (unsigned long long)grain, (unsigned long long)iterations,
                double(b.total.work_ns) * 1e-6, ideal_work * 1e-6, work_div, self_div,
                double(b.total.idle_ns) * 1e-6, ideal_idle * 1e-6, idle_div, self_idle_div,
                double(b.total.overhead_ns) * 1e-6, double(b.total.creation_ns) * 1e-6,
                double(b.total.preempted_ns) * 1e-6);
    std::fprintf(csv, "%llu,%llu,%d,%llu,%.0f,%.4f,%llu,%.0f,%.4f,%llu,%.0f,%.4f,%llu,%.0f,%.4f,%llu\n",
                 (unsigned long long)grain, (unsigned long long)iterations, threads,
                 (unsigned long long)b.total.work_ns, ideal_work, work_div,
                 (unsigned long long)b.total.idle_ns, ideal_idle, idle_div,
                 (unsigned long long)b.total.overhead_ns, self_timed, self_div,
                 (unsigned long long)b.total.creation_ns, self_idle, self_idle_div,
                 (unsigned long long)b.total.preempted_ns);
    fs::remove_all(exp);
  }
  std::fclose(csv);
  fs::remove_all(dir);
  std::printf("written: %s\n", csv_path.c_str());
  return 0;
}
