// The OTF2 archive the OTF2 export writes into (otf2_export.cpp; mapping: docs/EXPORTS.md): the
// library's set-up (error, flush and memory callbacks), the event writers by location, and the
// definitions gathered while the events are written and written once when the archive closes.
// One experiment is one location group; an MPI run's ranks (docs/MPI.md) are one group each, in
// one archive, their locations numbered rank after rank.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "export/output.h"
#include "format/result.h"

namespace tasklens::exports {

// A region as OTF2 defines it; regions equal in every field are one definition, whichever
// rank used them.
struct Otf2RegionDef {
  std::string name, canonical, description, file;
  OTF2_RegionRole role = OTF2_REGION_ROLE_UNKNOWN;
  OTF2_Paradigm paradigm = OTF2_PARADIGM_UNKNOWN;
  uint32_t line = 0;
  auto key() const { return std::tie(name, canonical, description, file, role, paradigm, line); }
  bool operator<(const Otf2RegionDef& o) const { return key() < o.key(); }
};

// One process: its threads are locations first_location, first_location + 1, ...
struct Otf2GroupDef {
  std::string name;  // "rank 1: app (pid 42)" or "app (pid 42)"
  std::string host;
  uint64_t first_location = 0;
  std::vector<bool> shown;                // by thread: a location is defined
  std::vector<uint64_t> events;           // by thread
  uint64_t metric_location = UINT64_MAX;  // where its ready-task metric is recorded
  int64_t rank = -1;                      // an MPI run's rank (its index in MPI_COMM_WORLD)
};

class Otf2Archive {
 public:
  explicit Otf2Archive(OutputPath path) : path_(std::move(path)) {}
  ~Otf2Archive();
  Otf2Archive(const Otf2Archive&) = delete;
  Otf2Archive& operator=(const Otf2Archive&) = delete;

  // Replaces an older archive of the same name; errors: the output cannot be written.
  Result<bool> open(const std::string& description, const std::string& machine);

  OTF2_EvtWriter* evt_writer(uint64_t location);
  void close_evt_writer(OTF2_EvtWriter* w);

  uint32_t region(const Otf2RegionDef& r);      // its ref, defined at the first use
  uint32_t parameter(const std::string& name);  // its ref, defined at the first use
  // A perf_event counter (`tasklens run --counters`): its metric ref, defined at the first use.
  OTF2_MetricRef counter(const std::string& name);
  uint32_t add_group(Otf2GroupDef g);  // a new location group; its index
  Otf2GroupDef& group(uint32_t i) { return groups_[i]; }
  uint64_t next_location() const { return next_location_; }
  void reserve_locations(uint64_t n) { next_location_ += n; }
  // The window written, in the archive's time, and the wall-clock time of its start (0: unknown).
  void window(uint64_t from_ns, uint64_t to_ns, uint64_t start_unix_ns);
  void uses_mpi() { mpi_ = true; }
  // MPI messages are written (MpiSend, MpiRecv on mpi_world()): MPI_COMM_WORLD is defined over
  // the groups' ranks 0..ranks-1, each rank by its first location shown. Its ref follows the
  // `ranks` teams' (OTF2 wants definitions in the order of their refs).
  void mpi_messages(uint32_t ranks) { world_ = ranks; }
  OTF2_CommRef mpi_world() const { return world_; }

  // Writes the definitions and closes the archive; errors: what OTF2 said first.
  Result<bool> close();
  void check(OTF2_ErrorCode code);
  const std::string& anchor() const { return anchor_; }

  static constexpr OTF2_MetricRef kReadyMetric = 0;

 private:
  OTF2_StringRef string_ref(const std::string& s);
  void write_definitions();

  OutputPath path_;
  std::string anchor_;
  OTF2_Archive* archive_ = nullptr;
  std::string error_;
  OTF2_GlobalDefWriter* defs_ = nullptr;
  std::map<std::string, OTF2_StringRef> strings_;
  std::map<Otf2RegionDef, uint32_t> region_refs_;
  std::vector<const Otf2RegionDef*> regions_;  // by ref
  std::map<std::string, uint32_t> parameter_refs_;
  std::vector<std::string> parameters_;
  std::vector<std::string> counters_;  // metric ref kReadyMetric + 1 + index
  std::vector<Otf2GroupDef> groups_;
  uint64_t next_location_ = 0;
  uint64_t from_ns_ = UINT64_MAX, to_ns_ = 0, start_unix_ns_ = 0;
  bool mpi_ = false;
  OTF2_CommRef world_ = OTF2_UNDEFINED_COMM;
};

}  // namespace tasklens::exports
