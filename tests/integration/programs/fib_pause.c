/* fib_pause.c -- recursive Fibonacci with a task per call (no cut-off), twice, with a pause
 * between the two runs for the recorder's overflow tests.
 *
 * Runs fib(N1) in a parallel region, prints "first tasks=K1" (flushed), waits for a line on
 * stdin (so that a test can let the recorder's writer go on), runs fib(N2), prints
 * "second tasks=K2 OK". K = 2*fib(N+1)-2 explicit tasks per run.
 *
 * Usage: fib_pause N1 N2
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long fib(int n) {
  if (n < 2) return n;
  long x, y;
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

static long run(int n) {
  long r = 0;
#pragma omp parallel
#pragma omp single
  r = fib(n);
  return r;
}

static long tasks(int n) { return n < 2 ? 0 : 2 + tasks(n - 1) + tasks(n - 2); }

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: fib_pause N1 N2\n");
    return 2;
  }
  int n1 = atoi(argv[1]), n2 = atoi(argv[2]);
  long r1 = run(n1);
  printf("first n=%d result=%ld tasks=%ld\n", n1, r1, tasks(n1));
  fflush(stdout);
  char line[64];
  if (!fgets(line, sizeof line, stdin)) return 3;
  long r2 = run(n2);
  printf("second n=%d result=%ld tasks=%ld OK\n", n2, r2, tasks(n2));
  return 0;
}
