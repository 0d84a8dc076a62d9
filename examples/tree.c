/* tree.c -- a balanced tree of tasks, W children per task, no cut-off and no tasklens API.
 *
 * OpenMP pattern: recursive tasking of one construct. The root call runs in a `single` inside
 * `parallel`; every call above the leaves creates W child tasks (one `task` construct) and joins
 * them with `taskwait`; every task busy-waits GRAIN_US microseconds.
 *
 * What a tool should see: tasks = W + W^2 + ... + W^DEPTH explicit tasks (21844 for W=4,
 * DEPTH=7), each created by its parent's task, the task at creation depth d (d ancestors of the
 * same construct) carrying the work of a subtree of DEPTH-d levels. Without tasklens_param_int
 * the creation tree alone tells where a cut-off belongs: the deep tasks are far too small.
 *
 * With CUTOFF > 0 (a cut-off at recursion depth CUTOFF, as the what-if report predicts it): only
 * calls at depth <= CUTOFF become tasks (depth 1: created by the implicit task), deeper ones run
 * inline in their parent; tasks = W + ... + W^min(DEPTH, CUTOFF).
 *
 * Usage:  tree [DEPTH=7] [W=4] [GRAIN_US=2] [CUTOFF=0 (none)]
 * Prints: tree depth=D w=W grain_us=G threads=T tasks=K OK|FAILED
 */
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define USAGE "usage: tree [DEPTH=7 (1..12)] [W=4 (1..16)] [GRAIN_US=2] [CUTOFF=0 (none)]\n"

static long tasks_made = 0;
static int cutoff = 0; /* 0: every call a task */

static void node(int level, int depth, int w, unsigned long long grain_ns) {
  spin_ns(grain_ns);
  if (level == depth) return;
  if (cutoff > 0 && level + 1 > cutoff) {
    for (int i = 0; i < w; i++) node(level + 1, depth, w, grain_ns);
    return;
  }
  for (int i = 0; i < w; i++) {
#pragma omp task
    node(level + 1, depth, w, grain_ns);
  }
#pragma omp atomic
  tasks_made += w;
#pragma omp taskwait
}

int main(int argc, char** argv) {
  int depth = (int)arg_long(argc, argv, 1, 7, 1, 12, USAGE);
  int w = (int)arg_long(argc, argv, 2, 4, 1, 16, USAGE);
  long grain_us = arg_long(argc, argv, 3, 2, 0, 10000000L, USAGE);
  cutoff = (int)arg_long(argc, argv, 4, 0, 0, 12, USAGE);
  int threads = 0;
#pragma omp parallel
#pragma omp single
  {
    threads = omp_get_num_threads();
    node(0, depth, w, (unsigned long long)grain_us * 1000ull);
  }
  long expected = 0, level = 1;
  for (int d = 1; d <= depth && (cutoff == 0 || d <= cutoff); d++) expected += level *= w;
  int good = tasks_made == expected;
  printf("tree depth=%d w=%d grain_us=%ld threads=%d tasks=%ld %s\n", depth, w, grain_us, threads,
         tasks_made, good ? "OK" : "FAILED");
  return good ? 0 : 1;
}
