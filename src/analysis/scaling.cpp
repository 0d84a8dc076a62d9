// compute_scaling: the overheads results of several runs lined up by thread count.
#include "analysis/scaling.h"

#include <algorithm>
#include <map>

namespace tasklens::analysis {

Scaling compute_scaling(std::vector<ScalingRun> runs) {
  Scaling s;
  std::stable_sort(runs.begin(), runs.end(), [](const ScalingRun& a, const ScalingRun& b) {
    return a.threads < b.threads;
  });
  if (runs.empty()) return s;
  const ScalingRun& base = runs.front();
  s.amdahl = amdahl(base.overheads, base.threads);
  uint64_t base_predicted = s.amdahl.predicted_ns(base.threads);
  for (size_t i = 0; i < runs.size(); ++i) {
    const ScalingRun& r = runs[i];
    const Overheads& o = r.overheads;
    ScalingPoint p;
    p.name = r.name;
    p.threads = std::max(r.threads, 1u);
    p.run_ns = o.run_ns;
    p.total_ns = p.threads * o.run_ns;
    p.serial_ns = p.threads * (o.run_ns > o.parallel_ns ? o.run_ns - o.parallel_ns : 0);
    p.cost = o.program;
    p.coverage = o.coverage;
    p.speedup = o.run_ns ? double(base.overheads.run_ns) / double(o.run_ns) : 0;
    p.efficiency = p.speedup * std::max(base.threads, 1u) / p.threads;
    // Amdahl from the smallest run, scaled to its measured time (exact for a one-thread run).
    uint64_t predicted = s.amdahl.predicted_ns(p.threads);
    p.amdahl_ns = base_predicted
                      ? uint64_t(double(predicted) / double(base_predicted) * double(base.overheads.run_ns))
                      : 0;
    p.work_ns = r.graph.work_ns;
    p.span_ns = r.graph.span_ns;
    p.path_runtime_ns = r.graph.path_runtime_ns;
    p.parallelism = r.graph.parallelism;
    p.bound_ns = fastest_schedule_ns(r.graph.work_ns, r.graph.span_ns, p.threads);
    p.tasks_work_ns = r.split.work_ns + r.split.creation_ns;
    p.preempted_ns = r.split.preempted_ns;
    const uint64_t base_work = base.split.work_ns + base.split.creation_ns;
    p.work_inflation = base_work ? double(p.tasks_work_ns) / double(base_work) : 0;
    // Another process's time on the CPUs is not the program's: say where it is large enough
    // to move the comparison (the same 2 % the what-if's accuracy script leaves runs out at).
    if (uint64_t all = r.split.total_ns(); all && p.preempted_ns > all / 50) {
      s.notes.push_back(
          r.name + ": its threads were preempted for " +
          std::to_string(100 * p.preempted_ns / all) +
          " % of their time (another process or thread had the CPU): its times hold that wait");
    } else if (!r.contention.empty()) {
      s.notes.push_back(r.name + ": " + r.contention);
    }
    if (i && r.threads == runs[i - 1].threads) {
      s.notes.push_back(r.name + " and " + runs[i - 1].name + " both ran " +
                        std::to_string(r.threads) + " threads");
    }
    s.runs.push_back(std::move(p));
  }
  // Regions by key, in the order of the first run that has them (longest first there).
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < runs.size(); ++i) {
    const auto& regions = runs[i].overheads.regions;
    for (size_t k = 0; k < regions.size() && k < runs[i].region_keys.size(); ++k) {
      const std::string& key = runs[i].region_keys[k];
      auto [it, added] = index.emplace(key, s.regions.size());
      if (added) {
        s.regions.emplace_back();
        s.regions.back().key = key;
        s.regions.back().runs.resize(runs.size());
      }
      RegionScaling::Point& pt = s.regions[it->second].runs[i];
      pt.present = true;
      pt.instances += regions[k].instances;
      pt.wall_ns += regions[k].wall_ns;
      pt.total_ns += regions[k].total_ns;
      pt.cost += regions[k].cost;
    }
  }
  return s;
}

}  // namespace tasklens::analysis
