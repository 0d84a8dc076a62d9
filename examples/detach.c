/* detach.c -- detachable tasks completed by another task's omp_fulfill_event.
 *
 * OpenMP pattern: a `single` creates NTASKS tasks with `detach(ev)`; each computes a value, but
 * completes only when its event is fulfilled. One more task, the fulfiller, calls
 * omp_fulfill_event() on every event; then a `taskwait` waits for all of them. Depending on the
 * timing, an event is fulfilled after its task's body ended (the task waits, "detached", for it)
 * or before the body started or ended ("early" fulfillment).
 *
 * What a tool should see: tasks=NTASKS+1 (the detached tasks and the fulfiller), detached=NTASKS
 * tasks whose completion is separate from the end of their body, the completion of each detached
 * task caused by the fulfiller, and the taskwait ending after the last fulfillment.
 * Built with GCC (libgomp), this program cannot run on libomp (omp_fulfill_event's symbol version).
 * The team has at least 2 threads: with a team of one thread, libomp 14 aborts at the end of the
 * parallel region ("Assertion failure at kmp_runtime.cpp(2375)", llvm-project issue #66654).
 *
 * Usage:  detach [NTASKS=64]
 * Prints: detach ntasks=N threads=T tasks=N+1 detached=N fulfilled=N OK|FAILED
 */
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define USAGE "usage: detach [NTASKS=64]\n"

/* Some deterministic computation (a few microseconds). */
static unsigned long long work(long seed) { return lcg_steps((unsigned long long)seed, 5000); }

int main(int argc, char** argv) {
  long ntasks = arg_long(argc, argv, 1, 64, 0, 100000000L, USAGE);
  omp_event_handle_t* events = calloc((size_t)ntasks + 1, sizeof *events);
  unsigned long long* result = calloc((size_t)ntasks + 1, sizeof *result);
  long fulfilled = 0, wrong = 0;
  int threads = 0;
  int want = omp_get_max_threads() < 2 ? 2 : omp_get_max_threads();
#pragma omp parallel num_threads(want)
#pragma omp single
  {
    threads = omp_get_num_threads();
    for (long i = 0; i < ntasks; i++) {
      omp_event_handle_t ev;
#pragma omp task detach(ev)
      result[i] = work(i) | 1;
      events[i] = ev;
    }
#pragma omp task shared(fulfilled)
    {
      for (long i = 0; i < ntasks; i++) {
        omp_fulfill_event(events[i]);
        fulfilled++;
      }
    }
#pragma omp taskwait /* returns when every detached task's event has been fulfilled */
    for (long i = 0; i < ntasks; i++)
      if (result[i] != (work(i) | 1)) wrong++;
  }
  int good = wrong == 0 && fulfilled == ntasks;
  printf("detach ntasks=%ld threads=%d tasks=%ld detached=%ld fulfilled=%ld %s\n", ntasks, threads,
         ntasks + 1, ntasks, fulfilled, good ? "OK" : "FAILED");
  free(events);
  free(result);
  return good ? 0 : 1;
}
