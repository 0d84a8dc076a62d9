/* taskgroup.c -- a taskgroup waits for all descendant tasks, not only for the children.
 *
 * OpenMP pattern: a `single` creates NTASKS tasks inside a `taskgroup`; each of them creates two
 * child tasks and ends WITHOUT waiting for them. At the end of the taskgroup the creator waits for
 * the whole subtree (a `taskwait` there would only wait for the NTASKS direct children). The check
 * right after the taskgroup relies on that: every grandchild's result must be there.
 *
 * What a tool should see: tasks=3*NTASKS (NTASKS parents + 2*NTASKS children), parent tasks that
 * complete before their children, a taskgroup region whose end waits (executing tasks or idle)
 * until the last grandchild completes.
 *
 * Usage:  taskgroup [NTASKS=100]
 * Prints: taskgroup ntasks=N threads=T tasks=3N children=2N OK|FAILED
 */
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define USAGE "usage: taskgroup [NTASKS=100]\n"

/* Some deterministic computation (a few microseconds). */
static unsigned long long work(long seed) { return lcg_steps((unsigned long long)seed, 5000); }

int main(int argc, char** argv) {
  long ntasks = arg_long(argc, argv, 1, 100, 0, 100000000L, USAGE);
  unsigned long long* out = calloc(2 * (size_t)ntasks + 1, sizeof *out);
  long missing = 0;
  int threads = 0;
#pragma omp parallel
#pragma omp single
  {
    threads = omp_get_num_threads();
#pragma omp taskgroup
    {
      for (long i = 0; i < ntasks; i++) {
#pragma omp task
        {
          work(i);
          for (long c = 0; c < 2; c++) {
#pragma omp task
            out[2 * i + c] = work(2 * i + c) | 1; /* | 1: never 0, so "not done" is visible */
          }
          /* no taskwait: this task completes before its children */
        }
      }
    } /* waits for the parents AND their children */
    for (long k = 0; k < 2 * ntasks; k++)
      if (out[k] != (work(k) | 1)) missing++;
  }
  int good = missing == 0;
  printf("taskgroup ntasks=%ld threads=%d tasks=%ld children=%ld %s\n", ntasks, threads, 3 * ntasks,
         2 * ntasks, good ? "OK" : "FAILED");
  free(out);
  return good ? 0 : 1;
}
