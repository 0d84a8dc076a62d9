// MPI calls in Paraver's terms, as Extrae writes them (docs/EXPORTS.md): an event of type
// 50000001 (point-to-point), 50000002 (collective) or 50000003 (other: Init, Finalize) whose
// value is Extrae's number of the call (MPI_Send 1, MPI_Recv 2, ..., 0 at its end), and a thread
// state for the time in the call, named as Extrae names it. Extrae's state numbers 3 to 8 are
// tasklens's task states here, so the MPI states are numbered after them (9 to 15).
#pragma once

#include <cstdint>

#include "format/mpi_ops.h"

namespace tasklens::exports::paraver {

constexpr uint32_t kTypeMpiPointToPoint = 50000001;
constexpr uint32_t kTypeMpiCollective = 50000002;
constexpr uint32_t kTypeMpiOther = 50000003;

enum MpiState : uint32_t {
  kMpiWaitingMessage = 9,  // Recv
  kMpiBlockingSend = 10,   // Send, Ssend
  kMpiSendReceive = 11,    // Sendrecv
  kMpiWait = 12,           // Wait, Waitall, Waitany, Waitsome
  kMpiTestProbe = 13,      // Test, Testall, Probe
  kMpiCollective = 14,     // Barrier, Bcast, Reduce, ...
  kMpiOther = 15,          // Init, Finalize, unknown
};

// A state as the .pcf names and colours it.
struct StateName {
  uint32_t value;
  const char* name;
  const char* color;
};
inline constexpr StateName kMpiStates[] = {
    {kMpiWaitingMessage, "MPI: Waiting a message", "{235,0,0}"},
    {kMpiBlockingSend, "MPI: Blocking Send", "{161,0,0}"},
    {kMpiSendReceive, "MPI: Send Receive", "{255,144,26}"},
    {kMpiWait, "MPI: Wait/WaitAll", "{0,255,0}"},
    {kMpiTestProbe, "MPI: Test/Probe", "{255,255,0}"},
    {kMpiCollective, "MPI: Group Communication", "{255,128,0}"},
    {kMpiOther, "MPI: Others", "{192,192,192}"},
};

// Extrae's event type, value and state of a call.
struct MpiCallPrv {
  uint32_t type;
  uint32_t value;
  uint32_t state;
};

inline MpiCallPrv mpi_call_prv(uint16_t op) {
  using format::MpiOp;
  switch (MpiOp(op)) {
    case MpiOp::kSend: return {kTypeMpiPointToPoint, 1, kMpiBlockingSend};
    case MpiOp::kRecv: return {kTypeMpiPointToPoint, 2, kMpiWaitingMessage};
    case MpiOp::kWait: return {kTypeMpiPointToPoint, 5, kMpiWait};
    case MpiOp::kWaitall: return {kTypeMpiPointToPoint, 6, kMpiWait};
    case MpiOp::kBcast: return {kTypeMpiCollective, 7, kMpiCollective};
    case MpiOp::kBarrier: return {kTypeMpiCollective, 8, kMpiCollective};
    case MpiOp::kReduce: return {kTypeMpiCollective, 9, kMpiCollective};
    case MpiOp::kAllreduce: return {kTypeMpiCollective, 10, kMpiCollective};
    case MpiOp::kAlltoall: return {kTypeMpiCollective, 11, kMpiCollective};
    case MpiOp::kAlltoallv: return {kTypeMpiCollective, 12, kMpiCollective};
    case MpiOp::kGather: return {kTypeMpiCollective, 13, kMpiCollective};
    case MpiOp::kGatherv: return {kTypeMpiCollective, 14, kMpiCollective};
    case MpiOp::kScatter: return {kTypeMpiCollective, 15, kMpiCollective};
    case MpiOp::kScatterv: return {kTypeMpiCollective, 16, kMpiCollective};
    case MpiOp::kAllgather: return {kTypeMpiCollective, 17, kMpiCollective};
    case MpiOp::kAllgatherv: return {kTypeMpiCollective, 18, kMpiCollective};
    case MpiOp::kScan: return {kTypeMpiCollective, 30, kMpiCollective};
    case MpiOp::kInit: return {kTypeMpiOther, 31, kMpiOther};
    case MpiOp::kFinalize: return {kTypeMpiOther, 32, kMpiOther};
    case MpiOp::kSsend: return {kTypeMpiPointToPoint, 34, kMpiBlockingSend};
    case MpiOp::kTest: return {kTypeMpiPointToPoint, 39, kMpiTestProbe};
    case MpiOp::kSendrecv: return {kTypeMpiPointToPoint, 41, kMpiSendReceive};
    case MpiOp::kWaitany: return {kTypeMpiPointToPoint, 59, kMpiWait};
    case MpiOp::kWaitsome: return {kTypeMpiPointToPoint, 60, kMpiWait};
    case MpiOp::kProbe: return {kTypeMpiPointToPoint, 61, kMpiTestProbe};
    case MpiOp::kReduceScatter: return {kTypeMpiCollective, 80, kMpiCollective};
    case MpiOp::kTestall: return {kTypeMpiPointToPoint, 125, kMpiTestProbe};
    default: return {kTypeMpiOther, 0, kMpiOther};  // unknown: no value of Extrae's
  }
}

}  // namespace tasklens::exports::paraver
