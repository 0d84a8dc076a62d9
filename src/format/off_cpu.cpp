// read_off_cpu: off_cpu.bin paired into preempted intervals per thread.
#include "format/off_cpu.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "format/chunk.h"
#include "format/experiment.h"

namespace tasklens::format {

namespace {

// The file's whole records (a partial last one dropped), ordered by thread, then time, ties in
// file order: a stable sort by (thread, time), done as a stable bucketing by thread (the file
// interleaves the threads, each mostly in time order) and a sort of the buckets out of order.
std::vector<OffCpuRecord> sorted_records(std::ifstream& in) {
  in.seekg(0, std::ios::end);
  auto size = std::streamoff(in.tellg());
  in.seekg(0);
  std::vector<OffCpuRecord> file(size > 0 ? size_t(size) / sizeof(OffCpuRecord) : 0);
  in.read(reinterpret_cast<char*>(file.data()),
          std::streamsize(file.size() * sizeof(OffCpuRecord)));
  file.resize(size_t(in.gcount()) / sizeof(OffCpuRecord));
  auto by_time = [](const OffCpuRecord& a, const OffCpuRecord& b) { return a.time_ns < b.time_ns; };
  uint32_t max_thread = 0;
  for (const OffCpuRecord& r : file) max_thread = std::max(max_thread, r.thread);
  if (max_thread >= (1u << 16)) {  // damage: no bucket per thread
    std::stable_sort(file.begin(), file.end(), [](const OffCpuRecord& a, const OffCpuRecord& b) {
      return a.thread != b.thread ? a.thread < b.thread : a.time_ns < b.time_ns;
    });
    return file;
  }
  std::vector<size_t> start(size_t(max_thread) + 2, 0);
  for (const OffCpuRecord& r : file) ++start[r.thread + 1];
  for (size_t t = 1; t < start.size(); ++t) start[t] += start[t - 1];
  std::vector<OffCpuRecord> sorted(file.size());
  std::vector<size_t> next(start.begin(), start.end() - 1);
  for (const OffCpuRecord& r : file) sorted[next[r.thread]++] = r;
  for (size_t t = 0; t + 1 < start.size(); ++t) {
    auto b = sorted.begin() + long(start[t]), e = sorted.begin() + long(start[t + 1]);
    if (!std::is_sorted(b, e, by_time)) std::stable_sort(b, e, by_time);
  }
  return sorted;
}

// The switch-ins per CPU (the records that carry one), each CPU's in time order.
struct SwitchIns {
  std::vector<std::vector<std::pair<uint64_t, uint32_t>>> by_cpu;  // cpu + 1 -> (time, thread)

