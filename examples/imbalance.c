/* imbalance.c -- POT's load-imbalance micro-benchmark (Pereira et al., Sect. 4.2).
 *
 * OpenMP pattern: inside `parallel`, every thread t (1-based) repeats ITERATIONS times: create one
 * task that busy-waits t*GRAIN_NS nanoseconds (polling clock_gettime(CLOCK_MONOTONIC)), then
 * `#pragma omp barrier`, which also waits for the completion of all the tasks.
 *
 * What a tool should see, with n threads and no overheads: per iteration the tasks' work is
 * g*n(n+1)/2 and, since every thread waits at the barrier for the longest task (n*g), the idleness
 * is g*n(n-1)/2. Over the run: ideal_work_ns and ideal_idle_ns below; measured values exceed them
 * by the task creation, scheduling and barrier overheads (and the clock polling).
 *
 * Usage:  imbalance [GRAIN_NS=10000] [ITERATIONS=1000]
 * Prints: imbalance grain_ns=G iterations=I threads=n tasks=n*I ideal_work_ns=g*n(n+1)/2*I
 *         ideal_idle_ns=g*n(n-1)/2*I measured_work_ns=W measured_idle_ns=D OK|FAILED
 * (measured_work_ns is what the tasks timed themselves; measured_idle_ns the idleness those
 * times imply, sum over t of W_n - W_t with W_t the times of thread t's tasks: thread n's task is
 * the longest of every iteration; the other values are exact formulas.)
 */
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define USAGE "usage: imbalance [GRAIN_NS=10000] [ITERATIONS=1000]\n"

int main(int argc, char** argv) {
  unsigned long long g =
      (unsigned long long)arg_long(argc, argv, 1, 10000, 0, 1000000000L, USAGE);
  long iters = arg_long(argc, argv, 2, 1000, 0, 1000000000L, USAGE);
  int maxt = omp_get_max_threads();
  /* Slot t-1 belongs to the tasks of thread t; they never overlap (the barrier separates them). */
  unsigned long long* measured = calloc((size_t)maxt, sizeof *measured);
  long* ran = calloc((size_t)maxt, sizeof *ran);
  int n = 0;

#pragma omp parallel
  {
    int t = omp_get_thread_num() + 1;
    if (t == 1) n = omp_get_num_threads();
    for (long it = 0; it < iters; it++) {
#pragma omp task
      {
        unsigned long long start = now_ns();
        measured[t - 1] += spin_until_ns(start + (unsigned long long)t * g) - start;
        ran[t - 1]++;
      }
#pragma omp barrier
    }
  }

  unsigned long long I = (unsigned long long)iters, N = (unsigned long long)n, work = 0, idle = 0;
  int good = 1;
  for (int t = 1; t <= n; t++) {
    work += measured[t - 1];
    if (measured[n - 1] > measured[t - 1]) idle += measured[n - 1] - measured[t - 1];
    if (ran[t - 1] != iters || measured[t - 1] < (unsigned long long)t * g * I) good = 0;
  }
  printf(
      "imbalance grain_ns=%llu iterations=%ld threads=%d tasks=%llu ideal_work_ns=%llu "
      "ideal_idle_ns=%llu measured_work_ns=%llu measured_idle_ns=%llu %s\n",
      g, iters, n, N * I, g * N * (N + 1) / 2 * I, g * N * (N - 1) / 2 * I, work, idle,
      good ? "OK" : "FAILED");
  free(measured);
  free(ran);
  return good ? 0 : 1;
}
