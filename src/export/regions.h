// The regions the timeline exports show (OTF2 regions, Paraver construct values, Perfetto slice
// names): the tasks themselves, one region per task construct (its source location), the OpenMP
// constructs per kind and source location, and the user regions of the C API by name.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "format/constructs.h"
#include "format/experiment.h"
#include "replay/id_map.h"
#include "replay/symbolizer.h"

namespace tasklens::exports {

// Region kinds are the constructs of format/constructs.h (kUser: keyed by the user-API string id,
// kImplicitTask: by the parallel construct it belongs to); their names are the first word of
// region names.
using format::Construct;
using format::construct_name;
using format::is_task;

struct Region {
  Construct kind;
  uint64_t key;          // code address (0: unknown), or the user string id
  std::string name;      // "task fib.c:39", "taskwait fib.c:43", "user region name"
  std::string function;  // the function holding the construct, when known
  std::string file;      // its source file, when known
  uint32_t line = 0;
};

// Regions by (kind, key), numbered from 1 in order of first use. Names come from the symbolizer
// (code addresses) or the experiment's strings (user regions).
class RegionTable {
 public:
  RegionTable(const format::Experiment& x, replay::Symbolizer* symbols);

  uint32_t intern(Construct kind, uint64_t key);
  const Region& at(uint32_t id) const { return regions_[id - 1]; }
  // Ids are 1..size().
  uint32_t size() const { return uint32_t(regions_.size()); }

 private:
  Region make(Construct kind, uint64_t key);

  const format::Experiment& x_;
  replay::Symbolizer* symbols_;
  std::vector<Region> regions_;
  std::array<replay::IdMap<uint32_t>, size_t(Construct::kCount)> index_;
  std::array<uint32_t, size_t(Construct::kCount)> zero_key_{};  // the key-0 region of each kind
};

}  // namespace tasklens::exports
