// OTF2 export: the timeline written through the OTF2 library (mapping: docs/EXPORTS.md).
//
// OTF2 export through the OTF2 library (Vampir, Scalasca, the Score-P tool chain read it): one
// location per thread, a region per construct and per task construct, enter/leave nested per
// location (tasks' contexts left and re-entered around suspensions, see timeline.h), the
// ThreadTaskCreate/Switch/Complete records of OTF2 1.2+, fork/join and team records, user
// parameters, and a "ready tasks" metric. Timestamps in ns (timer resolution 1e9).
//
// `out` is the archive: "dir/name.otf2" writes the anchor file there (name.def and name/ beside
// it); any other path is a directory that receives traces.otf2, traces.def and traces/.
#include "export/formats.h"

#include <otf2/otf2.h>

#include <cstdarg>
#include <cstdlib>
#include <filesystem>
#include <unordered_map>

#include "export/output.h"
#include "export/timeline_exporter.h"

namespace tasklens::exports {
namespace fs = std::filesystem;

namespace {

// OTF2 reports errors through a process-wide callback: keep the first message of this export.
std::string* g_otf2_error = nullptr;

OTF2_ErrorCode on_otf2_error(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code,
                             const char* format, va_list args) {
  if (g_otf2_error && g_otf2_error->empty()) {
    char text[512];
    std::vsnprintf(text, sizeof text, format ? format : "", args);
    *g_otf2_error = std::string(OTF2_Error_GetName(code)) + ": " + text;
  }
  return code;
}

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}

// No post-flush callback: OTF2 then writes no BufferFlush records (the export is not timed).
OTF2_FlushCallbacks g_flush_callbacks = {pre_flush, nullptr};

// OTF2 keeps up to 128 MiB of records per writer in memory by default. A small pool per writer
// instead: when it is used up, allocation fails, OTF2 flushes the writer's chunks to its file and
// hands them all back (free_all), and they are reused.
constexpr uint64_t kChunkBytes = uint64_t(1) << 20;
constexpr size_t kChunksPerWriter = 4;

struct ChunkPool {
  std::vector<void*> chunks;
  size_t used = 0;
};

void* pool_allocate(void*, OTF2_FileType, OTF2_LocationRef, void** per_buffer, uint64_t size) {
  auto* pool = static_cast<ChunkPool*>(*per_buffer);
  if (!pool) *per_buffer = pool = new ChunkPool;
  if (pool->used == kChunksPerWriter) return nullptr;  // full: OTF2 flushes, then frees all
  if (pool->used == pool->chunks.size()) pool->chunks.push_back(std::malloc(size));
  return pool->chunks[pool->used++];
}

void pool_free_all(void*, OTF2_FileType, OTF2_LocationRef, void** per_buffer, bool final) {
  auto* pool = static_cast<ChunkPool*>(*per_buffer);
  if (!pool) return;
  pool->used = 0;
  if (!final) return;
  for (void* c : pool->chunks) std::free(c);
  delete pool;
  *per_buffer = nullptr;
}

OTF2_MemoryCallbacks g_memory_callbacks = {pool_allocate, pool_free_all};

OTF2_RegionRole region_role(Construct k) {
  switch (k) {
    case Construct::kInitialTask: return OTF2_REGION_ROLE_FUNCTION;
    case Construct::kImplicitTask: return OTF2_REGION_ROLE_TASK;
    case Construct::kTask: return OTF2_REGION_ROLE_TASK;
    case Construct::kUntiedTask: return OTF2_REGION_ROLE_TASK_UNTIED;
    case Construct::kParallel:
    case Construct::kNestedParallel: return OTF2_REGION_ROLE_PARALLEL;
    case Construct::kBarrier: return OTF2_REGION_ROLE_BARRIER;
    case Construct::kImplicitBarrier: return OTF2_REGION_ROLE_IMPLICIT_BARRIER;
    case Construct::kTaskwait: return OTF2_REGION_ROLE_TASK_WAIT;
    case Construct::kTaskgroup: return OTF2_REGION_ROLE_TASK_WAIT;
    case Construct::kReduction: return OTF2_REGION_ROLE_CODE;
    case Construct::kLoop: return OTF2_REGION_ROLE_LOOP;
    case Construct::kSections: return OTF2_REGION_ROLE_SECTIONS;
    case Construct::kSingle: return OTF2_REGION_ROLE_SINGLE;
    case Construct::kWorkshare: return OTF2_REGION_ROLE_WORKSHARE;
    case Construct::kDistribute: return OTF2_REGION_ROLE_LOOP;
    case Construct::kTaskloop: return OTF2_REGION_ROLE_LOOP;
    case Construct::kScope: return OTF2_REGION_ROLE_CODE;
    case Construct::kMasked: return OTF2_REGION_ROLE_MASTER;
    case Construct::kCritical: return OTF2_REGION_ROLE_CRITICAL;
    case Construct::kLock: return OTF2_REGION_ROLE_CRITICAL;
    case Construct::kOrdered: return OTF2_REGION_ROLE_ORDERED;
    case Construct::kAtomic: return OTF2_REGION_ROLE_ATOMIC;
    case Construct::kUser: return OTF2_REGION_ROLE_CODE;
    case Construct::kCount: break;
  }
  return OTF2_REGION_ROLE_UNKNOWN;
}

constexpr OTF2_CommRef kTeam = 0;
constexpr OTF2_MetricRef kReadyMetric = 0;
// perf_event counter i (`tasklens run --counters`): metric class and member kFirstCounter + i.
constexpr OTF2_MetricRef kFirstCounter = 1;

// A task in OTF2's terms: (creating thread, thread-private generation number). tasklens ids are
// exactly that pair (the recording thread and its counter), so they map one to one.
uint32_t creating_thread(uint64_t id) { return format::id_thread(id); }
uint32_t generation(uint64_t id) { return uint32_t(format::id_counter(id)); }

class Otf2Exporter final : public TimelineExporter {
 public:
  Otf2Exporter(const format::Experiment& x, const ExportOptions& o, symbols::Symbolizer* symbols,
               OutputPath path)
      : TimelineExporter(x, o, symbols), path_(std::move(path)) {}

