// Where the CLI finds its companions: the recorder library (relative to the tasklens executable,
// in the build tree and after `cmake --install`) and LLVM's libomp (for GCC-built programs).
#pragma once

#include <string>

namespace tasklens::cli {

std::string self_executable();
// libtasklens.so, or "" when not found. TASKLENS_LIBRARY overrides the search.
std::string find_recorder_library();
// libtasklens_mpi.so, the PMPI library (docs/MPI.md), or "" when not built (no MPI found).
std::string find_mpi_library();
// The places find_recorder_library() looks, for error messages.
std::string recorder_search_path();
// libomp.so.5, or "" when not found.
std::string find_libomp();

}  // namespace tasklens::cli
