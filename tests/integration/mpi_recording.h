// The recording the MPI integration tests share (mpi_test.cpp, mpi_export_test.cpp):
// examples/mpi_tasks under `mpirun --oversubscribe -np 2 tasklens run -q -n 2`, made once.
#pragma once

#include <string>
#include <vector>

#include "support/test_paths.h"

namespace tasklens::testing {

inline constexpr int kMpiTasks = 20;
inline constexpr int kMpiDelayMs = 200;  // every rank but 0 sleeps this long before MPI_Barrier

inline const std::vector<std::string> kMpiRootEnv = {"OMPI_ALLOW_RUN_AS_ROOT=1",
                                                     "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"};

struct MpiRecording {
  std::string dir;
  CommandResult run;
};

// Recorded at the first call (mpi_test.cpp).
const MpiRecording& mpi_recording();

// `mpirun --oversubscribe -np 2 tasklens run -q -n 2 -o DIR -- example args` into a new
// scratch directory named after `example`.
MpiRecording record_mpi_example(const std::string& example_name,
                                const std::vector<std::string>& args);

}  // namespace tasklens::testing
