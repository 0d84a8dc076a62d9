// Time in MPI calls (docs/MPI.md): the kMpiCall begin/end pairs the PMPI library recorded, per
// thread and per call, and the clock samples of Init and Finalize (kMpiClock). mpi_ns counts
// every call but Init and Finalize (setup_ns).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "format/event_views.h"
#include "format/off_cpu.h"
#include "replay/pass.h"

namespace tasklens::analysis {

struct MpiOpTime {
  uint64_t calls = 0, ns = 0, bytes = 0;
};

// A collective call (format::is_mpi_collective) of this rank, in its time (ns since its start).
struct MpiCollectiveCall {
  uint16_t op = 0;
  uint64_t comm = 0;  // the communicator's Fortran handle
  uint64_t begin_ns = 0, end_ns = 0;
};

// A blocking point-to-point call (Send, Ssend, Recv), for matching messages across ranks.
struct MpiP2pCall {
  uint16_t op = 0;
  uint64_t comm = 0;  // the communicator's Fortran handle
  int64_t peer = -1;  // the destination; a receive's actual source (-1: not known)
  uint32_t tag = 0;   // the tag + 1 (a receive's received tag; 0: not known)
  uint64_t begin_ns = 0, end_ns = 0;
};

struct MpiClockOffset {
  uint64_t local_ns = 0;  // this rank's CLOCK_MONOTONIC at the sample
  int64_t offset_ns = 0;  // rank 0's clock minus this rank's, at the same instant
};

// Rank 0's clock minus a rank's at `local_ns` (the rank's CLOCK_MONOTONIC): the Init and Finalize
// offsets interpolated linearly, the line extended before Init and after Finalize; one sample:
// its offset; none: 0 (docs/MPI.md, clock alignment).
double mpi_clock_offset(const std::optional<MpiClockOffset>& init,
                        const std::optional<MpiClockOffset>& finalize, uint64_t local_ns);

// Ranks on one host read one CLOCK_MONOTONIC: their measured offsets are the error of the
// measurement (how far apart they left a barrier: milliseconds when oversubscribed), not a
// difference of clocks, and are not applied. `host` and `root_host` as experiment.json says.
inline bool mpi_same_clock(const std::string& host, const std::string& root_host) {
  return !host.empty() && host == root_host;
}

struct MpiTime {
  uint64_t mpi_ns = 0;    // in calls other than Init/Finalize, summed over threads
  uint64_t setup_ns = 0;  // in Init and Finalize
  // Of mpi_ns and setup_ns, the time the thread was preempted (off_cpu.bin; 0 when not measured):
  // the breakdown counts it as preempted, not as work or serial.
  uint64_t mpi_preempted_ns = 0, setup_preempted_ns = 0;
  uint64_t calls = 0;  // calls other than Init/Finalize
  uint64_t bytes = 0;
  std::map<uint16_t, MpiOpTime> by_op;  // format::MpiOp -> its calls
  std::vector<uint64_t> thread_mpi_ns;  // by thread index
  std::optional<MpiClockOffset> init_clock, finalize_clock;
  std::vector<MpiCollectiveCall> collectives;  // in the order they ended
  std::vector<MpiP2pCall> p2p;                 // Send, Ssend, Recv, in the order they ended
  std::optional<uint64_t> world_comm;          // MPI_COMM_WORLD's handle (MPI_Init's end)

  double offset_at(uint64_t local_ns) const {
    return mpi_clock_offset(init_clock, finalize_clock, local_ns);
  }
};

class MpiTimePass : public replay::Pass {
 public:
  void begin(const replay::ReplayInfo& info) override;
  bool uses_before() const override { return false; }
  void after(const replay::Record& r, const replay::TaskModel& m) override;
  // MPI calls and clock samples (it was a call for every event of a run without MPI).
  uint64_t after_kinds() const override {
    return uint64_t(1) << uint8_t(format::Kind::kMpiCall) | uint64_t(1)
                                                                << uint8_t(format::Kind::kMpiClock);
  }
  void end(const replay::ReplayInfo& info, const replay::TaskModel& m) override;
  const MpiTime& result() const { return result_; }

 private:
  struct Open {
    uint16_t op = 0;
    uint64_t comm = 0;
    uint64_t begin_ns = 0;
    bool open = false;
    int64_t peer = -1;
    uint32_t tag = 0;
  };
  // `end`: the call's end event (nullptr: closed without one).
  void close(uint32_t thread, uint64_t t, uint64_t bytes, const format::ev::MpiCall* end);
  // after()'s rare paths, out of line: a thread not seen yet, an MPI event. Most traces have
  // none, and after() runs for every event.
  __attribute__((noinline)) void grow(uint32_t thread);
  __attribute__((noinline)) void on_mpi(const replay::Record& r);
  std::vector<Open> open_;
  std::vector<std::vector<format::OffCpuInterval>> preempted_;  // by thread
  MpiTime result_;
};

}  // namespace tasklens::analysis
