// The MPI calls the PMPI library records (docs/MPI.md), by stable number: the `op` of kMpiCall
// events (kinds.h). Append only; never renumber. Header only, plain constants: the PMPI library
// and the recorder include it without linking anything.
#pragma once

#include <cstdint>
#include <iterator>
#include <string_view>

namespace tasklens::format {

enum class MpiOp : uint16_t {
  kUnknown = 0,
  kInit = 1,
  kFinalize = 2,
  kSend = 3,
  kRecv = 4,
  kSendrecv = 5,
  kWait = 6,
  kWaitall = 7,
  kWaitany = 8,
  kTest = 9,
  kBarrier = 10,
  kBcast = 11,
  kReduce = 12,
  kAllreduce = 13,
  kAlltoall = 14,
  kGather = 15,
  kScatter = 16,
  kAllgather = 17,
  kSsend = 18,
  kProbe = 19,
  kAlltoallv = 20,
  kGatherv = 21,
  kScatterv = 22,
  kAllgatherv = 23,
  kReduceScatter = 24,
  kScan = 25,
  kWaitsome = 26,
  kTestall = 27,
  kCount
};

inline constexpr std::string_view kMpiOpNames[] = {
    "?",         "Init",       "Finalize",  "Send",      "Recv",     "Sendrecv",
    "Wait",      "Waitall",    "Waitany",   "Test",      "Barrier",  "Bcast",
    "Reduce",    "Allreduce",  "Alltoall",  "Gather",    "Scatter",  "Allgather",
    "Ssend",     "Probe",      "Alltoallv", "Gatherv",   "Scatterv", "Allgatherv",
    "Reduce_scatter", "Scan",  "Waitsome",  "Testall"};
static_assert(std::size(kMpiOpNames) == size_t(MpiOp::kCount), "a name per MpiOp");

inline std::string_view mpi_op_name(uint16_t op) {
  return op < size_t(MpiOp::kCount) ? kMpiOpNames[op] : std::string_view("?");
}

// Init and Finalize are the run's set-up, not its communication: not in mpi_ns.
inline bool is_mpi_setup(uint16_t op) {
  return op == uint16_t(MpiOp::kInit) || op == uint16_t(MpiOp::kFinalize);
}

// A collective call: every rank of the communicator makes it, in the same order (the ranks'
// n-th collectives on one communicator are one operation: docs/MPI.md, who waits on whom).
inline bool is_mpi_collective(uint16_t op) {
  switch (MpiOp(op)) {
    case MpiOp::kBarrier:
    case MpiOp::kBcast:
    case MpiOp::kReduce:
    case MpiOp::kAllreduce:
    case MpiOp::kAlltoall:
    case MpiOp::kAlltoallv:
    case MpiOp::kGather:
    case MpiOp::kGatherv:
    case MpiOp::kScatter:
    case MpiOp::kScatterv:
    case MpiOp::kAllgather:
    case MpiOp::kAllgatherv:
    case MpiOp::kReduceScatter:
    case MpiOp::kScan: return true;
    default: return false;
  }
}

// A peer that is none (a collective) or any (MPI_ANY_SOURCE): the `peer` of kMpiCall.
inline constexpr int64_t kMpiNoPeer = -1;

// A message tag in a kMpiCall event (its `tag`): the tag + 1; 0 for a call without one, a
// receive's begin with MPI_ANY_TAG, and recordings made before tags were recorded.
inline constexpr uint32_t mpi_tag_field(int tag) { return tag >= 0 ? uint32_t(tag) + 1 : 0; }

// The entry points libtasklens.so gives the PMPI library (found with dlsym, as the user API's):
// `tasklens_mpi_call2(endpoint, op, comm, peer, bytes, tag)` records kMpiCall on the calling
// thread (tag: mpi_tag_field; the name changed with the tag, so that a library and a recorder of
// different versions do not call each other with the wrong arguments),
// `tasklens_mpi_clock(which, local_ns, root_ns)` kMpiClock (which: 0 at Init, 1 at Finalize).
using MpiCallFn = void (*)(uint8_t endpoint, uint16_t op, uint64_t comm, int64_t peer,
                           uint64_t bytes, uint32_t tag);
using MpiClockFn = void (*)(uint16_t which, uint64_t local_ns, uint64_t root_ns);
inline constexpr char kMpiCallSymbol[] = "tasklens_mpi_call2";
inline constexpr char kMpiClockSymbol[] = "tasklens_mpi_clock";

}  // namespace tasklens::format
