// Replay throughput: events per second through the merge alone, the merge plus the task model,
// and the merge, model and breakdown pass (the budget: >= 30 M events/s on one core), with the
// peak memory; then the merge and model with the call-path profile pass, with the overheads
// pass, and with the task graph pass (what `report --profile`, `--overheads` and `--graph` add),
// and the what-if's own passes (`--what-if`: its task DAG and its per-construct costs).
// Usage: replay_bench EXPERIMENT_DIR [repetitions
//        [merge|model|breakdown|profile|overheads|graph|dag|costs]];
// naming a stage runs only that one (for a profiler).
// Times are CPU time of this process (the machine is shared and noisy); medians are printed.
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "analysis/breakdown.h"
#include "analysis/overheads.h"
#include "analysis/profile.h"
#include "analysis/task_graph.h"
#include "format/experiment.h"
#include "replay/merged_stream.h"
#include "replay/replay.h"
#include "simulate/task_costs.h"
#include "simulate/task_dag.h"

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
    std::fprintf(stderr,
                 "usage: %s EXPERIMENT_DIR [repetitions "
                 "[merge|model|breakdown|profile|overheads|graph|dag|costs]]\n",
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
  std::vector<double> merge_s, model_s, breakdown_s, profile_s, overheads_s, graph_s, dag_s,
      costs_s;
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
    // One replay through `pass`, its CPU time added to `seconds`.
    auto timed = [&](replay::Pass& pass, std::vector<double>& seconds) {
      double start = cpu_seconds();
      auto stats = replay::run_replay(*x, {&pass});
      seconds.push_back(cpu_seconds() - start);
      if (stats) peak_live = std::max(peak_live, stats->peak_live_tasks);
    };
    if (runs("model")) {
      NoPass none;
      timed(none, model_s);
    }
    if (runs("breakdown")) {
      analysis::BreakdownPass breakdown;
      timed(breakdown, breakdown_s);
    }
    if (runs("profile")) {
      analysis::ProfilePass profile;
      timed(profile, profile_s);
    }
    if (runs("graph")) {
      analysis::TaskGraphPass graph;
      timed(graph, graph_s);
    }
    if (runs("overheads")) {
      analysis::OverheadsPass overheads;
      timed(overheads, overheads_s);
    }
    if (runs("dag")) {
      simulate::TaskDagPass dag;
      timed(dag, dag_s);
    }
    if (runs("costs")) {
      simulate::TaskCostPass costs;
      timed(costs, costs_s);
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
  std::printf("merge + model + profile    %7.1f M events/s\n", rate(profile_s));
  std::printf("merge + model + overheads  %7.1f M events/s\n", rate(overheads_s));
  std::printf("merge + model + graph      %7.1f M events/s\n", rate(graph_s));
  std::printf("merge + model + what-if DAG %6.1f M events/s\n", rate(dag_s));
  std::printf("merge + model + task costs %7.1f M events/s\n", rate(costs_s));
  std::printf("peak RSS                   %7.1f MiB (live tasks at most %llu, sampled)\n",
              double(ru.ru_maxrss) / 1024.0, (unsigned long long)peak_live);
  return 0;
}
