/* dep_chain.c -- a chain of dependent tasks: no parallelism at all.
 *
 * OpenMP pattern: one creator (`single`) makes NTASKS tasks that all carry `depend(inout: x)` on
 * the same variable, so task k+1 can start only after task k completed. Each busy-waits GRAIN_US
 * microseconds.
 *
 * What a tool should see: a linear dependence graph of NTASKS-1 edges (k -> k+1); at most one task
 * ready at any time; all threads but one idle (idleness about (threads-1)/threads of the time),
 * work about NTASKS*GRAIN_US; critical path = total work.
 *
 * Usage:  dep_chain [NTASKS=100] [GRAIN_US=100]
 * Prints: dep_chain ntasks=N grain_us=G threads=T tasks=N deps=N-1 OK|FAILED
 */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long arg(int argc, char** argv, int i, long def, long lo, long hi) {
  if (argc <= i) return def;
  char* end;
  long v = strtol(argv[i], &end, 10);
  if (*argv[i] == '\0' || *end != '\0' || v < lo || v > hi) {
    fprintf(stderr, "usage: dep_chain [NTASKS=100 (>=1)] [GRAIN_US=100]\n");
    exit(2);
  }
  return v;
}

static unsigned long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static void spin_ns(unsigned long long ns) {
  unsigned long long end = now_ns() + ns;
  while (now_ns() < end) {
  }
}

int main(int argc, char** argv) {
  long ntasks = arg(argc, argv, 1, 100, 1, 100000000L);
  long grain_us = arg(argc, argv, 2, 100, 0, 10000000L);
  long x = 0; /* the chained variable: task k finds x == k and leaves k+1 */
  long out_of_order = 0;
  int threads = 0;
#pragma omp parallel
#pragma omp single
  {
    threads = omp_get_num_threads();
    for (long k = 0; k < ntasks; k++) {
#pragma omp task depend(inout : x) shared(x, out_of_order)
      {
        spin_ns((unsigned long long)grain_us * 1000ull);
        if (x != k) out_of_order++;
        x++;
      }
    }
  }
  int good = x == ntasks && out_of_order == 0;
  printf("dep_chain ntasks=%ld grain_us=%ld threads=%d tasks=%ld deps=%ld %s\n", ntasks, grain_us,
         threads, ntasks, ntasks - 1, good ? "OK" : "FAILED");
  return good ? 0 : 1;
}
