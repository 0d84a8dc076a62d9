/* critical.c -- a contended critical section.
 *
 * OpenMP pattern: every thread of the team enters the same unnamed `critical` section N times and
 * does a little work inside (a counter increment and a short computation on shared state), with a
 * little work outside, so the threads keep queueing for the lock.
 *
 * What a tool should see: N*threads acquisitions of one critical section (mutex acquire/acquired/
 * released), time waiting for the lock (synchronization overhead, growing with threads), short
 * time inside.
 *
 * Usage:  critical [N=10000]
 * Prints: critical n=N threads=T entries=N*T counter=N*T OK|FAILED
 */
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define USAGE "usage: critical [N=10000]\n"

/* The shared computation: 50 LCG steps (the same whatever the order of the entries). */
static unsigned long long step(unsigned long long x) { return lcg_steps(x, 50); }

int main(int argc, char** argv) {
  long n = arg_long(argc, argv, 1, 10000, 0, 1000000000L, USAGE);
  long counter = 0;
  unsigned long long state = 1;
  int threads = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) threads = omp_get_num_threads();
    volatile unsigned long long outside = 0;
    for (long k = 0; k < n; k++) {
#pragma omp critical
      {
        counter++;
        state = step(state);
      }
      for (int w = 0; w < 20; w++) outside = outside + (unsigned long long)w;
    }
  }
  unsigned long long expect = 1;
  long entries = n * threads;
  for (long k = 0; k < entries; k++) expect = step(expect);
  int good = counter == entries && state == expect;
  printf("critical n=%ld threads=%d entries=%ld counter=%ld %s\n", n, threads, entries, counter,
         good ? "OK" : "FAILED");
  return good ? 0 : 1;
}
