/* fib.c -- recursive Fibonacci, one task per recursive call.
 *
 * OpenMP pattern: fine-grained recursive tasking. Every call fib(n) with n >= 2 (and n >= cutoff)
 * creates two child tasks, `task shared(x)` and `task shared(y)`, and joins them with `taskwait`.
 * The root call runs in a `single` inside `parallel`; the other threads steal the tasks. Calls with
 * n < cutoff recurse serially (cutoff 0: no cut-off, every call with n >= 2 makes tasks).
 *
 * What a tool should see: exactly tasks=2*fib(N+1)-2 explicit tasks without cut-off (21890 for
 * N=20), each created by its parent call's task; one taskwait per task-creating call; very short
 * tasks, so overheads (creation, scheduling) dominate and idleness shows in the taskwaits.
 * Every call sets tasklens_param_int("n", n) (a no-op without tasklens): each task runs one call,
 * so the profile split by n counts the calls fib(n) made by tasks.
 *
 * Usage:  fib [N=20] [cutoff=0]
 * Prints: fib n=N cutoff=C result=fib(N) threads=T tasks=K OK|FAILED
 * tasks= is recomputed serially afterwards (t(n) = 2 + t(n-1) + t(n-2) for task-creating calls).
 */
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <tasklens/tasklens.h>

#define USAGE "usage: fib [N=20 (0..90)] [cutoff=0]\n"

static long long fib_serial(int n) {
  return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2);
}

static long long fib(int n, int cutoff) {
  tasklens_param_int("n", n); /* splits the profile of the task that runs this call by n */
  if (n < 2) return n;
  if (n < cutoff) return fib_serial(n);
  long long x, y;
#pragma omp task shared(x)
  x = fib(n - 1, cutoff);
#pragma omp task shared(y)
  y = fib(n - 2, cutoff);
#pragma omp taskwait
  return x + y;
}

int main(int argc, char** argv) {
  int n = (int)arg_long(argc, argv, 1, 20, 0, 90, USAGE);
  int cutoff = (int)arg_long(argc, argv, 2, 0, 0, 90, USAGE);
  long long result = 0;
  int threads = 0;
#pragma omp parallel
#pragma omp single
  {
    threads = omp_get_num_threads();
    result = fib(n, cutoff);
  }

  /* Serial recount, bottom-up: f[k] = fib(k), t[k] = tasks created by the call fib(k). */
  unsigned long long f[92], t[92];
  for (int k = 0; k <= n; k++) {
    f[k] = k < 2 ? (unsigned long long)k : f[k - 1] + f[k - 2];
    t[k] = (k < 2 || k < cutoff) ? 0 : 2 + t[k - 1] + t[k - 2];
  }
  int ok = (unsigned long long)result == f[n];
  printf("fib n=%d cutoff=%d result=%lld threads=%d tasks=%llu %s\n", n, cutoff, result, threads,
         t[n], ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