  ~Otf2Exporter() override {
    if (archive_) OTF2_Archive_Close(archive_);
    if (g_otf2_error == &error_) g_otf2_error = nullptr;
  }

  Result<bool> open();
  Result<ExportSummary> finish(const replay::ReplayStats& stats) override;

 private:
  struct Location {
    OTF2_EvtWriter* writer = nullptr;
    uint64_t events = 0;
    uint32_t teams = 0;  // ThreadTeamBegin without End yet
    uint32_t forks = 0;  // ThreadFork without Join yet
  };

  // TimelineSink
  void begin(const TimelineInfo& info) override;
  void enter(uint32_t th, uint64_t t, uint32_t region, const TimelineTask&) override {
    if (OTF2_EvtWriter* w = writer(th)) check(OTF2_EvtWriter_Enter(w, nullptr, t, region - 1));
  }
  void leave(uint32_t th, uint64_t t, uint32_t region, const TimelineTask&) override {
    if (OTF2_EvtWriter* w = writer(th)) check(OTF2_EvtWriter_Leave(w, nullptr, t, region - 1));
  }
  void task_create(uint32_t th, uint64_t t, TimelineTask& task, const TimelineTask*) override;
  void task_switch(uint32_t th, uint64_t t, TimelineTask* task, const SwitchInfo& how) override;
  void task_end(uint32_t th, uint64_t t, TimelineTask& task) override;
  void ready_tasks(uint64_t t, uint64_t count) override;
  void fork(uint32_t th, uint64_t t, uint32_t requested) override;
  void join(uint32_t th, uint64_t t) override;
  void parameter(uint32_t th, uint64_t t, uint64_t name, int64_t value) override;
  void counter_value(uint32_t th, uint64_t t, uint32_t index, uint64_t value) override {
    if (OTF2_EvtWriter* w = writer(th)) {
      OTF2_Type type = OTF2_TYPE_UINT64;
      OTF2_MetricValue v;
      v.unsigned_int = value;
      check(OTF2_EvtWriter_Metric(w, nullptr, t, kFirstCounter + index, 1, &type, &v));
    }
  }
  void end(uint64_t t) override;

