/* wavefront.c -- 2-D wavefront of dependent tasks.
 *
 * OpenMP pattern: N x N blocks; the task of block (i,j) has `depend(in:)` on blocks (i-1,j) and
 * (i,j-1) and `depend(out:)` on its own block. The dependence addresses are the cells of a sentinel
 * array with an extra row 0 and column 0 that no task writes, so the blocks of the first row and
 * column depend on nothing. One creator (`single`) makes the tasks in row-major order.
 *
 * What a tool should see: tasks=N*N, a dependence graph of exactly deps=2*N*(N-1) edges (every
 * block's out feeds the in of the block below and the block to the right), parallelism that grows
 * and shrinks along the anti-diagonals (critical path 2N-1 tasks), so idleness at start and end.
 *
 * Usage:  wavefront [N=8] [GRAIN_US=100]
 * Prints: wavefront n=N grain_us=G threads=T tasks=N*N deps=2N(N-1) OK|FAILED
 */
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define USAGE "usage: wavefront [N=8 (1..10000)] [GRAIN_US=100]\n"

int main(int argc, char** argv) {
  long n = arg_long(argc, argv, 1, 8, 1, 10000, USAGE);
  long grain_us = arg_long(argc, argv, 2, 100, 0, 10000000L, USAGE);
  long w = n + 1; /* row width, including the never-written column 0 */
#define IDX(i, j) ((i)*w + (j))
  char* s = calloc((size_t)(w * w), 1);                       /* dependence addresses */
  unsigned long long* v = calloc((size_t)(w * w), sizeof *v); /* block values */
  int threads = 0;
#pragma omp parallel
#pragma omp single
  {
    threads = omp_get_num_threads();
    for (long i = 1; i <= n; i++)
      for (long j = 1; j <= n; j++) {
#pragma omp task depend(in : s[IDX(i - 1, j)], s[IDX(i, j - 1)]) depend(out : s[IDX(i, j)])
        {
          spin_ns((unsigned long long)grain_us * 1000ull);
          v[IDX(i, j)] = v[IDX(i - 1, j)] + v[IDX(i, j - 1)] + 1;
        }
      }
  }

  /* Serial recomputation; a task that ran before its predecessors would have read a 0. */
  unsigned long long* e = calloc((size_t)(w * w), sizeof *e);
  int good = 1;
  for (long i = 1; i <= n; i++)
    for (long j = 1; j <= n; j++) {
      e[IDX(i, j)] = e[IDX(i - 1, j)] + e[IDX(i, j - 1)] + 1;
      if (v[IDX(i, j)] != e[IDX(i, j)]) good = 0;
    }
  printf("wavefront n=%ld grain_us=%ld threads=%d tasks=%ld deps=%ld %s\n", n, grain_us, threads,
         n * n, 2 * n * (n - 1), good ? "OK" : "FAILED");
  free(s);
  free(v);
  free(e);
  return good ? 0 : 1;
}
