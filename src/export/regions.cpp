// RegionTable: region ids and names of tasks, constructs and user regions for the exports.
#include "export/regions.h"

#include <fmt/format.h>

#include <algorithm>

#include "format/mpi_ops.h"

namespace tasklens::exports {

RegionTable::RegionTable(const format::Experiment& x, symbols::Symbolizer* symbols)
    : x_(x), symbols_(symbols) {}

uint32_t RegionTable::intern(Construct kind, uint64_t key) {
  size_t k = size_t(kind);
  uint32_t* slot = key ? &index_[k][key] : &zero_key_[k];
  if (*slot == 0) {
    regions_.push_back(make(kind, key));
    *slot = uint32_t(regions_.size());
  }
  return *slot;
}

Region RegionTable::make(Construct kind, uint64_t key) {
  Region r{kind, key, "", "", "", 0};
  if (kind == Construct::kUser) {
    r.name = x_.string(key);
    return r;
  }
  if (kind == Construct::kMpi) {
    r.name = "MPI_" + std::string(format::mpi_op_name(uint16_t(std::min<uint64_t>(key, 0xffff))));
    r.function = r.name;
    return r;
  }
  if (kind == Construct::kInitialTask) {
    r.name = fmt::format("initial task ({})", x_.program_name());
    return r;
  }
  r.name = construct_name(kind);
  if (key == 0) return r;
  if (symbols_) {
    const symbols::Location& loc = symbols_->resolve(key);
    r.function = loc.function;
    r.file = loc.file;
    r.line = uint32_t(loc.line);
    r.name += " " + symbols_->short_name(key);
  } else {
    r.name += fmt::format(" {:#x}", key);
  }
  return r;
}

}  // namespace tasklens::exports