  OTF2_EvtWriter* writer(uint32_t th);
  void check(OTF2_ErrorCode code) {
    if (code != OTF2_SUCCESS && error_.empty()) {
      error_ = std::string(OTF2_Error_GetName(code)) + ": " + OTF2_Error_GetDescription(code);
    }
  }
  OTF2_StringRef string_ref(const std::string& s);
  void write_definitions();

  OutputPath path_;
  OTF2_Archive* archive_ = nullptr;
  std::string error_;
  std::vector<Location> locations_;
  uint64_t from_ns_ = 0, to_ns_ = 0;
  uint32_t metric_location_ = kNoThread;
  replay::IdMap<uint32_t> params_;  // user string id -> parameter ref + 1
  std::vector<uint64_t> param_names_;
  OTF2_GlobalDefWriter* defs_ = nullptr;
  std::unordered_map<std::string, OTF2_StringRef> strings_;
};

Result<bool> Otf2Exporter::open() {
  std::error_code ec;
  fs::create_directories(path_.dir, ec);
  if (ec) return Error{"cannot create " + path_.dir + ": " + ec.message()};
  // OTF2 will not write over an archive: an older export of the same name is replaced, but a
  // directory in the way that is not an OTF2 event directory is left alone.
  std::string anchor = path_.join(".otf2");
  fs::path events_dir = path_.join("");
  if (fs::exists(events_dir, ec)) {
    for (const auto& e : fs::directory_iterator(events_dir, ec)) {
      std::string ext = e.path().extension().string();
      if (ext != ".evt" && ext != ".def") {
        return Error{"cannot write the OTF2 archive: " + events_dir.string() +
                     " exists and is not an OTF2 event directory"};
      }
    }
    fs::remove_all(events_dir, ec);
  }
  fs::remove(anchor, ec);
  fs::remove(path_.join(".def"), ec);
  // Writable at all? OTF2's own message for this is cryptic.
  std::string probe = path_.join(".tasklens-probe");
  FILE* f = std::fopen(probe.c_str(), "w");
  if (!f) return Error{"cannot write in " + path_.dir + ": " + std::strerror(errno)};
  std::fclose(f);
  fs::remove(probe, ec);

  g_otf2_error = &error_;
  OTF2_Error_RegisterCallback(on_otf2_error, nullptr);
  archive_ = OTF2_Archive_Open(path_.dir.c_str(), path_.stem.c_str(), OTF2_FILEMODE_WRITE,
                               kChunkBytes, uint64_t(4) << 20, OTF2_SUBSTRATE_POSIX,
                               OTF2_COMPRESSION_NONE);
  if (!archive_) {
    return Error{"cannot create the OTF2 archive " + anchor +
                 (error_.empty() ? std::string() : ": " + error_)};
  }
  check(OTF2_Archive_SetFlushCallbacks(archive_, &g_flush_callbacks, nullptr));
  check(OTF2_Archive_SetMemoryCallbacks(archive_, &g_memory_callbacks, nullptr));
  check(OTF2_Archive_SetSerialCollectiveCallbacks(archive_));
  check(OTF2_Archive_SetCreator(archive_, "tasklens " TASKLENS_VERSION));
  std::string description = "tasklens export of " + x_.dir;
  check(OTF2_Archive_SetDescription(archive_, description.c_str()));
  std::string host = x_.metadata.host.empty() ? std::string("localhost") : x_.metadata.host;
  check(OTF2_Archive_SetMachineName(archive_, host.c_str()));
  check(OTF2_Archive_OpenEvtFiles(archive_));
  if (!error_.empty()) return Error{"cannot create the OTF2 archive " + anchor + ": " + error_};
  return true;
}

void Otf2Exporter::begin(const TimelineInfo& info) {
  locations_.assign(info.threads, Location{});
  from_ns_ = info.from_ns;
  to_ns_ = info.to_ns;
  for (uint32_t th = 0; th < info.threads; ++th) {
    if (filter_.thread(th)) {
      metric_location_ = th;
      break;
    }
  }
}

OTF2_EvtWriter* Otf2Exporter::writer(uint32_t th) {
  Location& l = locations_[th];
  if (!l.writer) {
    l.writer = OTF2_Archive_GetEvtWriter(archive_, th);
    if (!l.writer) {
      check(OTF2_ERROR_MEM_ALLOC_FAILED);
      return nullptr;
    }
  }
  ++l.events;
  return l.writer;
}

void Otf2Exporter::task_create(uint32_t th, uint64_t t, TimelineTask& task, const TimelineTask*) {
  if (OTF2_EvtWriter* w = writer(th)) {
    check(OTF2_EvtWriter_ThreadTaskCreate(w, nullptr, t, kTeam, creating_thread(task.id),
                                          generation(task.id)));
  }
}

void Otf2Exporter::task_switch(uint32_t th, uint64_t t, TimelineTask* task,
                               const SwitchInfo& how) {
  if (!task) return;
  if (how.first && (task->flags & format::task_flag::kImplicit)) {
    // An implicit task starting: this thread joins the team of its parallel region.
    if (OTF2_EvtWriter* w = writer(th)) {
      check(OTF2_EvtWriter_ThreadTeamBegin(w, nullptr, t, kTeam));
      ++locations_[th].teams;
      task->slot = 1;  // the team was begun: end it with the task
    }
  }
  if (OTF2_EvtWriter* w = writer(th)) {
    check(OTF2_EvtWriter_ThreadTaskSwitch(w, nullptr, t, kTeam, creating_thread(task->id),
                                          generation(task->id)));
  }
}

void Otf2Exporter::task_end(uint32_t th, uint64_t t, TimelineTask& task) {
  if (task.is_implicit()) {
    if (task.slot == 1 && locations_[th].teams > 0) {
      if (OTF2_EvtWriter* w = writer(th)) {
        check(OTF2_EvtWriter_ThreadTeamEnd(w, nullptr, t, kTeam));
        --locations_[th].teams;
      }
    }
    return;
  }
  if (OTF2_EvtWriter* w = writer(th)) {
    check(OTF2_EvtWriter_ThreadTaskComplete(w, nullptr, t, kTeam, creating_thread(task.id),
                                            generation(task.id)));
  }
}

void Otf2Exporter::ready_tasks(uint64_t t, uint64_t count) {
  if (metric_location_ == kNoThread) return;
  if (OTF2_EvtWriter* w = writer(metric_location_)) {
    OTF2_Type type = OTF2_TYPE_UINT64;
    OTF2_MetricValue value;
    value.unsigned_int = count;
    check(OTF2_EvtWriter_Metric(w, nullptr, t, kReadyMetric, 1, &type, &value));
  }
}

void Otf2Exporter::fork(uint32_t th, uint64_t t, uint32_t requested) {
  if (OTF2_EvtWriter* w = writer(th)) {
    check(OTF2_EvtWriter_ThreadFork(w, nullptr, t, OTF2_PARADIGM_OPENMP, requested));
    ++locations_[th].forks;
  }
}

void Otf2Exporter::join(uint32_t th, uint64_t t) {
  if (locations_[th].forks == 0) return;  // forked before the window
  if (OTF2_EvtWriter* w = writer(th)) {
    check(OTF2_EvtWriter_ThreadJoin(w, nullptr, t, OTF2_PARADIGM_OPENMP));
    --locations_[th].forks;
  }
}

void Otf2Exporter::parameter(uint32_t th, uint64_t t, uint64_t name, int64_t value) {
  uint32_t& ref = params_[name ? name : ~uint64_t(0)];
  if (ref == 0) {
    param_names_.push_back(name);
    ref = uint32_t(param_names_.size());
  }
  if (OTF2_EvtWriter* w = writer(th)) {
    check(OTF2_EvtWriter_ParameterInt(w, nullptr, t, ref - 1, value));
  }
}

void Otf2Exporter::end(uint64_t t) {
  // Teams and forks still open at the end of the window are closed there.
  for (uint32_t th = 0; th < locations_.size(); ++th) {
    Location& l = locations_[th];
    while (l.teams > 0) {
      if (OTF2_EvtWriter* w = writer(th)) check(OTF2_EvtWriter_ThreadTeamEnd(w, nullptr, t, kTeam));
      --l.teams;
    }
    while (l.forks > 0) {
      if (OTF2_EvtWriter* w = writer(th)) {
        check(OTF2_EvtWriter_ThreadJoin(w, nullptr, t, OTF2_PARADIGM_OPENMP));
      }
      --l.forks;
    }
  }
}

OTF2_StringRef Otf2Exporter::string_ref(const std::string& s) {
  auto it = strings_.find(s);
  if (it != strings_.end()) return it->second;
  OTF2_StringRef ref = OTF2_StringRef(strings_.size());
  strings_.emplace(s, ref);
  check(OTF2_GlobalDefWriter_WriteString(defs_, ref, s.c_str()));
  return ref;
}

void Otf2Exporter::write_definitions() {
  defs_ = OTF2_Archive_GetGlobalDefWriter(archive_);
  if (!defs_) {
    check(OTF2_ERROR_MEM_ALLOC_FAILED);
    return;
  }
  uint64_t start_unix = x_.metadata.start_unix_ns;
  check(OTF2_GlobalDefWriter_WriteClockProperties(
      defs_, 1000000000, from_ns_, to_ns_ - from_ns_ + 1,
      start_unix ? start_unix + from_ns_ : OTF2_UNDEFINED_TIMESTAMP));
  check(OTF2_GlobalDefWriter_WriteParadigm(defs_, OTF2_PARADIGM_OPENMP, string_ref("OpenMP"),
                                           OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN));

  // The machine, the process and its threads.
  std::string host = x_.metadata.host.empty() ? std::string("localhost") : x_.metadata.host;
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(defs_, 0, string_ref(host), string_ref("node"),
                                                 OTF2_UNDEFINED_SYSTEM_TREE_NODE));
  std::string process = x_.program_name() + " (pid " +
                        std::to_string(x_.metadata.program.pid) + ")";
  check(OTF2_GlobalDefWriter_WriteLocationGroup(defs_, 0, string_ref(process),
                                                OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                OTF2_UNDEFINED_LOCATION_GROUP));
  std::vector<uint64_t> members;
  for (uint32_t th = 0; th < locations_.size(); ++th) {
    if (!filter_.thread(th)) continue;
    members.push_back(th);
    check(OTF2_GlobalDefWriter_WriteLocation(defs_, th, string_ref("thread " + std::to_string(th)),
                                             OTF2_LOCATION_TYPE_CPU_THREAD, locations_[th].events,
                                             0));
  }

