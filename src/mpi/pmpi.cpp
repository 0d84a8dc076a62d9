// libtasklens_mpi.so: the PMPI interposition library `tasklens run` preloads into a program that
// links MPI (docs/MPI.md). Each wrapped call records a kMpiCall begin before PMPI_<call> and an
// end after it, with the communicator, the peer and the bytes, through the recorder's
// tasklens_mpi_call (found with dlsym once libomp has loaded the recorder; calls before that are
// not recorded). MPI_Init and MPI_Finalize also align the clocks: after a barrier every rank
// reads its clock and rank 0's reading is broadcast (kMpiClock); the error is how far apart the
// ranks leave the barrier. libc, libstdc++ and MPI only; never prints, never throws.
#include <dlfcn.h>
#include <mpi.h>
#include <time.h>

#include <atomic>
#include <cstdint>

#include "format/event.h"
#include "format/mpi_ops.h"

namespace {

using tasklens::format::Endpoint;
using tasklens::format::kMpiNoPeer;
using tasklens::format::MpiOp;

std::atomic<tasklens::format::MpiCallFn> g_call{nullptr};
std::atomic<tasklens::format::MpiClockFn> g_clock{nullptr};

// The Init sample, kept until the recorder is there to take it.
struct ClockSample {
  uint64_t local_ns = 0, root_ns = 0;
  std::atomic<bool> pending{false};
};
ClockSample g_init_sample;

uint64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

// The recorder's entry points, once libomp has loaded it.
bool find_recorder() {
  if (g_call.load(std::memory_order_acquire)) return true;
  void* lib = dlopen("libtasklens.so", RTLD_LAZY | RTLD_NOLOAD);
  if (!lib) return false;
  auto call = reinterpret_cast<tasklens::format::MpiCallFn>(
      dlsym(lib, tasklens::format::kMpiCallSymbol));
  auto clock = reinterpret_cast<tasklens::format::MpiClockFn>(
      dlsym(lib, tasklens::format::kMpiClockSymbol));
  dlclose(lib);  // drops the reference RTLD_NOLOAD took; the runtime keeps it loaded
  if (!call || !clock) return false;
  g_clock.store(clock, std::memory_order_release);
  g_call.store(call, std::memory_order_release);
  return true;
}

void emit(Endpoint ep, MpiOp op, MPI_Comm comm, int64_t peer, uint64_t bytes, int tag = -1) {
  if (!find_recorder()) return;
  if (g_init_sample.pending.exchange(false)) {
    g_clock.load()(0, g_init_sample.local_ns, g_init_sample.root_ns);
  }
  uint64_t c = comm == MPI_COMM_NULL ? 0 : uint64_t(uint32_t(MPI_Comm_c2f(comm)));
  g_call.load()(uint8_t(ep), uint16_t(op), c, peer, bytes, tasklens::format::mpi_tag_field(tag));
}

uint64_t bytes_of(int count, MPI_Datatype type) {
  int size = 0;
  if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS) {
    return 0;
  }
  return uint64_t(count) * uint64_t(size);
}

int comm_size(MPI_Comm comm) {
  int n = 0;
  PMPI_Comm_size(comm, &n);
  return n;
}

// The clock sample of Init (which 0) or Finalize (1): rank 0's clock at the same instant, as
// near as a barrier makes it.
void sample_clock(int which) {
  PMPI_Barrier(MPI_COMM_WORLD);
  uint64_t local = monotonic_ns();
  uint64_t root = local;
  PMPI_Bcast(&root, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (which == 0) {
    g_init_sample.local_ns = local;
    g_init_sample.root_ns = root;
    g_init_sample.pending.store(true);
  } else if (find_recorder()) {
    if (g_init_sample.pending.exchange(false)) {
      g_clock.load()(0, g_init_sample.local_ns, g_init_sample.root_ns);
    }
    g_clock.load()(1, local, root);
  }
}

// Starts OpenMP (and so the recorder) before MPI_Init when the program has OpenMP: its Init
// and clock sample are then recorded.
void start_openmp() {
  using Fn = int (*)();
  if (auto f = reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"))) f();
}

// Begin/end around one call.
struct Scope {
  MpiOp op;
  MPI_Comm comm;
  int64_t peer;
  uint64_t bytes;
  int tag;
  Scope(MpiOp o, MPI_Comm c, int64_t p, uint64_t b, int t = -1)
      : op(o), comm(c), peer(p), bytes(b), tag(t) {
    emit(Endpoint::kBegin, op, comm, peer, bytes, tag);
  }
  ~Scope() { emit(Endpoint::kEnd, op, comm, peer, bytes, tag); }
};

// Init's end names MPI_COMM_WORLD (its handle: the communicator messages are matched on).
void init_end(int rc) {
  emit(Endpoint::kEnd, MpiOp::kInit, rc == MPI_SUCCESS ? MPI_COMM_WORLD : MPI_COMM_NULL,
       kMpiNoPeer, 0);
}

}  // namespace

#define TASKLENS_MPI_EXPORT extern "C" __attribute__((visibility("default")))

TASKLENS_MPI_EXPORT int MPI_Init(int* argc, char*** argv) {
  start_openmp();
  emit(Endpoint::kBegin, MpiOp::kInit, MPI_COMM_NULL, kMpiNoPeer, 0);
  int rc = PMPI_Init(argc, argv);
  init_end(rc);
  if (rc == MPI_SUCCESS) sample_clock(0);
  return rc;
}

TASKLENS_MPI_EXPORT int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  start_openmp();
  emit(Endpoint::kBegin, MpiOp::kInit, MPI_COMM_NULL, kMpiNoPeer, 0);
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  init_end(rc);
  if (rc == MPI_SUCCESS) sample_clock(0);
  return rc;
}

