/* nested.c -- tasks that open nested parallel regions, each with a single creating tasks.
 *
 * OpenMP pattern: an outer team of two runs a loop, then a `single` creates NREGIONS tasks; each
 * task opens an inner parallel region of two threads (nesting on: max-active-levels 2) whose
 * `single` creates NTASKS tasks, waited for at the inner region's end. The inner regions run on
 * threads the outer team does not have, and their barriers follow a `single` that GCC's libgomp
 * reports with no end.
 *
 * What a tool should see: tasks=NREGIONS*(1+NTASKS), regions=1+NREGIONS parallel regions, the
 * inner ones nested in a task of the outer one; each inner region's single and its barrier.
 *
 * Usage:  nested [NREGIONS=4] [NTASKS=8]
 * Prints: nested nregions=R ntasks=N threads=T tasks=R*(1+N) regions=1+R OK|FAILED
 */
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>

#define USAGE "usage: nested [NREGIONS=4] [NTASKS=8]\n"

static unsigned long long work(long seed) {
  return lcg_steps((unsigned long long)seed, 5000);
}

int main(int argc, char** argv) {
  long nregions = arg_long(argc, argv, 1, 4, 1, 1000, USAGE);
  long ntasks = arg_long(argc, argv, 2, 8, 0, 100000, USAGE);
  omp_set_max_active_levels(2);
  long done = 0, inner_teams = 0;
  int threads = 0;
  unsigned long long sink = 0;
#pragma omp parallel num_threads(2) reduction(+ : sink)
  {
#pragma omp for
    for (long i = 0; i < 8; i++) sink += work(i);
#pragma omp single
    {
      threads = omp_get_num_threads();
      for (long r = 0; r < nregions; r++) {
#pragma omp task shared(done, inner_teams)
        {
#pragma omp parallel num_threads(2)
          {
#pragma omp single
            {
#pragma omp atomic
              inner_teams += omp_get_num_threads();
              for (long t = 0; t < ntasks; t++) {
#pragma omp task shared(done)
                {
                  work(r * ntasks + t);
#pragma omp atomic
                  done++;
                }
              }
            }
          }
        }
      }
    }
  }
  int good = done == nregions * ntasks && inner_teams == 2 * nregions;
  printf("nested nregions=%ld ntasks=%ld threads=%d tasks=%ld regions=%ld sink=%llu %s\n", nregions,
         ntasks, threads, nregions * (1 + ntasks), 1 + nregions, sink & 1, good ? "OK" : "FAILED");
  return good ? 0 : 1;
}
