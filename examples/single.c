/* single.c -- limited parallelism: one thread works while the others wait.
 *
 * OpenMP pattern: a `single` construct inside `parallel` whose body busy-waits WORK_MS
 * milliseconds; the other threads of the team wait in the implicit barrier at the end of the
 * single.
 *
 * What a tool should see: one single region executed once (by `executor`), work WORK_MS on that
 * thread, and (threads-1)*WORK_MS of idleness in the single's exit barrier (ompP's "limited
 * parallelism" overhead class): ideal_idle_ms below.
 *
 * Usage:  single [WORK_MS=50]
 * Prints: single work_ms=W threads=T executions=1 executor=E ideal_work_ms=W
 *         ideal_idle_ms=(T-1)*W OK|FAILED
 */
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define USAGE "usage: single [WORK_MS=50]\n"

int main(int argc, char** argv) {
  long work_ms = arg_long(argc, argv, 1, 50, 0, 1000000L, USAGE);
  int threads = 0, executions = 0, executor = -1;
  unsigned long long elapsed = 0;
#pragma omp parallel
  {
#pragma omp single
    {
      executions++;
      executor = omp_get_thread_num();
      threads = omp_get_num_threads();
      unsigned long long start = now_ns();
      elapsed = spin_until_ns(start + (unsigned long long)work_ms * 1000000ull) - start;
    } /* implicit barrier: the other threads wait here */
  }
  int good = executions == 1 && elapsed >= (unsigned long long)work_ms * 1000000ull;
  printf(
      "single work_ms=%ld threads=%d executions=%d executor=%d ideal_work_ms=%ld "
      "ideal_idle_ms=%ld %s\n",
      work_ms, threads, executions, executor, work_ms, (threads - 1) * work_ms,
      good ? "OK" : "FAILED");
  return good ? 0 : 1;
}
