/* cancel.c -- a parallel search that cancels its taskgroup when it finds the value.
 *
 * OpenMP pattern: a `taskgroup` of NTASKS tasks, each scanning its chunk of an array for a value
 * that is present exactly once (in chunk 2*NTASKS/3). The task that finds it executes
 * `cancel taskgroup`; the others poll `cancellation point taskgroup` while scanning and stop early,
 * and tasks not started yet are discarded. Cancellation is only active with OMP_CANCELLATION=true
 * (printed as cancellation=1); otherwise the constructs do nothing and every task scans its chunk.
 *
 * What a tool should see: tasks=NTASKS task creations; with cancellation active, one cancel of the
 * taskgroup, `discarded` tasks that end (cancel status) without ever being switched in and
 * `started` tasks that ran; with libomp those cut short by the cancel construct or a cancellation
 * point also end with cancel status. Without cancellation: started=NTASKS and discarded=0.
 *
 * Usage:  [OMP_CANCELLATION=true] cancel [NTASKS=64]
 * Prints: cancel ntasks=N cancellation=0|1 threads=T tasks=N found_at=P started=S discarded=N-S
 *         OK|FAILED
 */
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define CHUNK 20000L
#define USAGE "usage: [OMP_CANCELLATION=true] cancel [NTASKS=64 (1..10000)]\n"

/* Distinct values: k -> k * odd constant is a bijection on 32-bit integers. */
static unsigned value(long k) {
  return (unsigned)k * 2654435761u;
}

int main(int argc, char** argv) {
  long ntasks = arg_long(argc, argv, 1, 64, 1, 10000, USAGE);
  long size = ntasks * CHUNK;
  unsigned* data = malloc((size_t)size * sizeof *data);
  for (long k = 0; k < size; k++) data[k] = value(k);
  long target_pos = (2 * ntasks / 3) * CHUNK + CHUNK / 2;
  unsigned target = value(target_pos);
  char* started = calloc((size_t)ntasks, 1); /* one slot per task, written only by that task */
  long found_at = -1;
  int threads = 0;
#pragma omp parallel
#pragma omp single
  {
    threads = omp_get_num_threads();
#pragma omp taskgroup
    {
      for (long i = 0; i < ntasks; i++) {
#pragma omp task shared(found_at)
        {
          started[i] = 1;
          for (long k = i * CHUNK; k < (i + 1) * CHUNK; k++) {
            if (k % 1024 == 0) {
#pragma omp cancellation point taskgroup
            }
            if (data[k] == target) {
              found_at = k; /* only one task ever writes: the value is present once */
#pragma omp cancel taskgroup
            }
          }
        }
      }
    }
  }
  long nstarted = 0;
  for (long i = 0; i < ntasks; i++) nstarted += started[i];
  int cancellation = omp_get_cancellation();
  int good = found_at == target_pos && (cancellation || nstarted == ntasks);
  printf(
      "cancel ntasks=%ld cancellation=%d threads=%d tasks=%ld found_at=%ld started=%ld "
      "discarded=%ld %s\n",
      ntasks, cancellation, threads, ntasks, found_at, nstarted, ntasks - nstarted,
      good ? "OK" : "FAILED");
  free(data);
  free(started);
  return good ? 0 : 1;
}
