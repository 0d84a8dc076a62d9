// The report of an MPI run's directory (docs/MPI.md, docs/REPORT.md "MPI runs"): every rank's
// own report (its JSON document, made as for a single experiment with the mpi section on), then
// per rank the breakdown with MPI as its own category, the sums over ranks, and the load balance
// across ranks.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "format/mpi_run.h"

namespace tasklens::report {

// `rank_docs[i]` is the report document of `run.ranks[i]` (with "breakdown" and "mpi").
nlohmann::json mpi_run_json(const format::MpiRun& run, const std::vector<nlohmann::json>& rank_docs);
// The text of that document: the ranks' table, the sums and the load balance.
std::string mpi_run_text(const nlohmann::json& doc);

}  // namespace tasklens::report