  // Did another recorded thread get rec's CPU right as rec's thread was preempted from it?
  bool another_thread_took(const OffCpuRecord& rec) const {
    if (rec.cpu == 0 || rec.cpu >= by_cpu.size()) return false;
    const auto& v = by_cpu[rec.cpu];
    auto it = std::lower_bound(v.begin(), v.end(), std::make_pair(rec.time_ns, uint32_t(0)));
    for (; it != v.end() && it->first - rec.time_ns <= kHandoverNs; ++it) {
      if (it->second != rec.thread) return true;
    }
    return false;
  }
};

SwitchIns switch_ins_by_cpu(const std::vector<OffCpuRecord>& records) {
  SwitchIns s;
  // Counted first: growing the lists by doubling copied them (a tenth of the file's reading).
  std::vector<size_t> count;
  for (const OffCpuRecord& r : records) {
    if (r.cpu == 0 || OffCpuType(r.type) != OffCpuType::kSwitchIn) continue;
    if (count.size() <= r.cpu) count.resize(size_t(r.cpu) + 1);
    ++count[r.cpu];
  }
  s.by_cpu.resize(count.size());
  for (size_t c = 0; c < count.size(); ++c) s.by_cpu[c].reserve(count[c]);
  for (const OffCpuRecord& r : records) {
    if (r.cpu == 0 || OffCpuType(r.type) != OffCpuType::kSwitchIn) continue;
    s.by_cpu[r.cpu].push_back({r.time_ns, r.thread});
  }
  // Each CPU's list is its switch-ins thread by thread (the records are ordered by thread, then
  // time): the threads' runs are merged rather than the whole sorted (equal pairs are equal).
  for (auto& v : s.by_cpu) {
    size_t merged = 0;  // v[0, merged) is in order
    for (size_t i = 1; i <= v.size(); ++i) {
      if (i < v.size() && v[i].second == v[i - 1].second) continue;
      std::inplace_merge(v.begin(), v.begin() + long(merged), v.begin() + long(i));
      merged = i;
    }
    if (!std::is_sorted(v.begin(), v.end())) std::sort(v.begin(), v.end());  // never, but cheap
  }
  return s;
}

}  // namespace

OffCpu read_off_cpu(const Experiment& x) {
  OffCpu o;
  if (const auto& p = x.metadata.preemption) {
    o.source = p->source;
    o.error = p->error;
    o.lost = p->lost;
    o.records = p->records;
    // Opened 20 ms into the run, after a grace period of up to 19 ms in the kernel, the records
    // of a run of 30-50 ms may hold nothing: as unmeasured as a shorter run (any thread that ran
    // has switch records once they are open).
    if (o.source == "perf_switch" && p->records == 0 && p->lost == 0) o.source = "short_run";
    // Profile mode measures no preemption (written as "thread_times" before 2026-11-28).
    if (x.metadata.profile_mode()) o.source = "none";
  }
  for (const Metadata::Thread& t : x.metadata.threads) {
    o.involuntary_switches += t.involuntary_switches.value_or(0);
    o.thread_cpu_ns += t.cpu_ns.value_or(0);
    if (t.run_delay_ns) o.run_delay_ns += *t.run_delay_ns, ++o.run_delay_threads;
  }
  std::ifstream in(std::filesystem::path(x.dir) / kOffCpuFile, std::ios::binary);
  if (!in) return o;
  if (o.source.empty()) o.source = "perf_switch";
  std::vector<OffCpuRecord> records = sorted_records(in);
  // A thread index no recording has would size the per-thread intervals by it (4 G entries for a
  // damaged 0xfffffff0: out of memory): such records are left out and counted.
  auto damaged = std::remove_if(records.begin(), records.end(),
                                [](const OffCpuRecord& r) { return r.thread >= kMaxThreads; });
  o.damaged = uint64_t(records.end() - damaged);
  records.erase(damaged, records.end());
  const SwitchIns ins = switch_ins_by_cpu(records);
  // A preempting switch-out opens an interval, the thread's next switch-in closes it; a lost
  // record drops an open one (its end is unknown).
  uint32_t open_thread = UINT32_MAX;
  uint64_t open_begin = 0;
  bool open_by_program = false;
  for (const OffCpuRecord& rec : records) {
    if (rec.thread != open_thread) open_thread = UINT32_MAX;
    auto type = OffCpuType(rec.type);
    uint64_t t = x.clock.monotonic_to_ns(rec.time_ns);
    if (type == OffCpuType::kSwitchOut) {
      if (rec.flags & off_cpu_flag::kPreempted) {
        open_thread = rec.thread, open_begin = t;
        open_by_program = ins.another_thread_took(rec);
      } else {
        open_thread = UINT32_MAX;
      }
    } else if (type == OffCpuType::kSwitchIn && open_thread == rec.thread) {
      if (t > open_begin) {
        if (o.preempted.size() <= rec.thread) o.preempted.resize(rec.thread + 1);
        o.preempted[rec.thread].push_back({open_begin, t});
        o.preempted_ns += t - open_begin;
        if (open_by_program) o.preempted_by_program_ns += t - open_begin;
      }
      open_thread = UINT32_MAX;
    } else if (type == OffCpuType::kLost) {
      open_thread = UINT32_MAX;
    }
  }
  // The switches in time order: each thread's intervals are in order and disjoint, so the
  // threads' lists are merged, each stably after the lower threads' (a stable sort's order).
  auto by_time = [](const OffCpuSwitch& a, const OffCpuSwitch& b) { return a.time < b.time; };
  size_t ends = 0;
  for (const auto& intervals : o.preempted) ends += 2 * intervals.size();
  o.switches.reserve(ends);
  for (uint32_t t = 0; t < o.preempted.size(); ++t) {
    const size_t mid = o.switches.size();
    for (const OffCpuInterval& iv : o.preempted[t]) {
      o.switches.push_back({iv.begin_ns, t, true});
      o.switches.push_back({iv.end_ns, t, false});
    }
    std::inplace_merge(o.switches.begin(), o.switches.begin() + long(mid), o.switches.end(),
                       by_time);
  }
  return o;
}

const OffCpu& off_cpu(const Experiment& x) {
  if (!x.off_cpu_cache) x.off_cpu_cache = std::make_shared<const OffCpu>(read_off_cpu(x));
  return *x.off_cpu_cache;
}

}  // namespace tasklens::format
