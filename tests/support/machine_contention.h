// How much CPU time other processes took from this machine while a test measured something.
// Timing tests use it to tell an undisturbed run from one that competed for the cores, instead
// of the load average, which lags by a minute and still counts the tests that ran before.
#pragma once

#include <cstdint>

namespace tasklens::testing {

class MachineContention {
 public:
  MachineContention();  // starts the window

  // The share of the machine's capacity (wall time × cores) since the start that went to other
  // processes, or was stolen by the hypervisor: busy and steal time from /proc/stat minus the
  // CPU time of this process and of its waited-for children. 0 when /proc/stat is unreadable.
  double others_share() const;

 private:
  struct Sample {
    uint64_t machine_busy_ns = 0;  // every CPU's non-idle time, steal included
    uint64_t own_ns = 0;           // this process and its reaped children, user + system
    uint64_t wall_ns = 0;
  };
  static Sample sample();
  Sample start_;
};

}  // namespace tasklens::testing
