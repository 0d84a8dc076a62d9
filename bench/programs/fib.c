// fib: recursive Fibonacci with two tasks per call (BOTS "fib" shape).
// The pathological fine-grained case: a task does one addition and a taskwait.
// Usage: fib N [CUTOFF] | tiny | small | medium
//   CUTOFF is a recursion depth; calls at depth >= CUTOFF run serially. 0 = no cut-off.
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

static void usage(void) {
  fprintf(stderr, "usage: fib N [CUTOFF] | tiny | small | medium\n");
  exit(2);
}

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static long fib_task(int n, int depth, int cutoff) {
  if (n < 2) return n;
  if (cutoff > 0 && depth >= cutoff) return fib_serial(n);
  long x, y;
#pragma omp task shared(x) firstprivate(n, depth, cutoff)
  x = fib_task(n - 1, depth + 1, cutoff);
#pragma omp task shared(y) firstprivate(n, depth, cutoff)
  y = fib_task(n - 2, depth + 1, cutoff);
#pragma omp taskwait
  return x + y;
}

// Fibonacci number by iteration (reference value).
static long fib_iter(int n) {
  long a = 0, b = 1;
  for (int i = 0; i < n; ++i) {
    long t = a + b;
    a = b;
    b = t;
  }
  return a;
}

// Tasks created by fib_task(n, depth, cutoff), counted serially.
static long count_tasks(int n, int depth, int cutoff) {
  if (n < 2) return 0;
  if (cutoff > 0 && depth >= cutoff) return 0;
  return 2 + count_tasks(n - 1, depth + 1, cutoff) + count_tasks(n - 2, depth + 1, cutoff);
}

int main(int argc, char** argv) {
  int n = 0, cutoff = 0;
  if (argc == 2 && strcmp(argv[1], "tiny") == 0) {
    n = 22;
  } else if (argc == 2 && strcmp(argv[1], "small") == 0) {
    n = 29;
  } else if (argc == 2 && strcmp(argv[1], "medium") == 0) {
    n = 32;
  } else if (argc == 2 || argc == 3) {
    n = (int)parse_long(argv[1], 0, 60);
    if (argc == 3) cutoff = (int)parse_long(argv[2], 0, 60);
  } else {
    usage();
  }

#pragma omp parallel
  {  // warm-up: start the thread team outside the timed part
  }

  long result = 0;
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  result = fib_task(n, 0, cutoff);
  double t1 = omp_get_wtime();

  // Without cut-off every call with n >= 2 creates two tasks: 2 * (F(n+1) - 1).
  long tasks = cutoff == 0 ? 2 * (fib_iter(n + 1) - 1) : count_tasks(n, 0, cutoff);
  int ok = result == fib_iter(n);
  printf("fib n=%d cutoff=%d threads=%d time=%.6f tasks=%ld %s\n", n, cutoff, omp_get_max_threads(),
         t1 - t0, tasks, ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