  // The team: one communicator over every thread shown.
  std::vector<uint64_t> ranks(members.size());
  for (size_t i = 0; i < ranks.size(); ++i) ranks[i] = i;
  check(OTF2_GlobalDefWriter_WriteGroup(defs_, 0, string_ref("OpenMP threads"),
                                        OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_OPENMP,
                                        OTF2_GROUP_FLAG_NONE, uint32_t(members.size()),
                                        members.data()));
  check(OTF2_GlobalDefWriter_WriteGroup(defs_, 1, string_ref("OpenMP team"),
                                        OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_OPENMP,
                                        OTF2_GROUP_FLAG_NONE, uint32_t(ranks.size()),
                                        ranks.data()));
  check(OTF2_GlobalDefWriter_WriteComm(defs_, kTeam, string_ref("OpenMP team"), 1,
                                       OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));

  // Regions.
  for (uint32_t id = 1; id <= regions_.size(); ++id) {
    const Region& r = regions_.at(id);
    OTF2_StringRef name = string_ref(r.name);
    OTF2_StringRef canonical = r.function.empty() ? name : string_ref(r.function);
    OTF2_StringRef file = r.file.empty() ? OTF2_UNDEFINED_STRING : string_ref(r.file);
    OTF2_Paradigm paradigm =
        r.kind == Construct::kUser ? OTF2_PARADIGM_USER : OTF2_PARADIGM_OPENMP;
    check(OTF2_GlobalDefWriter_WriteRegion(defs_, id - 1, name, canonical,
                                           string_ref(construct_name(r.kind)),
                                           region_role(r.kind), paradigm, OTF2_REGION_FLAG_NONE,
                                           file, r.line, r.line));
  }

