/* taskloop.c -- a loop turned into tasks by `taskloop grainsize(G)`.
 *
 * OpenMP pattern: one thread (`single`) runs `taskloop grainsize(GRAINSIZE)` over N iterations;
 * the runtime cuts the iteration space into chunks of G to 2G-1 iterations, one task per chunk,
 * inside an implicit taskgroup. Every iteration does a little computation into its own array slot;
 * the sum is checked serially.
 *
 * What a tool should see: iterations=N spread over the tasks of one taskloop construct, a
 * taskgroup around them (the taskloop's implicit taskgroup), the other threads picking up chunks.
 * No tasks= here: the number of tasks is the runtime's choice (the OpenMP spec only says each chunk
 * has between G and 2G-1 iterations). Measured with libomp 14 (OMPT task_create counts):
 * floor(N/G) chunk tasks (1 if G > N, 0 if N = 0), plus extra internal tasks that split the range
 * recursively when there are more than 10*threads chunks: 10000/100 gave 107 tasks with 2 threads,
 * 115 with 1, 103 with 4. libomp 14 flags all of them as plain explicit tasks (no taskloop flag).
 * Usage:  taskloop [N=10000] [GRAINSIZE=100]
 * Prints: taskloop iterations=N grainsize=G threads=T sum=S OK|FAILED
 */
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define USAGE "usage: taskloop [N=10000] [GRAINSIZE=100 (>=1)]\n"

/* Some deterministic computation per iteration (about a microsecond). */
static unsigned long long work(long i) { return lcg_steps((unsigned long long)i, 500) >> 40; }

int main(int argc, char** argv) {
  long n = arg_long(argc, argv, 1, 10000, 0, 1000000000L, USAGE);
  long grainsize = arg_long(argc, argv, 2, 100, 1, 1000000000L, USAGE);
  unsigned long long* a = calloc((size_t)n + 1, sizeof *a);
  int threads = 0;
#pragma omp parallel
#pragma omp single
  {
    threads = omp_get_num_threads();
    /* An unsigned loop variable: with a signed one clang 14 warns (-Wsign-compare) about the
       comparison in its own taskloop code. */
#pragma omp taskloop grainsize(grainsize)
    for (unsigned long i = 0; i < (unsigned long)n; i++) a[i] = work((long)i);
  }
  unsigned long long sum = 0, expect = 0;
  for (long i = 0; i < n; i++) {
    sum += a[i];
    expect += work(i);
  }
  int good = sum == expect;
  printf("taskloop iterations=%ld grainsize=%ld threads=%d sum=%llu %s\n", n, grainsize, threads,
         sum, good ? "OK" : "FAILED");
  free(a);
  return good ? 0 : 1;
}
