// One task construct the compiler copies: a loop of 8 tasks unrolled in full (8 copies, 8 code
// addresses, one source location) and a task in an inline function called from 3 places (3
// copies). Options like BOTS's: "-r N" rounds, "-c" (check, ignored), "-f NAME" (ignored); like
// BOTS, main marks the options it parsed by rewriting them in place ("-r" becomes "-*").
// Prints: tasks=<created> sum=<sum of the task values> OK
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long sum;

static void add(int v) {
#pragma omp atomic
  sum += v;
}

static inline __attribute__((always_inline)) void spawn(int v) {
#pragma omp task firstprivate(v)
  add(v);
}

int main(int argc, char** argv) {
  int rounds = 1;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] != '-') continue;
    if (argv[i][1] == 'r' && i + 1 < argc) rounds = atoi(argv[i + 1]);
    argv[i][1] = '*';
  }
  if (rounds < 1) rounds = 1;
#pragma omp parallel
#pragma omp single
  for (int r = 0; r < rounds; ++r) {
#if defined(__clang__)
#pragma clang loop unroll(full)
#else
#pragma GCC unroll 8
#endif
    for (int i = 0; i < 8; ++i) {
#pragma omp task firstprivate(i)
      add(i);
    }
    spawn(100);
    spawn(200);
    spawn(300);
#pragma omp taskwait
  }
  long expect = rounds * (28L + 600L);
  printf("tasks=%d sum=%ld %s\n", rounds * 11, sum, sum == expect ? "OK" : "FAILED");
  return sum == expect ? 0 : 1;
}
