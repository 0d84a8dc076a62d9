// What `tasklens compare` prints: whether the runs are runs of one program, the scaling table
// (ompP, Fürlinger & Gerndt, Fig. 6 and 7) as text and as JSON. The chart is in scaling_chart.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/scaling.h"
#include "format/experiment.h"
#include "symbols/symbolizer.h"

namespace tasklens::report {

// What a run ran: the program's path and its arguments (without argv[0]).
struct ProgramIdentity {
  std::string path;
  std::vector<std::string> args;

  bool operator==(const ProgramIdentity& o) const { return path == o.path && args == o.args; }
  std::string command() const;  // "/path/prog 20 x"
};

ProgramIdentity program_identity(const format::Experiment& x);

// "" when every run ran the same program with the same arguments; otherwise one line naming
// each run that differs from the first and what each ran.
std::string program_mismatch(const std::vector<std::string>& names,
                             const std::vector<ProgramIdentity>& programs);

// A key for the parallel region at `codeptr` that is the same in every run of the program:
// "file:line" when the symbolizer knows it, else "object+0xoffset" (addresses move between
// runs), else the address.
std::string region_key(const std::vector<format::Metadata::LoadedObject>& objects,
                       uint64_t codeptr, symbols::Symbolizer& symbols);

std::string scaling_text(const analysis::Scaling& s, const ProgramIdentity& program);
nlohmann::json scaling_json(const analysis::Scaling& s, const ProgramIdentity& program);

}  // namespace tasklens::report
