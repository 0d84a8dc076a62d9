#include "support/machine_contention.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>

namespace tasklens::testing {
namespace {

uint64_t timeval_ns(const timeval& t) { return uint64_t(t.tv_sec) * 1000000000u + uint64_t(t.tv_usec) * 1000u; }

uint64_t rusage_ns(int who) {
  rusage u{};
  getrusage(who, &u);
  return timeval_ns(u.ru_utime) + timeval_ns(u.ru_stime);
}

// The "cpu" line of /proc/stat: user nice system idle iowait irq softirq steal (in ticks).
uint64_t machine_busy_ns() {
  std::ifstream stat("/proc/stat");
  std::string cpu;
  uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  if (!(stat >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal) ||
      cpu != "cpu")
    return 0;
  uint64_t ticks = user + nice + system + irq + softirq + steal;
  return ticks * (1000000000u / uint64_t(sysconf(_SC_CLK_TCK)));
}

uint64_t monotonic_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return uint64_t(t.tv_sec) * 1000000000u + uint64_t(t.tv_nsec);
}

}  // namespace

MachineContention::MachineContention() : start_(sample()) {}

MachineContention::Sample MachineContention::sample() {
  return {machine_busy_ns(), rusage_ns(RUSAGE_SELF) + rusage_ns(RUSAGE_CHILDREN), monotonic_ns()};
}

double MachineContention::others_share() const {
  Sample end = sample();
  if (start_.machine_busy_ns == 0 || end.wall_ns <= start_.wall_ns) return 0;
  int64_t busy = int64_t(end.machine_busy_ns - start_.machine_busy_ns);
  int64_t own = int64_t(end.own_ns - start_.own_ns);
  double capacity = double(end.wall_ns - start_.wall_ns) *
                    double(std::max(1u, std::thread::hardware_concurrency()));
  return double(std::max<int64_t>(0, busy - own)) / capacity;
}

}  // namespace tasklens::testing
