/* fork_join.c -- thread management overhead: many (almost) empty parallel regions.
 *
 * OpenMP pattern: a serial loop of N `parallel` regions whose body only lets the primary thread
 * note the team size. All the time inside the regions is fork, join and barrier cost.
 *
 * What a tool should see: regions=N parallel regions of `threads` threads each, hence
 * implicit_tasks=N*threads implicit tasks (plus the initial task), no work to speak of, and the
 * time spent in them classified as thread management (fork/join) overhead.
 *
 * Usage:  fork_join [N=10000]
 * Prints: fork_join regions=N threads=T implicit_tasks=N*T OK|FAILED
 */
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define USAGE "usage: fork_join [N=10000]\n"

int main(int argc, char** argv) {
  long n = arg_long(argc, argv, 1, 10000, 0, 1000000000L, USAGE);
  int team = 0, min_team = 1 << 30, max_team = 0;
  for (long r = 0; r < n; r++) {
#pragma omp parallel
    {
      if (omp_get_thread_num() == 0) team = omp_get_num_threads();
    }
    if (team < min_team) min_team = team;
    if (team > max_team) max_team = team;
  }
  int good = n == 0 || (min_team == max_team && max_team >= 1);
  int threads = n == 0 ? 0 : max_team;
  printf("fork_join regions=%ld threads=%d implicit_tasks=%ld %s\n", n, threads, n * threads,
         good ? "OK" : "FAILED");
  return good ? 0 : 1;
}
