// Otf2Archive: the OTF2 library set up for one export, its writers, and the definitions.
#include "export/otf2_archive.h"

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

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

constexpr OTF2_GroupRef kLocationsGroup = 0;  // every location shown (OpenMP's)

}  // namespace

Otf2Archive::~Otf2Archive() {
  if (archive_) OTF2_Archive_Close(archive_);
  if (g_otf2_error == &error_) g_otf2_error = nullptr;
}

void Otf2Archive::check(OTF2_ErrorCode code) {
  if (code != OTF2_SUCCESS && error_.empty()) {
    error_ = std::string(OTF2_Error_GetName(code)) + ": " + OTF2_Error_GetDescription(code);
  }
}

Result<bool> Otf2Archive::open(const std::string& description, const std::string& machine) {
  anchor_ = path_.join(".otf2");
  std::error_code ec;
  fs::create_directories(path_.dir, ec);
  if (ec) return Error{"cannot create " + path_.dir + ": " + ec.message()};
  // OTF2 will not write over an archive: an older export of the same name is replaced, but a
  // directory in the way that is not an OTF2 event directory is left alone.
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
  fs::remove(anchor_, ec);
  fs::remove(path_.join(".def"), ec);
  // Writable at all? OTF2's own message for this is cryptic.
  std::string probe = path_.join(".tasklens-probe");
  FILE* f = std::fopen(probe.c_str(), "w");
  if (!f) return Error{"cannot write in " + path_.dir + ": " + std::strerror(errno)};
  std::fclose(f);
  fs::remove(probe, ec);

  g_otf2_error = &error_;
  OTF2_Error_RegisterCallback(on_otf2_error, nullptr);
  archive_ =
      OTF2_Archive_Open(path_.dir.c_str(), path_.stem.c_str(), OTF2_FILEMODE_WRITE, kChunkBytes,
                        uint64_t(4) << 20, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!archive_) {
    return Error{"cannot create the OTF2 archive " + anchor_ +
                 (error_.empty() ? std::string() : ": " + error_)};
  }
  check(OTF2_Archive_SetFlushCallbacks(archive_, &g_flush_callbacks, nullptr));
  check(OTF2_Archive_SetMemoryCallbacks(archive_, &g_memory_callbacks, nullptr));
  check(OTF2_Archive_SetSerialCollectiveCallbacks(archive_));
  check(OTF2_Archive_SetCreator(archive_, "tasklens " TASKLENS_VERSION));
  check(OTF2_Archive_SetDescription(archive_, description.c_str()));
  check(OTF2_Archive_SetMachineName(archive_, machine.c_str()));
  check(OTF2_Archive_OpenEvtFiles(archive_));
  if (!error_.empty()) return Error{"cannot create the OTF2 archive " + anchor_ + ": " + error_};
  return true;
}

OTF2_EvtWriter* Otf2Archive::evt_writer(uint64_t location) {
  OTF2_EvtWriter* w = archive_ ? OTF2_Archive_GetEvtWriter(archive_, location) : nullptr;
  if (!w) check(OTF2_ERROR_MEM_ALLOC_FAILED);
  return w;
}

void Otf2Archive::close_evt_writer(OTF2_EvtWriter* w) {
  if (w && archive_) check(OTF2_Archive_CloseEvtWriter(archive_, w));
}

uint32_t Otf2Archive::region(const Otf2RegionDef& r) {
  auto [it, added] = region_refs_.emplace(r, uint32_t(regions_.size()));
  if (added) regions_.push_back(&it->first);
  return it->second;
}

uint32_t Otf2Archive::parameter(const std::string& name) {
  auto [it, added] = parameter_refs_.emplace(name, uint32_t(parameters_.size()));
  if (added) parameters_.push_back(name);
  return it->second;
}

OTF2_MetricRef Otf2Archive::counter(const std::string& name) {
  for (uint32_t i = 0; i < counters_.size(); ++i) {
    if (counters_[i] == name) return kReadyMetric + 1 + i;
  }
  counters_.push_back(name);
  return OTF2_MetricRef(kReadyMetric + counters_.size());
}

uint32_t Otf2Archive::add_group(Otf2GroupDef g) {
  g.first_location = next_location_;
  next_location_ += g.shown.size();
  groups_.push_back(std::move(g));
  return uint32_t(groups_.size() - 1);
}

void Otf2Archive::window(uint64_t from_ns, uint64_t to_ns, uint64_t start_unix_ns) {
  if (from_ns < from_ns_) {
    from_ns_ = from_ns;
    start_unix_ns_ = start_unix_ns;
  }
  to_ns_ = std::max(to_ns_, to_ns);
}

