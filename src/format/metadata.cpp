// Metadata <-> experiment.json: the one place that reads and writes its members by name.
#include "format/metadata.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "format/event.h"
#include "format/json_in.h"
#include "format/metadata_keys.h"

namespace tasklens::format {

using nlohmann::json;

uint64_t Metadata::count(const char* kind) const {
  if (!counts) return 0;
  auto it = counts->find(kind);
  return it == counts->end() ? 0 : it->second;
}

std::string Metadata::program_name() const {
  return program.path.empty() ? std::string("?")
                              : std::filesystem::path(program.path).filename().string();
}

uint64_t hex_address(const json& v) {
  return v.is_string() ? std::strtoull(v.get<std::string>().c_str(), nullptr, 16) : 0;
}

namespace {

std::string hex_text(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

// Members read leniently: another type reads as absent (the default).
using lenient::array;
using lenient::member;
using lenient::object;
using lenient::read;
void read(const json& j, const char* k, Metadata::ClockSample* out) {
  const json& s = object(j, k);
  read(s, key::kTicks, &out->ticks);
  read(s, key::kNs, &out->ns);
}

json sample_json(const Metadata::ClockSample& s) {
  return {{key::kTicks, s.ticks}, {key::kNs, s.ns}};
}

}  // namespace

Metadata metadata_from_json(const json& j) {
  Metadata m;
  read(j, key::kFormat, &m.format);
  read(j, key::kFormatVersion, &m.format_version);
  const json& tool = object(j, key::kTool);
  read(tool, key::kName, &m.tool.name);
  read(tool, key::kVersion, &m.tool.version);
  read(tool, key::kLibrary, &m.tool.library);
  read(j, key::kStatus, &m.status);
  read(j, key::kMode, &m.mode);
  read(j, key::kEndReason, &m.end_reason);

  const json& program = object(j, key::kProgram);
  read(program, key::kPid, &m.program.pid);
  read(program, key::kPath, &m.program.path);
  for (const json& a : array(program, key::kArgs)) {
    m.program.args.push_back(a.is_string() ? a.get<std::string>() : a.dump());
  }
  if (const json* p = member(j, key::kParent); p && p->is_object()) {
    Metadata::Parent parent;
    read(*p, key::kPpid, &parent.ppid);
    read(*p, key::kTopPid, &parent.top_pid);
    read(*p, key::kExperiment, &parent.experiment);
    m.parent = parent;
  }
  for (const json& p : array(j, key::kProcesses)) {
    Metadata::ChildProcess c;
    read(p, key::kPid, &c.pid);
    read(p, key::kDir, &c.dir);
    m.processes.push_back(c);
  }
  read(j, key::kHost, &m.host);
  read(j, key::kStartUnixNs, &m.start_unix_ns);
  const json& process = object(j, key::kProcess);
  read(process, key::kStartNs, &m.process.start_ns);
  read(process, key::kStartSource, &m.process.start_source);
  const json& machine = object(j, key::kMachine);
  read(machine, key::kAffinityCpus, &m.machine.affinity_cpus);
  read(machine, key::kOnlineCpus, &m.machine.online_cpus);
  if (const json* p = member(j, key::kPreemption); p && p->is_object()) {
    Metadata::Preemption pre;
    read(*p, key::kSource, &pre.source);
    read(*p, key::kError, &pre.error);
    read(*p, key::kPerfEventParanoid, &pre.perf_event_paranoid);
    read(*p, key::kRecords, &pre.records);
    read(*p, key::kLost, &pre.lost);
    m.preemption = pre;
  }

  const json& runtime = object(j, key::kRuntime);
  read(runtime, key::kVersion, &m.runtime.version);
  const json& code = array(runtime, key::kCode);
  if (code.size() == 2) m.runtime.code = {{hex_address(code[0]), hex_address(code[1])}};
  for (const auto& [name, result] : object(runtime, key::kCallbacks).items()) {
    m.runtime.callbacks[name] = result.is_string() ? result.get<std::string>() : result.dump();
  }

  const json& clock = object(j, key::kClock);
  read(clock, key::kSource, &m.clock.source);
  read(clock, key::kInvariantTsc, &m.clock.invariant_tsc);
  read(clock, key::kStart, &m.clock.start);
  read(clock, key::kEnd, &m.clock.end);
  read(clock, key::kEndIsFinal, &m.clock.end_is_final);

  for (const json& t : array(j, key::kThreads)) {
    Metadata::Thread th;
    read(t, key::kIndex, &th.index);
    read(t, key::kOsTid, &th.os_tid);
    read(t, key::kEvents, &th.events);
    read(t, key::kChunks, &th.chunks);
    read(t, key::kBytes, &th.bytes);
    read(t, key::kLost, &th.lost);
    read(t, key::kCpuNs, &th.cpu_ns);
    read(t, key::kInvoluntarySwitches, &th.involuntary_switches);
    read(t, key::kRunDelayNs, &th.run_delay_ns);
    m.threads.push_back(th);
  }

  const json& rec = object(j, key::kRecorder);
  Metadata::Recorder& r = m.recorder;
  read(rec, key::kBufferBytes, &r.buffer_bytes);
  read(rec, key::kChunkBytes, &r.chunk_bytes);
  read(rec, key::kChunkEvents, &r.chunk_events);
  read(rec, key::kPeakChunksInUse, &r.peak_chunks_in_use);
  read(rec, key::kOverflow, &r.overflow);
  read(rec, key::kEventsWritten, &r.events_written);
  read(rec, key::kEventsLost, &r.events_lost);
  read(rec, key::kThreadsRefused, &r.threads_refused);
  read(rec, key::kStallTicks, &r.stall_ticks);
  read(rec, key::kTimesClamped, &r.times_clamped);
  read(rec, key::kWriterCpuNs, &r.writer_cpu_ns);
  read(rec, key::kRunDelayBeforeNs, &r.run_delay_before_ns);
  read(rec, key::kWriteError, &r.write_error);
  read(rec, key::kDiskFull, &r.disk_full);

  read(j, key::kExplicitTasks, &m.explicit_tasks);
  if (const json* c = member(j, key::kCounts); c && c->is_object()) {
    m.counts.emplace();
    for (const auto& [kind, n] : c->items()) {
      if (n.is_number_unsigned()) (*m.counts)[kind] = n.get<uint64_t>();
    }
  }
  if (const json* p = member(j, key::kMpi); p && p->is_object()) {
    Metadata::Mpi mpi;
    read(*p, key::kRank, &mpi.rank);
    read(*p, key::kSize, &mpi.size);
    m.mpi = mpi;
  }
  for (const json& o : array(j, key::kObjects)) {
    // An object without a path or a base cannot place an address.
    const json* path = member(o, key::kPath);
    if (!path || !path->is_string() || !member(o, key::kBase)) continue;
    m.objects.push_back({path->get<std::string>(), hex_address(o[key::kBase])});
  }
  for (const json& s : array(j, key::kCounterNames)) {
    if (m.counters.size() < kMaxCounters) {
      m.counters.push_back(s.is_string() ? s.get<std::string>() : "?");
    }
  }
  for (const json& s : array(j, key::kStrings)) {
    m.strings.push_back(s.is_string() ? s.get<std::string>() : "?");
  }
  return m;
}

json metadata_to_json(const Metadata& m) {
  json j = json::object();
  j[key::kFormat] = m.format;
  j[key::kFormatVersion] = m.format_version;
  j[key::kTool] = {{key::kName, m.tool.name}, {key::kVersion, m.tool.version}};
  if (!m.tool.library.empty()) j[key::kTool][key::kLibrary] = m.tool.library;
  j[key::kStatus] = m.status;
  if (!m.mode.empty()) j[key::kMode] = m.mode;
  if (!m.end_reason.empty()) j[key::kEndReason] = m.end_reason;
  j[key::kProgram] = {
      {key::kPid, m.program.pid}, {key::kArgs, m.program.args}, {key::kPath, m.program.path}};
  if (m.parent) {
    j[key::kParent] = {{key::kPpid, m.parent->ppid},
                       {key::kTopPid, m.parent->top_pid},
                       {key::kExperiment, m.parent->experiment}};
  }
  if (!m.processes.empty()) {
    json& list = j[key::kProcesses] = json::array();
    for (const auto& p : m.processes) list.push_back({{key::kPid, p.pid}, {key::kDir, p.dir}});
  }
  j[key::kHost] = m.host;
  j[key::kStartUnixNs] = m.start_unix_ns;
  if (m.process.start_ns || !m.process.start_source.empty()) {
    j[key::kProcess] = {{key::kStartNs, m.process.start_ns},
                        {key::kStartSource, m.process.start_source}};
  }
  if (m.machine.affinity_cpus || m.machine.online_cpus) {
    j[key::kMachine] = {{key::kAffinityCpus, m.machine.affinity_cpus},
                        {key::kOnlineCpus, m.machine.online_cpus}};
  }
  if (m.preemption) {
    j[key::kPreemption] = {{key::kSource, m.preemption->source},
                           {key::kRecords, m.preemption->records},
                           {key::kLost, m.preemption->lost}};
    if (!m.preemption->error.empty()) j[key::kPreemption][key::kError] = m.preemption->error;
    if (m.preemption->perf_event_paranoid) {
      j[key::kPreemption][key::kPerfEventParanoid] = m.preemption->perf_event_paranoid;
    }
  }
  json& runtime = j[key::kRuntime] = {{key::kVersion, m.runtime.version},
                                      {key::kCallbacks, m.runtime.callbacks}};
  if (m.runtime.code) {
    runtime[key::kCode] = {hex_text(m.runtime.code->first), hex_text(m.runtime.code->second)};
  }
  j[key::kClock] = {{key::kSource, m.clock.source},
                    {key::kInvariantTsc, m.clock.invariant_tsc},
                    {key::kStart, sample_json(m.clock.start)},
                    {key::kEnd, sample_json(m.clock.end)},
                    {key::kEndIsFinal, m.clock.end_is_final}};
  json& threads = j[key::kThreads] = json::array();
  for (const auto& t : m.threads) {
    json tj = {{key::kIndex, t.index}, {key::kOsTid, t.os_tid}, {key::kEvents, t.events},
               {key::kChunks, t.chunks}, {key::kLost, t.lost}};
    if (t.bytes) tj[key::kBytes] = t.bytes;
    if (t.cpu_ns) tj[key::kCpuNs] = *t.cpu_ns;
    if (t.involuntary_switches) tj[key::kInvoluntarySwitches] = *t.involuntary_switches;
    if (t.run_delay_ns) tj[key::kRunDelayNs] = *t.run_delay_ns;
    threads.push_back(std::move(tj));
  }
  const Metadata::Recorder& r = m.recorder;
  json& rec = j[key::kRecorder] = {{key::kEventsWritten, r.events_written},
                                   {key::kEventsLost, r.events_lost},
                                   {key::kOverflow, r.overflow}};
  // The recorder's own accounting: written when set (the test writer leaves it out).
  const std::pair<const char*, uint64_t> optional_counts[] = {
      {key::kBufferBytes, r.buffer_bytes},     {key::kChunkBytes, r.chunk_bytes},
      {key::kChunkEvents, r.chunk_events},     {key::kPeakChunksInUse, r.peak_chunks_in_use},
      {key::kThreadsRefused, r.threads_refused}, {key::kStallTicks, r.stall_ticks},
      {key::kTimesClamped, r.times_clamped},   {key::kWriterCpuNs, r.writer_cpu_ns}};
  for (const auto& [k, v] : optional_counts) {
    if (v) rec[k] = v;
  }
  if (r.run_delay_before_ns) rec[key::kRunDelayBeforeNs] = *r.run_delay_before_ns;
  if (!r.write_error.empty()) rec[key::kWriteError] = r.write_error;
  if (r.disk_full) rec[key::kDiskFull] = true;
  if (m.explicit_tasks) j[key::kExplicitTasks] = *m.explicit_tasks;
  if (m.counts) j[key::kCounts] = *m.counts;
  if (m.mpi) j[key::kMpi] = {{key::kRank, m.mpi->rank}, {key::kSize, m.mpi->size}};
  json& objects = j[key::kObjects] = json::array();
  for (const auto& o : m.objects) {
    objects.push_back({{key::kPath, o.path}, {key::kBase, hex_text(o.base)}});
  }
  j[key::kStrings] = m.strings;
  if (!m.counters.empty()) j[key::kCounterNames] = m.counters;
  return j;
}

}  // namespace tasklens::format
