/* taskwait_depend.c -- `taskwait depend(in: x)`: wait for the tasks that write x, not for all.
 *
 * OpenMP pattern (5.0): a `single` runs ROUNDS rounds. Each round creates a task A that writes
 * x (depend(out: x), busy for SPIN_US microseconds) and a task B that writes nothing the round
 * waits for (no dependence, busy for SPIN_US / 2), busy-waits LEAD_US microseconds itself (the
 * other thread, waiting in the single's barrier, picks the tasks up meanwhile), then waits with
 * `taskwait depend(in: x)` for A only, and checks A's value.
 *
 * What a tool should see: tasks=2*ROUNDS explicit tasks and ROUNDS taskwaits. libomp (14) reports
 * each `taskwait depend` as one more task, flagged taskwait, that never runs and ends with
 * taskwait_complete once A has completed; that task is the taskwait, not a task. The creator waits
 * there: the time it spins in it is no work, so the run's work is the tasks' busy time plus the
 * creator's LEAD_US per round (busy= below, in microseconds), plus the little the runtime does.
 *
 * Usage:  taskwait_depend [ROUNDS=20] [SPIN_US=2000] [LEAD_US=200]
 * Prints: taskwait_depend rounds=R threads=T tasks=2R waits=R busy_us=U OK|FAILED
 */
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>

#define USAGE "usage: taskwait_depend [ROUNDS=20] [SPIN_US=2000] [LEAD_US=200]\n"

int main(int argc, char** argv) {
  long rounds = arg_long(argc, argv, 1, 20, 1, 1000000L, USAGE);
  long spin_us = arg_long(argc, argv, 2, 2000, 0, 10000000L, USAGE);
  long lead_us = arg_long(argc, argv, 3, 200, 0, 10000000L, USAGE);
  long x = 0, wrong = 0, waits = 0;
  int threads = 0;
  int want = omp_get_max_threads() < 2 ? 2 : omp_get_max_threads();
#pragma omp parallel num_threads(want)
#pragma omp single
  {
    threads = omp_get_num_threads();
    for (long r = 1; r <= rounds; r++) {
#pragma omp task depend(out : x) shared(x) firstprivate(r)
      {
        spin_ns((unsigned long long)spin_us * 1000ull);
        x = r;
      }
#pragma omp task
      spin_ns((unsigned long long)spin_us * 500ull);
      spin_ns((unsigned long long)lead_us * 1000ull);
#pragma omp taskwait depend(in : x)
      waits++;
      if (x != r) wrong++;
    }
  }
  int good = wrong == 0 && waits == rounds;
  printf("taskwait_depend rounds=%ld threads=%d tasks=%ld waits=%ld busy_us=%ld %s\n", rounds,
         threads, 2 * rounds, waits, rounds * (spin_us + spin_us / 2 + lead_us),
         good ? "OK" : "FAILED");
  return good ? 0 : 1;
}
