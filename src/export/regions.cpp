// RegionTable: region ids and names of tasks, constructs and user regions for the exports.
#include "export/regions.h"

#include <fmt/format.h>

namespace tasklens::exports {

const char* region_kind_name(RegionKind kind) {
  static const char* const k[] = {
      "initial task", "implicit task", "task",       "untied task", "parallel",  "barrier",
      "implicit barrier", "taskwait",  "taskgroup",  "reduction",   "loop",      "sections",
      "single",       "workshare",     "distribute", "taskloop",    "scope",     "masked",
      "critical",     "lock",          "ordered",    "atomic",      "user region"};
  static_assert(std::size(k) == size_t(RegionKind::kCount));
  return size_t(kind) < std::size(k) ? k[size_t(kind)] : "?";
}

bool is_task_kind(RegionKind kind) {
  return kind == RegionKind::kInitialTask || kind == RegionKind::kImplicitTask ||
         kind == RegionKind::kTask || kind == RegionKind::kUntiedTask;
}

RegionTable::RegionTable(const format::Experiment& x, symbols::Symbolizer* symbols)
    : x_(x), symbols_(symbols) {}

uint32_t RegionTable::intern(RegionKind kind, uint64_t key) {
  size_t k = size_t(kind);
  uint32_t* slot = key ? &index_[k][key] : &zero_key_[k];
  if (*slot == 0) {
    regions_.push_back(make(kind, key));
    *slot = uint32_t(regions_.size());
  }
  return *slot;
}

Region RegionTable::make(RegionKind kind, uint64_t key) {
  Region r{kind, key, "", "", "", 0};
  if (kind == RegionKind::kUser) {
    r.name = x_.string(key);
    return r;
  }
  if (kind == RegionKind::kInitialTask) {
    r.name = fmt::format("initial task ({})", x_.program_name());
    return r;
  }
  r.name = region_kind_name(kind);
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
