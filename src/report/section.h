// A report section: one analysis pass and how its result reads as text and as JSON. The
// `tasklens report` command runs the passes of the sections asked for in one replay, then
// renders them in order. New sections register in sections.cpp.
#pragma once

#include <fmt/format.h>

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/profile_file.h"
#include "format/experiment.h"
#include "format/text.h"
#include "replay/pass.h"
#include "replay/replay.h"
#include "symbols/symbolizer.h"

namespace tasklens::report {

struct ReportOptions {
  uint32_t slices = 50;                   // time series resolution
  int depth = -1;                         // call tree depth limit (-1: all)
  std::vector<uint32_t> what_if_threads;  // --what-if-threads (empty: the default counts)
  std::vector<uint32_t> what_if_cutoffs;  // --what-if-cutoffs: depths simulated besides the search
  std::vector<std::string> what_if_also;  // --what-if-also: further recordings of the program
  // The mpi section lists the rank's collective calls (`collectives`), for the MPI run's report
  // to match them across ranks (mpi_waits.h); that report takes the list out again.
  bool mpi_collectives = false;
};

struct ReportContext {
  const format::Experiment& experiment;
  symbols::Symbolizer& symbols;
  const ReportOptions& options;
  const replay::ReplayStats& stats;
};

// The `codeptrs` key of a task construct: every code address of its copies (unrolled loop,
// inlined function) the run created tasks at, ascending; nothing for other addresses.
inline void add_codeptrs(nlohmann::json& j, uint64_t codeptr, const symbols::Symbolizer& symbols) {
  const std::vector<uint64_t>& copies = symbols.codeptrs(codeptr);
  if (copies.empty()) return;
  nlohmann::json& list = j["codeptrs"] = nlohmann::json::array();
  for (uint64_t c : copies) list.push_back(format::address_text(c));
}

// The `codeptr` (hex) and `location` (short symbolized form) keys of a code address, and
// `codeptrs` for a task construct.
inline void add_code_fields(nlohmann::json& j, uint64_t codeptr, symbols::Symbolizer& symbols) {
  j["codeptr"] = format::address_text(codeptr);
  j["location"] = symbols.short_name(codeptr);
  add_codeptrs(j, codeptr, symbols);
}

class Section {
 public:
  virtual ~Section() = default;
  // The pass to run during the replay (owned by the section).
  virtual replay::Pass& pass() = 0;
  virtual void text(const ReportContext& ctx, std::string& out) = 0;
  virtual nlohmann::json json(const ReportContext& ctx) = 0;
  // Top-level keys of the JSON document besides the section's own (the profile section adds
  // "tasks"); none by default.
  virtual void extra_json(const ReportContext& ctx, nlohmann::json& doc) {}
  // A profile-mode experiment (no trace): the section takes its result from `data` instead of
  // its pass and returns true, or returns false when it needs a trace (the default).
  virtual bool use_profile_mode(const analysis::ProfileModeData& data) { return false; }
  // Before the replay, with every section of the report (this one too): a section that needs
  // another's analysis takes that section's pass rather than running a copy of it.
  virtual void share_passes(const std::vector<std::unique_ptr<Section>>& sections) {}
};

struct SectionInfo {
  std::string name;  // the JSON key, e.g. "breakdown"
  std::string flag;  // the report flag that asks for it, e.g. "--profile" ("" = always)
  std::string help;
  bool default_on;  // shown when no section flag is given
  std::function<std::unique_ptr<Section>(const ReportOptions&)> make;
  // Its pass shares nothing with another section's and costs as much as the rest of a report:
  // `tasklens report` may run it in a replay of its own on a second thread (parallel_replay.h).
  bool own_replay = false;
};

// Every section tasklens knows, in report order.
const std::vector<SectionInfo>& all_sections();

}  // namespace tasklens::report