TASKLENS_MPI_EXPORT int MPI_Finalize() {
  sample_clock(1);
  Scope s(MpiOp::kFinalize, MPI_COMM_NULL, kMpiNoPeer, 0);
  return PMPI_Finalize();
}

// Point to point.
TASKLENS_MPI_EXPORT int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                                 MPI_Comm comm) {
  Scope s(MpiOp::kSend, comm, dest, bytes_of(count, type), tag);
  return PMPI_Send(buf, count, type, dest, tag, comm);
}

TASKLENS_MPI_EXPORT int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                                  MPI_Comm comm) {
  Scope s(MpiOp::kSsend, comm, dest, bytes_of(count, type), tag);
  return PMPI_Ssend(buf, count, type, dest, tag, comm);
}

TASKLENS_MPI_EXPORT int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag,
                                 MPI_Comm comm, MPI_Status* status) {
  // The end carries the sender and the bytes received.
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE) status = &own;
  emit(Endpoint::kBegin, MpiOp::kRecv, comm, source, bytes_of(count, type), tag);
  int rc = PMPI_Recv(buf, count, type, source, tag, comm, status);
  int got = 0;
  if (rc == MPI_SUCCESS) PMPI_Get_count(status, type, &got);
  emit(Endpoint::kEnd, MpiOp::kRecv, comm, rc == MPI_SUCCESS ? status->MPI_SOURCE : source,
       bytes_of(got, type), rc == MPI_SUCCESS ? status->MPI_TAG : tag);
  return rc;
}

TASKLENS_MPI_EXPORT int MPI_Sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dest,
                                     int stag, void* rbuf, int rcount, MPI_Datatype rtype,
                                     int source, int rtag, MPI_Comm comm, MPI_Status* status) {
  Scope s(MpiOp::kSendrecv, comm, dest, bytes_of(scount, stype) + bytes_of(rcount, rtype), stag);
  return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm,
                       status);
}

TASKLENS_MPI_EXPORT int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  Scope s(MpiOp::kProbe, comm, source, 0, tag);
  return PMPI_Probe(source, tag, comm, status);
}

// Completion of nonblocking calls: Wait* always, Test* when they completed something.
TASKLENS_MPI_EXPORT int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  Scope s(MpiOp::kWait, MPI_COMM_NULL, kMpiNoPeer, 0);
  return PMPI_Wait(request, status);
}

TASKLENS_MPI_EXPORT int MPI_Waitall(int n, MPI_Request requests[], MPI_Status statuses[]) {
  Scope s(MpiOp::kWaitall, MPI_COMM_NULL, kMpiNoPeer, 0);
  return PMPI_Waitall(n, requests, statuses);
}

TASKLENS_MPI_EXPORT int MPI_Waitany(int n, MPI_Request requests[], int* index,
                                    MPI_Status* status) {
  Scope s(MpiOp::kWaitany, MPI_COMM_NULL, kMpiNoPeer, 0);
  return PMPI_Waitany(n, requests, index, status);
}

TASKLENS_MPI_EXPORT int MPI_Waitsome(int n, MPI_Request requests[], int* outcount, int indices[],
                                     MPI_Status statuses[]) {
  Scope s(MpiOp::kWaitsome, MPI_COMM_NULL, kMpiNoPeer, 0);
  return PMPI_Waitsome(n, requests, outcount, indices, statuses);
}

TASKLENS_MPI_EXPORT int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  int rc = PMPI_Test(request, flag, status);
  if (rc == MPI_SUCCESS && *flag) {
    emit(Endpoint::kBegin, MpiOp::kTest, MPI_COMM_NULL, kMpiNoPeer, 0);
    emit(Endpoint::kEnd, MpiOp::kTest, MPI_COMM_NULL, kMpiNoPeer, 0);
  }
  return rc;
}

