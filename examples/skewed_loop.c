/* skewed_loop.c -- load imbalance in a statically scheduled worksharing loop.
 *
 * OpenMP pattern: `parallel num_threads(2)` + `for schedule(static)` over N iterations (N even);
 * iterations i < N/2 cost 1 unit, iterations i >= N/2 cost 3 units (a unit busy-waits UNIT_NS).
 * schedule(static) without chunk gives thread 0 the first half and thread 1 the second half, so
 * thread 1 does 3 times the work of thread 0, which waits in the loop's implicit barrier.
 *
 * What a tool should see (no task at all): a worksharing loop, per-thread work N/2*unit and
 * 3N/2*unit, and thread 0 idle about N*unit in the loop's implicit barrier:
 * ideal_work_ns=2N*unit, ideal_idle_ns=N*unit, max/mean work = 1.50 (imbalance 50 %).
 *
 * Usage:  skewed_loop [N=1000 (even)]
 * Prints: skewed_loop n=N unit_ns=U threads=2 units_t0=N/2 units_t1=3N/2 ideal_work_ns=W
 *         ideal_idle_ns=I max_over_mean=1.50 OK|FAILED
 */
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define UNIT_NS 10000ull
#define USAGE "usage: skewed_loop [N=1000 (even)]\n"

int main(int argc, char** argv) {
  long n = arg_long(argc, argv, 1, 1000, 0, 100000000L, USAGE);
  if (n % 2 != 0) usage_exit(USAGE);
  unsigned long long units[2] = {0, 0};
  int threads = 0;
#pragma omp parallel num_threads(2)
  {
    int tid = omp_get_thread_num();
    unsigned long long mine = 0;
    if (tid == 0) threads = omp_get_num_threads();
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++) {
      unsigned long long cost = i < n / 2 ? 1 : 3;
      spin_ns(cost * UNIT_NS);
      mine += cost;
    }
    units[tid] = mine;
  }
  unsigned long long half = (unsigned long long)n / 2;
  int good = threads == 2 && units[0] == half && units[1] == 3 * half;
  double mean = (units[0] + units[1]) / 2.0;
  printf(
      "skewed_loop n=%ld unit_ns=%llu threads=%d units_t0=%llu units_t1=%llu "
      "ideal_work_ns=%llu ideal_idle_ns=%llu max_over_mean=%.2f %s\n",
      n, UNIT_NS, threads, units[0], units[1], 4 * half * UNIT_NS, 2 * half * UNIT_NS,
      mean > 0 ? (double)units[1] / mean : 0.0, good ? "OK" : "FAILED");
  return good ? 0 : 1;
}
