// `tasklens export DIR --to perfetto-json` on an MPI run's directory (docs/MPI.md): every rank
// exported as for one experiment, then one document with a process group per rank.
#pragma once

#include <string>

#include "export/export.h"
#include "format/mpi_run.h"

namespace tasklens::cli {

// Writes `out`; false with a message in `error`. `files` gets what was written.
bool export_mpi_run_perfetto_json(const format::MpiRun& run, const exports::ExportFormat& format,
                                  const std::string& out, const exports::ExportOptions& options,
                                  std::string* error);

}  // namespace tasklens::cli
