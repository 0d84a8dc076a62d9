// imbalance: POT's load-imbalance micro-benchmark (Pereira et al., Sect. 4.2). In a parallel
// region of n threads, each thread t in 1..n creates, in every one of ITERATIONS iterations, one
// task that busy-waits t*GRAIN_NS nanoseconds (polling clock_gettime(CLOCK_MONOTONIC)), then
// all threads meet at a barrier (which also completes the tasks). Ideal values of an execution
// without any overhead, over all iterations and summed over threads:
//   work = I * g * n(n+1)/2,  idleness = I * g * n(n-1)/2,  overhead = 0;
// they are printed as ideal_work= and ideal_idle= (seconds).
// Usage: imbalance GRAIN_NS ITERATIONS | tiny | small | medium
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_common.h"

static void usage(void) {
  fprintf(stderr, "usage: imbalance GRAIN_NS ITERATIONS | tiny | small | medium\n");
  exit(2);
}

static long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long)ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static void busy_wait_ns(long ns) {
  long start = now_ns();
  while (now_ns() - start < ns) {
  }
}

typedef struct {
  long count;
  char pad[64 - sizeof(long)];
} Counter;

int main(int argc, char** argv) {
  long grain = 0, iters = 0;
  if (argc == 2 && strcmp(argv[1], "tiny") == 0) {
    grain = 2000, iters = 4000;
  } else if (argc == 2 && strcmp(argv[1], "small") == 0) {
    grain = 16000, iters = 20000;
  } else if (argc == 2 && strcmp(argv[1], "medium") == 0) {
    grain = 16000, iters = 80000;
  } else if (argc == 3) {
    grain = parse_long(argv[1], 0, 1000000000L);
    iters = parse_long(argv[2], 0, 1L << 40);
  } else {
    usage();
  }

  int max_threads = omp_get_max_threads();
  Counter* done = calloc((size_t)max_threads, sizeof(Counter));  // tasks run, per creator
  int nthreads = 0;

#pragma omp parallel
  {  // warm-up: start the thread team outside the timed part
  }

  double t0 = omp_get_wtime();
#pragma omp parallel
  {
    int t = omp_get_thread_num() + 1;
    if (t == 1) nthreads = omp_get_num_threads();
    for (long it = 0; it < iters; ++it) {
      // One task per thread and iteration: only this task touches done[t-1] until the
      // barrier, which completes it.
#pragma omp task firstprivate(t)
      {
        busy_wait_ns(t * grain);
        done[t - 1].count++;
      }
#pragma omp barrier
    }
  }
  double t1 = omp_get_wtime();

  int ok = nthreads >= 1;
  for (int t = 0; t < nthreads; ++t)
    if (done[t].count != iters) ok = 0;
  // Each iteration lasts at least as long as its longest task, n*g.
  if (t1 - t0 < (double)iters * (double)nthreads * (double)grain * 1e-9) ok = 0;

  double n = nthreads, I = (double)iters, g = (double)grain * 1e-9;
  printf("imbalance grain_ns=%ld iterations=%ld threads=%d ideal_work=%.6f ideal_idle=%.6f "
         "time=%.6f tasks=%ld %s\n",
         grain, iters, nthreads, I * g * n * (n + 1) / 2, I * g * n * (n - 1) / 2, t1 - t0,
         (long)nthreads * iters, ok ? "OK" : "FAILED");
  free(done);
  return ok ? 0 : 1;
}
