// The recorder's side of the PMPI library (src/mpi/, docs/MPI.md): two calls it finds with
// dlsym, which record kMpiCall and kMpiClock events on the calling thread. A thread OpenMP has
// not begun (an MPI progress thread) records nothing.
#include <cstdint>

#include "format/event.h"
#include "format/mpi_ops.h"
#include "recorder/session.h"
#include "recorder/thread_buffer.h"

extern "C" __attribute__((visibility("default"))) void tasklens_mpi_call2(
    uint8_t endpoint, uint16_t op, uint64_t comm, int64_t peer, uint64_t bytes, uint32_t tag) {
  using namespace tasklens;
  if (!recorder::g_session.recording()) return;
  recorder::ThreadBuffer* tb = recorder::this_thread();
  if (!tb) return;
  recorder::record(tb, format::Kind::kMpiCall, endpoint, op, tag, comm, uint64_t(peer), bytes);
}

extern "C" __attribute__((visibility("default"))) void tasklens_mpi_clock(uint16_t which,
                                                                         uint64_t local_ns,
                                                                         uint64_t root_ns) {
  using namespace tasklens;
  if (!recorder::g_session.recording()) return;
  recorder::ThreadBuffer* tb = recorder::this_thread();
  if (!tb) return;
  recorder::record(tb, format::Kind::kMpiClock, 0, which, 0, local_ns, root_ns, 0);
}