TASKLENS_MPI_EXPORT int MPI_Testall(int n, MPI_Request requests[], int* flag,
                                    MPI_Status statuses[]) {
  int rc = PMPI_Testall(n, requests, flag, statuses);
  if (rc == MPI_SUCCESS && *flag) {
    emit(Endpoint::kBegin, MpiOp::kTestall, MPI_COMM_NULL, kMpiNoPeer, 0);
    emit(Endpoint::kEnd, MpiOp::kTestall, MPI_COMM_NULL, kMpiNoPeer, 0);
  }
  return rc;
}

// Collectives: the peer is the root of rooted ones, else none; the bytes this rank contributes.
TASKLENS_MPI_EXPORT int MPI_Barrier(MPI_Comm comm) {
  Scope s(MpiOp::kBarrier, comm, kMpiNoPeer, 0);
  return PMPI_Barrier(comm);
}

TASKLENS_MPI_EXPORT int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root,
                                  MPI_Comm comm) {
  Scope s(MpiOp::kBcast, comm, root, bytes_of(count, type));
  return PMPI_Bcast(buf, count, type, root, comm);
}

TASKLENS_MPI_EXPORT int MPI_Reduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type,
                                   MPI_Op op, int root, MPI_Comm comm) {
  Scope s(MpiOp::kReduce, comm, root, bytes_of(count, type));
  return PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
}

TASKLENS_MPI_EXPORT int MPI_Allreduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type,
                                      MPI_Op op, MPI_Comm comm) {
  Scope s(MpiOp::kAllreduce, comm, kMpiNoPeer, bytes_of(count, type));
  return PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
}

TASKLENS_MPI_EXPORT int MPI_Scan(const void* sbuf, void* rbuf, int count, MPI_Datatype type,
                                 MPI_Op op, MPI_Comm comm) {
  Scope s(MpiOp::kScan, comm, kMpiNoPeer, bytes_of(count, type));
  return PMPI_Scan(sbuf, rbuf, count, type, op, comm);
}

TASKLENS_MPI_EXPORT int MPI_Reduce_scatter(const void* sbuf, void* rbuf, const int rcounts[],
                                           MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  uint64_t total = 0;
  for (int i = 0, n = comm_size(comm); i < n; ++i) total += bytes_of(rcounts[i], type);
  Scope s(MpiOp::kReduceScatter, comm, kMpiNoPeer, total);
  return PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm);
}

TASKLENS_MPI_EXPORT int MPI_Alltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf,
                                     int rcount, MPI_Datatype rtype, MPI_Comm comm) {
  Scope s(MpiOp::kAlltoall, comm, kMpiNoPeer, bytes_of(scount, stype) * uint64_t(comm_size(comm)));
  return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

TASKLENS_MPI_EXPORT int MPI_Alltoallv(const void* sbuf, const int scounts[], const int sdispls[],
                                      MPI_Datatype stype, void* rbuf, const int rcounts[],
                                      const int rdispls[], MPI_Datatype rtype, MPI_Comm comm) {
  uint64_t total = 0;
  for (int i = 0, n = comm_size(comm); i < n; ++i) total += bytes_of(scounts[i], stype);
  Scope s(MpiOp::kAlltoallv, comm, kMpiNoPeer, total);
  return PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm);
}

TASKLENS_MPI_EXPORT int MPI_Gather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf,
                                   int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  Scope s(MpiOp::kGather, comm, root, bytes_of(scount, stype));
  return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

TASKLENS_MPI_EXPORT int MPI_Gatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf,
                                    const int rcounts[], const int displs[], MPI_Datatype rtype,
                                    int root, MPI_Comm comm) {
  Scope s(MpiOp::kGatherv, comm, root, bytes_of(scount, stype));
  return PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm);
}

TASKLENS_MPI_EXPORT int MPI_Scatter(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf,
                                    int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  Scope s(MpiOp::kScatter, comm, root, bytes_of(rcount, rtype));
  return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

TASKLENS_MPI_EXPORT int MPI_Scatterv(const void* sbuf, const int scounts[], const int displs[],
                                     MPI_Datatype stype, void* rbuf, int rcount,
                                     MPI_Datatype rtype, int root, MPI_Comm comm) {
  Scope s(MpiOp::kScatterv, comm, root, bytes_of(rcount, rtype));
  return PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm);
}

TASKLENS_MPI_EXPORT int MPI_Allgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf,
                                      int rcount, MPI_Datatype rtype, MPI_Comm comm) {
  Scope s(MpiOp::kAllgather, comm, kMpiNoPeer, bytes_of(scount, stype));
  return PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

TASKLENS_MPI_EXPORT int MPI_Allgatherv(const void* sbuf, int scount, MPI_Datatype stype,
                                       void* rbuf, const int rcounts[], const int displs[],
                                       MPI_Datatype rtype, MPI_Comm comm) {
  Scope s(MpiOp::kAllgatherv, comm, kMpiNoPeer, bytes_of(scount, stype));
  return PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
}