  // The ready-task count, recorded on the first location shown.
  OTF2_MetricMemberRef member = 0;
  check(OTF2_GlobalDefWriter_WriteMetricMember(
      defs_, member, string_ref("ready tasks"),
      string_ref("tasks created, ready to run and not running (POT's ready state)"),
      OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ABSOLUTE_POINT, OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0,
      string_ref("tasks")));
  check(OTF2_GlobalDefWriter_WriteMetricClass(defs_, kReadyMetric, 1, &member,
                                              OTF2_METRIC_ASYNCHRONOUS,
                                              OTF2_RECORDER_KIND_ABSTRACT));
  if (metric_location_ != kNoThread) {
    check(OTF2_GlobalDefWriter_WriteMetricClassRecorder(defs_, kReadyMetric, metric_location_));
  }

  // perf_event counters: one metric class of one member each, the thread's running total
  // (accumulated since the recorder opened the counter) at every task switch.
  const std::vector<std::string>& counters = x_.metadata.counters;
  for (uint32_t i = 0; i < counters.size() && i < format::kMaxCounters; ++i) {
    OTF2_MetricMemberRef m = kFirstCounter + i;
    bool ns = counters[i] == "task-clock";
    check(OTF2_GlobalDefWriter_WriteMetricMember(
        defs_, m, string_ref(counters[i]),
        string_ref("perf_event counter " + counters[i] + ", read at every task switch"),
        OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_UINT64,
        OTF2_BASE_DECIMAL, ns ? -9 : 0, string_ref(ns ? "s" : "events")));
    check(OTF2_GlobalDefWriter_WriteMetricClass(defs_, kFirstCounter + i, 1, &m,
                                                OTF2_METRIC_ASYNCHRONOUS,
                                                OTF2_RECORDER_KIND_CPU));
  }

