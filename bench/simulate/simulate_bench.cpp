// simulate_bench: the simulator's speed (task fragments per second) and memory on a synthetic
// fib-like task tree, or on a recorded experiment's task graph (docs/WHAT-IF.md).
// Usage: simulate_bench [depth (default 20: 2^21 tasks) | EXPERIMENT_DIR] [THREADS,...
// (default 1,2,8,64,4096)].
// The figures mean something only on a quiet machine (check `uptime`).
#include <sys/resource.h>

#include <cctype>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "format/experiment.h"
#include "replay/replay.h"
#include "simulate/simulator.h"

using namespace tasklens::simulate;

namespace {

uint32_t add_task(TaskDag& dag, uint32_t parent, uint32_t depth, std::vector<std::vector<DagItem>>& items) {
  auto t = uint32_t(dag.tasks.size());
  dag.tasks.emplace_back();
  items.emplace_back();
  dag.tasks[t].parent = parent;
  dag.tasks[t].is_explicit = true;
  dag.tasks[t].construct = 0;
  dag.tasks[t].depth = depth;
  return t;
}

void build(TaskDag& dag, std::vector<std::vector<DagItem>>& items, uint32_t t, uint32_t levels) {
  if (levels == 0) {
    items[t].push_back({DagItem::kWork, 400});
    return;
  }
  items[t].push_back({DagItem::kWork, 50});
  uint32_t a = add_task(dag, t, dag.tasks[t].depth + 1, items);
  items[t].push_back({DagItem::kCreate, a});
  build(dag, items, a, levels - 1);
  items[t].push_back({DagItem::kWork, 50});
  uint32_t b = add_task(dag, t, dag.tasks[t].depth + 1, items);
  items[t].push_back({DagItem::kCreate, b});
  build(dag, items, b, levels - 2 < levels ? levels - 1 : 0);
  items[t].push_back({DagItem::kTaskwait, 0});
  items[t].push_back({DagItem::kWork, 20});
}

// The task graph of a recorded experiment (the what-if pass's first half).
bool load(const char* dir, TaskDag* dag) {
  auto x = tasklens::format::open_experiment(dir);
  if (!x) {
    std::fprintf(stderr, "simulate_bench: %s\n", x.error().message.c_str());
    return false;
  }
  TaskDagPass pass;
  auto stats = tasklens::replay::run_replay(*x, {&pass});
  if (!stats) {
    std::fprintf(stderr, "simulate_bench: %s\n", stats.error().message.c_str());
    return false;
  }
  *dag = std::move(pass.result());
  return true;
}

void synthetic(TaskDag& dag, uint32_t levels) {
  std::vector<std::vector<DagItem>> items;
  dag.tasks.emplace_back();  // root
  items.emplace_back();
  dag.tasks.emplace_back();  // its parallel region's implicit task
  items.emplace_back();
  dag.tasks[1].parent = kNone;
  dag.regions.push_back({{1}, false});
  items[0].push_back({DagItem::kRegion, 0});
  uint32_t top = add_task(dag, 1, 1, items);
  items[1].push_back({DagItem::kWork, 100});
  items[1].push_back({DagItem::kCreate, top});
  items[1].push_back({DagItem::kBarrier, 0});
  build(dag, items, top, levels);
  dag.constructs.push_back({0, 0, true, levels + 1, uint32_t(dag.tasks.size() - 2)});
  for (size_t t = 0; t < dag.tasks.size(); ++t) {
    dag.tasks[t].first_item = uint32_t(dag.items.size());
    dag.tasks[t].items = uint32_t(items[t].size());
    for (const DagItem& i : items[t]) {
      dag.items.push_back(i);
      if (i.kind == DagItem::kWork) ++dag.fragments;
    }
  }
  std::vector<std::vector<DagItem>>().swap(items);
}

}  // namespace

int main(int argc, char** argv) {
  TaskDag dag;
  if (argc > 1 && !std::isdigit(static_cast<unsigned char>(argv[1][0]))) {
    if (!load(argv[1], &dag)) return 1;
  } else {
    synthetic(dag, argc > 1 ? uint32_t(std::atoi(argv[1])) : 20);
  }
  std::printf("tasks %zu, fragments %llu\n", dag.tasks.size(), (unsigned long long)dag.fragments);
  std::printf("%8s %14s %12s %10s %14s %12s\n", "threads", "wall_ns", "steals", "cpu_s",
              "fragments/s", "maxrss_MiB");
  SimCosts costs;
  costs.schedule_ns = 30;
  costs.creation_ns = {40};
  std::vector<uint32_t> counts = {1, 2, 8, 64, 4096};
  if (argc > 2) {
    counts.clear();
    for (char* s = argv[2]; *s;) {
      char* end = nullptr;
      unsigned long p = std::strtoul(s, &end, 10);
      if (end == s || p == 0) {
        std::fprintf(stderr, "simulate_bench: thread counts: a comma-separated list of numbers\n");
        return 2;
      }
      counts.push_back(uint32_t(p));
      s = *end == ',' ? end + 1 : end;
    }
  }
  for (uint32_t p : counts) {
    SimConfig config;
    config.threads = p;
    // CPU time, not wall time: the figure then means something on a loaded machine too (less
    // than on a quiet one: caches are shared).
    timespec c0{}, c1{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    SimResult r = simulate(dag, costs, config);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    double s = double(c1.tv_sec - c0.tv_sec) + 1e-9 * double(c1.tv_nsec - c0.tv_nsec);
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    std::printf("%8u %14llu %12llu %10.3f %14.3g %12.1f%s\n", p, (unsigned long long)r.wall_ns,
                (unsigned long long)r.steals, s, double(r.fragments) / s,
                double(ru.ru_maxrss) / 1024.0, r.stalled ? " STALLED" : "");
  }
  return 0;
}
