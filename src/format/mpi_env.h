// Which MPI rank this process is, from the environment its launcher set (docs/MPI.md): Open MPI's
// OMPI_COMM_WORLD_RANK/SIZE, PMIx's PMIX_RANK, the PMI of MPICH and others (PMI_RANK/PMI_SIZE).
// One home for `tasklens run` (which names the rank's folder) and the recorder (which writes
// experiment.json's "mpi"): plain getenv, no allocation.
#pragma once

#include <cstdlib>

namespace tasklens::format {

struct MpiPlace {
  long rank = -1;  // -1: not started by an MPI launcher
  long size = 0;   // 0: unknown
  bool is_rank() const { return rank >= 0; }
};

namespace detail {
inline long env_number(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return -1;
  char* end = nullptr;
  long n = std::strtol(v, &end, 10);
  return *end == 0 && n >= 0 ? n : -1;
}
}  // namespace detail

inline MpiPlace mpi_place_from_env() {
  MpiPlace p;
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}) {
    if ((p.rank = detail::env_number(name)) >= 0) break;
  }
  if (p.rank < 0) return p;
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    long s = detail::env_number(name);
    if (s > 0) {
      p.size = s;
      break;
    }
  }
  return p;
}

// The launcher's name for this job, the same in every rank (PMIX_NAMESPACE, Open MPI's
// OMPI_MCA_ess_base_jobid); "" when it gives none or one that is not a plain name.
inline const char* mpi_job_id() {
  for (const char* name : {"PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid"}) {
    const char* v = std::getenv(name);
    if (!v || !*v) continue;
    bool plain = true;
    for (const char* c = v; *c; ++c) plain &= *c != '/' && *c != '.' ;
    if (plain) return v;
  }
  return "";
}

}  // namespace tasklens::format
