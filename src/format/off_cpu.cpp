// read_off_cpu: off_cpu.bin paired into preempted intervals per thread.
#include "format/off_cpu.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "format/experiment.h"

namespace tasklens::format {

OffCpu read_off_cpu(const Experiment& x) {
  OffCpu o;
  if (const auto& p = x.metadata.preemption) {
    o.source = p->source;
    o.error = p->error;
    o.lost = p->lost;
  }
  for (const Metadata::Thread& t : x.metadata.threads) {
    o.involuntary_switches += t.involuntary_switches.value_or(0);
    o.thread_cpu_ns += t.cpu_ns.value_or(0);
  }
  std::ifstream in(std::filesystem::path(x.dir) / kOffCpuFile, std::ios::binary);
  if (!in) return o;
  if (o.source.empty()) o.source = "perf_switch";
  std::vector<OffCpuRecord> records;
  OffCpuRecord r;
  while (in.read(reinterpret_cast<char*>(&r), sizeof r)) records.push_back(r);
  std::stable_sort(records.begin(), records.end(), [](const OffCpuRecord& a, const OffCpuRecord& b) {
    return a.thread != b.thread ? a.thread < b.thread : a.time_ns < b.time_ns;
  });
  // A preempting switch-out opens an interval, the thread's next switch-in closes it; a lost
  // record drops an open one (its end is unknown).
  uint32_t open_thread = UINT32_MAX;
  uint64_t open_begin = 0;
  for (const OffCpuRecord& rec : records) {
    if (rec.thread != open_thread) open_thread = UINT32_MAX;
    auto type = OffCpuType(rec.type);
    uint64_t t = x.clock.monotonic_to_ns(rec.time_ns);
    if (type == OffCpuType::kSwitchOut) {
      if (rec.flags & off_cpu_flag::kPreempted) open_thread = rec.thread, open_begin = t;
      else open_thread = UINT32_MAX;
    } else if (type == OffCpuType::kSwitchIn && open_thread == rec.thread) {
      if (t > open_begin) {
        if (o.preempted.size() <= rec.thread) o.preempted.resize(rec.thread + 1);
        o.preempted[rec.thread].push_back({open_begin, t});
        o.preempted_ns += t - open_begin;
      }
      open_thread = UINT32_MAX;
    } else if (type == OffCpuType::kLost) {
      open_thread = UINT32_MAX;
    }
  }
  return o;
}

}  // namespace tasklens::format
