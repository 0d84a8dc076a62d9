/* uneven_tasks.c -- an imbalanced loop of tasks whose work does not depend on the thread count.
 *
 * OpenMP pattern: one creator (`single`) runs ROUNDS rounds; each round creates TASKS tasks in a
 * loop, task i busy-waiting (i % TASKS + 1) units of UNIT_US microseconds (the last task of a
 * round is TASKS times the first), then waits for them with `taskwait`.
 *
 * Unlike imbalance.c (POT's micro-benchmark, where every thread creates its own tasks, so that
 * the program's work grows with the thread count), this program does the same work on any number
 * of threads: what changes is only how the uneven tasks are spread, so a recording at one thread
 * count predicts the others (`tasklens report --what-if`, docs/WHAT-IF.md).
 *
 * What a tool should see: ROUNDS*TASKS tasks from one construct, work about
 * ROUNDS*TASKS(TASKS+1)/2 units; per round a span of at least TASKS units (the longest task).
 *
 * Usage:  uneven_tasks [ROUNDS=50] [TASKS=8] [UNIT_US=20]
 * Prints: uneven_tasks rounds=R tasks=R*T units=U threads=n OK|FAILED
 */
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>

#define USAGE "usage: uneven_tasks [ROUNDS=50] [TASKS=8 (>=1)] [UNIT_US=20]\n"

int main(int argc, char** argv) {
  long rounds = arg_long(argc, argv, 1, 50, 0, 100000000L, USAGE);
  long tasks = arg_long(argc, argv, 2, 8, 1, 100000L, USAGE);
  long unit_us = arg_long(argc, argv, 3, 20, 0, 10000000L, USAGE);
  long ran = 0, units = 0;
  int threads = 0;
#pragma omp parallel
#pragma omp single
  {
    threads = omp_get_num_threads();
    for (long r = 0; r < rounds; r++) {
      for (long i = 0; i < tasks; i++) {
#pragma omp task shared(ran, units)
        {
          spin_ns((unsigned long long)(i + 1) * (unsigned long long)unit_us * 1000ull);
#pragma omp atomic
          ran++;
#pragma omp atomic
          units += i + 1;
        }
      }
#pragma omp taskwait
    }
  }
  int good = ran == rounds * tasks && units == rounds * tasks * (tasks + 1) / 2;
  printf("uneven_tasks rounds=%ld tasks=%ld units=%ld threads=%d %s\n", rounds, ran, units, threads,
         good ? "OK" : "FAILED");
  return good ? 0 : 1;
}
