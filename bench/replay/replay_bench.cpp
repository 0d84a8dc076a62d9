// Replay throughput: events per second through the merge alone, the merge plus the task model,
// and the merge, model and breakdown pass (the budget: >= 30 M events/s on one core), with the
// peak memory. Usage: replay_bench EXPERIMENT_DIR [repetitions [merge|model|breakdown]]; naming a
// stage runs only that one (for a profiler).
// Times are CPU time of this process (the machine is shared and noisy); medians are printed.
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "analysis/breakdown.h"
#include "format/experiment.h"
#include "replay/merged_stream.h"
#include "replay/replay.h"

namespace {

using namespace tasklens;

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// An empty pass: the model's cost alone.
class NoPass : public replay::Pass {};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s EXPERIMENT_DIR [repetitions [merge|model|breakdown]]\n",
                 argv[0]);
    return 2;
  }
  int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  const char* only = argc > 3 ? argv[3] : nullptr;
  auto runs = [&](const char* stage) { return !only || std::strcmp(only, stage) == 0; };
  auto x = format::open_experiment(argv[1]);
  if (!x) {
    std::fprintf(stderr, "%s\n", x.error().message.c_str());
    return 2;
  }
  std::vector<double> merge_s, model_s, breakdown_s;
  uint64_t events = 0, peak_live = 0;
  for (int i = 0; i < reps; ++i) {
    double t0 = cpu_seconds();
    if (runs("merge") || i == 0) {  // once at least: it counts the events
      auto s = replay::MergedStream::open(*x);
      replay::Record r;
      uint64_t n = 0, sum = 0;
      while ((*s)->next(r)) ++n, sum += r.ev.time;
      merge_s.push_back(cpu_seconds() - t0);
      events = n;
      if (sum == 1) std::puts("");  // keep the loop
    }
    if (runs("model")) {
      NoPass none;
      t0 = cpu_seconds();
      auto a = replay::run_replay(*x, {&none});
      model_s.push_back(cpu_seconds() - t0);
    }
    if (runs("breakdown")) {
      analysis::BreakdownPass breakdown;
      t0 = cpu_seconds();
      auto b = replay::run_replay(*x, {&breakdown});
      breakdown_s.push_back(cpu_seconds() - t0);
      if (b) peak_live = b->peak_live_tasks;
    }
  }
  rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  auto rate = [&](const std::vector<double>& v) {
    return v.empty() ? 0.0 : double(events) / median(v) / 1e6;
  };
  std::printf("trace: %s (%llu events)\n", argv[1], (unsigned long long)events);
  std::printf("merge only                 %7.1f M events/s  (median of %zu, CPU time)\n",
              rate(merge_s), merge_s.size());
  std::printf("merge + task model         %7.1f M events/s\n", rate(model_s));
  std::printf("merge + model + breakdown  %7.1f M events/s  (budget: >= 30)\n", rate(breakdown_s));
  std::printf("peak RSS                   %7.1f MiB (live tasks at most %llu, sampled)\n",
              double(ru.ru_maxrss) / 1024.0, (unsigned long long)peak_live);
  return 0;
}