OTF2_StringRef Otf2Archive::string_ref(const std::string& s) {
  auto it = strings_.find(s);
  if (it != strings_.end()) return it->second;
  OTF2_StringRef ref = OTF2_StringRef(strings_.size());
  strings_.emplace(s, ref);
  check(OTF2_GlobalDefWriter_WriteString(defs_, ref, s.c_str()));
  return ref;
}

void Otf2Archive::write_definitions() {
  defs_ = OTF2_Archive_GetGlobalDefWriter(archive_);
  if (!defs_) {
    check(OTF2_ERROR_MEM_ALLOC_FAILED);
    return;
  }
  if (from_ns_ > to_ns_) from_ns_ = to_ns_ = 0;
  check(OTF2_GlobalDefWriter_WriteClockProperties(
      defs_, 1000000000, from_ns_, to_ns_ - from_ns_ + 1,
      start_unix_ns_ ? start_unix_ns_ : OTF2_UNDEFINED_TIMESTAMP));
  check(OTF2_GlobalDefWriter_WriteParadigm(defs_, OTF2_PARADIGM_OPENMP, string_ref("OpenMP"),
                                           OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN));
  if (mpi_) {
    check(OTF2_GlobalDefWriter_WriteParadigm(defs_, OTF2_PARADIGM_MPI, string_ref("MPI"),
                                             OTF2_PARADIGM_CLASS_PROCESS));
  }

  // The machines, the processes (a rank each) and their threads.
  std::map<std::string, OTF2_SystemTreeNodeRef> nodes;
  for (const Otf2GroupDef& g : groups_) {
    if (nodes.count(g.host)) continue;
    OTF2_SystemTreeNodeRef ref = OTF2_SystemTreeNodeRef(nodes.size());
    nodes.emplace(g.host, ref);
    check(OTF2_GlobalDefWriter_WriteSystemTreeNode(
        defs_, ref, string_ref(g.host), string_ref("node"), OTF2_UNDEFINED_SYSTEM_TREE_NODE));
  }
  std::vector<uint64_t> members;  // every location shown
  for (uint32_t gi = 0; gi < groups_.size(); ++gi) {
    const Otf2GroupDef& g = groups_[gi];
    check(OTF2_GlobalDefWriter_WriteLocationGroup(defs_, gi, string_ref(g.name),
                                                  OTF2_LOCATION_GROUP_TYPE_PROCESS, nodes[g.host],
                                                  OTF2_UNDEFINED_LOCATION_GROUP));
    for (uint32_t th = 0; th < g.shown.size(); ++th) {
      if (!g.shown[th]) continue;
      uint64_t loc = g.first_location + th;
      members.push_back(loc);
      check(OTF2_GlobalDefWriter_WriteLocation(defs_, loc,
                                               string_ref("thread " + std::to_string(th)),
                                               OTF2_LOCATION_TYPE_CPU_THREAD, g.events[th], gi));
    }
  }

  // A team per process: one communicator over its threads shown (members of group 0).
  check(OTF2_GlobalDefWriter_WriteGroup(
      defs_, kLocationsGroup, string_ref("OpenMP threads"), OTF2_GROUP_TYPE_COMM_LOCATIONS,
      OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE, uint32_t(members.size()), members.data()));
  uint64_t index = 0;
  for (uint32_t gi = 0; gi < groups_.size(); ++gi) {
    const Otf2GroupDef& g = groups_[gi];
    std::vector<uint64_t> ranks;
    for (uint32_t th = 0; th < g.shown.size(); ++th) {
      if (g.shown[th]) ranks.push_back(index++);
    }
    std::string name = groups_.size() == 1 ? std::string("OpenMP team") : g.name + ": OpenMP team";
    check(OTF2_GlobalDefWriter_WriteGroup(
        defs_, 1 + gi, string_ref(name), OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_OPENMP,
        OTF2_GROUP_FLAG_NONE, uint32_t(ranks.size()), ranks.data()));
    check(OTF2_GlobalDefWriter_WriteComm(defs_, gi, string_ref(name), 1 + gi, OTF2_UNDEFINED_COMM,
                                         OTF2_COMM_FLAG_NONE));
  }

  // MPI_COMM_WORLD over the ranks, rank r being the first location shown of group `rank` r.
  if (world_ != OTF2_UNDEFINED_COMM && world_ == groups_.size()) {
    std::vector<uint64_t> rank_locations, ranks;
    for (int64_t r = 0;; ++r) {
      auto g = std::find_if(groups_.begin(), groups_.end(),
                            [&](const Otf2GroupDef& d) { return d.rank == r; });
      if (g == groups_.end()) break;
      auto shown = std::find(g->shown.begin(), g->shown.end(), true);
      rank_locations.push_back(g->first_location + uint64_t(shown - g->shown.begin()));
      ranks.push_back(uint64_t(r));
    }
    const OTF2_GroupRef locations = 1 + uint32_t(groups_.size()), world = locations + 1;
    check(OTF2_GlobalDefWriter_WriteGroup(
        defs_, locations, string_ref("MPI ranks"), OTF2_GROUP_TYPE_COMM_LOCATIONS,
        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, uint32_t(rank_locations.size()),
        rank_locations.data()));
    check(OTF2_GlobalDefWriter_WriteGroup(defs_, world, string_ref("MPI_COMM_WORLD"),
                                          OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                          OTF2_GROUP_FLAG_NONE, uint32_t(ranks.size()),
                                          ranks.data()));
    check(OTF2_GlobalDefWriter_WriteComm(defs_, world_, string_ref("MPI_COMM_WORLD"), world,
                                         OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
  }

  for (uint32_t ref = 0; ref < regions_.size(); ++ref) {
    const Otf2RegionDef& r = *regions_[ref];
    OTF2_StringRef name = string_ref(r.name);
    OTF2_StringRef canonical = r.canonical.empty() ? name : string_ref(r.canonical);
    OTF2_StringRef file = r.file.empty() ? OTF2_UNDEFINED_STRING : string_ref(r.file);
    check(OTF2_GlobalDefWriter_WriteRegion(defs_, ref, name, canonical, string_ref(r.description),
                                           r.role, r.paradigm, OTF2_REGION_FLAG_NONE, file, r.line,
                                           r.line));
  }

  // The ready-task count, recorded on the first location shown of each process.
  OTF2_MetricMemberRef member = 0;
  check(OTF2_GlobalDefWriter_WriteMetricMember(
      defs_, member, string_ref("ready tasks"),
      string_ref("tasks created, ready to run and not running (POT's ready state)"),
      OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ABSOLUTE_POINT, OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0,
      string_ref("tasks")));
  check(OTF2_GlobalDefWriter_WriteMetricClass(
      defs_, kReadyMetric, 1, &member, OTF2_METRIC_ASYNCHRONOUS, OTF2_RECORDER_KIND_ABSTRACT));
  for (const Otf2GroupDef& g : groups_) {
    if (g.metric_location != UINT64_MAX) {
      check(OTF2_GlobalDefWriter_WriteMetricClassRecorder(defs_, kReadyMetric, g.metric_location));
    }
  }

  // perf_event counters: one metric class of one member each, the thread's running total
  // (accumulated since the recorder opened the counter) at every task switch.
  for (uint32_t i = 0; i < counters_.size(); ++i) {
    OTF2_MetricMemberRef m = kReadyMetric + 1 + i;
    bool ns = counters_[i] == "task-clock";
    check(OTF2_GlobalDefWriter_WriteMetricMember(
        defs_, m, string_ref(counters_[i]),
        string_ref("perf_event counter " + counters_[i] + ", read at every task switch"),
        OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL,
        ns ? -9 : 0, string_ref(ns ? "s" : "events")));
    check(OTF2_GlobalDefWriter_WriteMetricClass(defs_, m, 1, &m, OTF2_METRIC_ASYNCHRONOUS,
                                                OTF2_RECORDER_KIND_CPU));
  }

  // User parameters (tasklens_param_int).
  for (size_t i = 0; i < parameters_.size(); ++i) {
    check(OTF2_GlobalDefWriter_WriteParameter(
        defs_, OTF2_ParameterRef(i), string_ref(parameters_[i]), OTF2_PARAMETER_TYPE_INT64));
  }
  check(OTF2_Archive_CloseGlobalDefWriter(archive_, defs_));
  defs_ = nullptr;
}

Result<bool> Otf2Archive::close() {
  if (!archive_) return Error{"the OTF2 archive " + anchor_ + " is not open"};
  check(OTF2_Archive_CloseEvtFiles(archive_));
  // Local definitions: none beyond the global ones, but readers expect the files.
  check(OTF2_Archive_OpenDefFiles(archive_));
  for (const Otf2GroupDef& g : groups_) {
    for (uint32_t th = 0; th < g.shown.size(); ++th) {
      if (!g.shown[th]) continue;
      if (OTF2_DefWriter* d = OTF2_Archive_GetDefWriter(archive_, g.first_location + th)) {
        check(OTF2_Archive_CloseDefWriter(archive_, d));
      }
    }
  }
  check(OTF2_Archive_CloseDefFiles(archive_));
  write_definitions();
  check(OTF2_Archive_Close(archive_));
  archive_ = nullptr;
  if (!error_.empty()) return Error{"writing the OTF2 archive " + anchor_ + ": " + error_};
  return true;
}

}  // namespace tasklens::exports
