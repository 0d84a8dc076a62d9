// Spins PRELUDE ms on the initial thread before its first OpenMP construct, REGION ms on every
// thread of one parallel region, then EPILOGUE ms after it: the breakdown's serial time.
// Usage: serial_spin PRELUDE REGION EPILOGUE [teams] (milliseconds; `teams`: a host teams
// construct of two teams of one thread instead of the parallel region). Prints
// "spun=1 main_us=N" at the end (N: the time main took, in microseconds).
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void spin(double ms) {
  volatile unsigned long x = 0;
  for (double end = now() + ms * 1e-3; now() < end;) ++x;
}

// In a function of its own: clang asks the runtime for the thread's id at the entry of the
// function holding `teams`, which would start OpenMP (and the recorder) before the prelude.
__attribute__((noinline)) static void teams(double ms) {
#pragma omp teams num_teams(2) thread_limit(1)
  spin(ms);
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s PRELUDE_MS REGION_MS EPILOGUE_MS [teams]\n", argv[0]);
    return 2;
  }
  double start = now();
  spin(atof(argv[1]));
  if (argc > 4 && strcmp(argv[4], "teams") == 0) {
    teams(atof(argv[2]));
  } else {
#pragma omp parallel
    spin(atof(argv[2]));
  }
  spin(atof(argv[3]));
  printf("spun=1 main_us=%.0f\n", (now() - start) * 1e6);
  return 0;
}
