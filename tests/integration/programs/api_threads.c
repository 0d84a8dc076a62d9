/* api_threads.c -- the user API called from every thread of a team, for the recorder's leak
 * test: built with AddressSanitizer, whose leak check (LSan) makes the program exit 1 if the
 * recorder loaded into it leaks (e.g. the per-thread name caches of threads that ended).
 *
 * Two parallel regions (the second with fewer threads, so that libomp's extra threads may end);
 * in each, every thread opens and closes regions named by its index and sets a parameter.
 * Prints "api_threads regions=R OK".
 *
 * Usage: api_threads
 */
#include <omp.h>
#include <stdio.h>
#include <tasklens/tasklens.h>

static const char* const kNames[] = {"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"};

static int team(int threads) {
  int regions = 0;
#pragma omp parallel num_threads(threads) reduction(+ : regions)
  {
    const char* name = kNames[omp_get_thread_num() % 8];
    for (int i = 0; i < 10; i++) {
      tasklens_region_begin(name);
      tasklens_param_int("i", i);
      tasklens_region_end(name);
      regions++;
    }
  }
  return regions;
}

int main(void) {
  int regions = team(4) + team(2);
  printf("api_threads regions=%d %s\n", regions, regions == 60 ? "OK" : "FAILED");
  return regions == 60 ? 0 : 1;
}
