/* common.h -- the few helpers every example needs: reading a numeric argument, reading the
 * monotonic clock, busy-waiting, and a deterministic computation that gives tasks some work.
 *
 * All static inline, so that an example is still its own .c file plus this header, built by any
 * C11 compiler with -fopenmp. Include it first: it asks for POSIX 2008 (clock_gettime) before any
 * system header is read.
 */
#ifndef TASKLENS_EXAMPLES_COMMON_H
#define TASKLENS_EXAMPLES_COMMON_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Prints `usage` (one line, with its newline) on stderr and exits with status 2. */
static inline void usage_exit(const char* usage) {
  fprintf(stderr, "%s", usage);
  exit(2);
}

/* Command-line argument i as a whole number in [lo, hi], or `def` when there are fewer
 * arguments; anything else is a usage error. */
static inline long arg_long(int argc, char** argv, int i, long def, long lo, long hi,
                            const char* usage) {
  if (argc <= i) return def;
  char* end;
  long v = strtol(argv[i], &end, 10);
  if (*argv[i] == '\0' || *end != '\0' || v < lo || v > hi) usage_exit(usage);
  return v;
}

/* CLOCK_MONOTONIC in nanoseconds. */
static inline unsigned long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* Busy-waits until now_ns() reaches `end`; returns the reading that ended the wait. */
static inline unsigned long long spin_until_ns(unsigned long long end) {
  unsigned long long now;
  do now = now_ns();
  while (now < end);
  return now;
}

/* Busy-waits `ns` nanoseconds. */
static inline void spin_ns(unsigned long long ns) {
  spin_until_ns(now_ns() + ns);
}

/* `steps` steps of a 64-bit linear congruential generator from x: deterministic work (about a
 * nanosecond a step) whose result the compiler cannot drop, the same in a task and serially. */
static inline unsigned long long lcg_steps(unsigned long long x, int steps) {
  for (int k = 0; k < steps; k++) x = x * 6364136223846793005ull + 1442695040888963407ull;
  return x;
}

#endif