  // User parameters (tasklens_param_int).
  for (size_t i = 0; i < param_names_.size(); ++i) {
    check(OTF2_GlobalDefWriter_WriteParameter(defs_, OTF2_ParameterRef(i),
                                              string_ref(x_.string(param_names_[i])),
                                              OTF2_PARAMETER_TYPE_INT64));
  }
  check(OTF2_Archive_CloseGlobalDefWriter(archive_, defs_));
  defs_ = nullptr;
}

Result<ExportSummary> Otf2Exporter::finish(const replay::ReplayStats& stats) {
  ExportSummary s;
  s.unit = "events";
  for (uint32_t th = 0; th < locations_.size(); ++th) {
    Location& l = locations_[th];
    s.records_out += l.events;
    if (!l.writer && filter_.thread(th)) {
      // A location without events still needs its (empty) event file for the readers.
      l.writer = OTF2_Archive_GetEvtWriter(archive_, th);
    }
    if (l.writer) check(OTF2_Archive_CloseEvtWriter(archive_, l.writer));
    l.writer = nullptr;
  }
  check(OTF2_Archive_CloseEvtFiles(archive_));
  // Local definitions: none beyond the global ones, but readers expect the files.
  check(OTF2_Archive_OpenDefFiles(archive_));
  for (uint32_t th = 0; th < locations_.size(); ++th) {
    if (!filter_.thread(th)) continue;
    if (OTF2_DefWriter* d = OTF2_Archive_GetDefWriter(archive_, th)) {
      check(OTF2_Archive_CloseDefWriter(archive_, d));
    }
  }
  check(OTF2_Archive_CloseDefFiles(archive_));
  write_definitions();
  check(OTF2_Archive_Close(archive_));
  archive_ = nullptr;
  if (!error_.empty()) return Error{"writing the OTF2 archive " + path_.join(".otf2") + ": " + error_};
  s.files.push_back(path_.join(".otf2"));
  s.events_in = stats.events;
  add_timeline_notes(s);
  return s;
}

Result<std::unique_ptr<Exporter>> make_otf2_exporter(const format::Experiment& x,
                                                     const std::string& out,
                                                     const ExportOptions& o,
                                                     symbols::Symbolizer* symbols) {
  OutputPath path = split_output(out, ".otf2");
  if (fs::path(out).extension() != ".otf2") path = OutputPath{out, "traces"};
  return open_exporter<Otf2Exporter>(x, o, symbols, path);
}

}  // namespace

extern const ExportFormat kOtf2Format;
const ExportFormat kOtf2Format = {
    "otf2", {}, {".otf2"}, false,
    "an OTF2 archive directory, or dir/name.otf2",
    "OTF2 for Vampir and the Score-P tools",
    25,  // measured 18-22
    make_otf2_exporter};

}  // namespace tasklens::exports
