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
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define USAGE "usage: dep_chain [NTASKS=100 (>=1)] [GRAIN_US=100]\n"

int main(int argc, char** argv) {
  long ntasks = arg_long(argc, argv, 1, 100, 1, 100000000L, USAGE);
  long grain_us = arg_long(argc, argv, 2, 100, 0, 10000000L, USAGE);
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
