// Where the CLI finds its companions: the recorder library (relative to the tasklens executable,
// in the build tree and after `cmake --install`) and LLVM's libomp (for GCC-built programs).
#pragma once

#include <string>

namespace tasklens::cli {

// The tasklens command's path: the launcher's (bin/tasklens) in the full CLI too, which takes
// it from TASKLENS_LAUNCHER (take_launcher_path), else this executable's.
std::string self_executable();
// In the full CLI, first thing: keeps TASKLENS_LAUNCHER, set by the launcher that started it,
// for self_executable() and removes it from the environment the programs it runs inherit.
void take_launcher_path();
// The full CLI (CLI11, every command), which bin/tasklens hands all but plain `run` command
// lines to: <bin>/../libexec/tasklens/tasklens-cli, in the build tree as when installed.
std::string full_cli_path();
// libtasklens.so, or "" when not found. TASKLENS_LIBRARY overrides the search.
std::string find_recorder_library();
// libtasklens_mpi.so, the PMPI library (docs/MPI.md), or "" when not built (no MPI found).
std::string find_mpi_library();
// The places find_recorder_library() looks, for error messages.
std::string recorder_search_path();
// libomp.so.5, or "" when not found.
std::string find_libomp();

}  // namespace tasklens::cli
