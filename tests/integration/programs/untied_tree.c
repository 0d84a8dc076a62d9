/* untied_tree.c -- a wide tree of untied tasks with taskyield and taskwait, the shape of BOTS uts
 * that makes libomp run untied parts on top of other tasks.
 *
 * One (tied) task creates WIDTH untied children: more than a thread's task deque holds
 * (256 in libomp), so libomp runs the rest at once, and with them the next part of each untied
 * task (task_schedule(T, switch, T) on top of the creator, src/format/task_switch.h). Each child
 * is the root of a binary tree of untied tasks DEPTH levels deep; every task does a little work,
 * yields (taskyield), creates its two children, and waits for them (taskwait).
 *
 * Explicit tasks: 1 + WIDTH * (2^DEPTH - 1); task nesting (explicit ancestors): DEPTH + 1.
 * Usage:  untied_tree [WIDTH=1057] [DEPTH=5]   (defaults: 32,768 tasks, nesting 6)
 * Prints: untied_tree width=W depth=D tasks=N nesting=K sum=S OK|FAILED
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long spin(unsigned long long x) {
  for (int i = 0; i < 200; i++) x = x * 6364136223846793005ull + 1442695040888963407ull;
  return x >> 33;
}

/* A binary tree of untied tasks `levels` deep below (and including) this one. */
static unsigned long long node(unsigned long long seed, int levels) {
  unsigned long long here = spin(seed) & 0xff;
#pragma omp taskyield
  if (levels <= 1) return here;
  unsigned long long a = 0, b = 0;
#pragma omp task untied shared(a)
  a = node(seed * 2 + 1, levels - 1);
#pragma omp task untied shared(b)
  b = node(seed * 2 + 2, levels - 1);
#pragma omp taskwait
  return here + a + b;
}

/* The same sum without tasks, to check the result. */
static unsigned long long serial(unsigned long long seed, int levels) {
  unsigned long long here = spin(seed) & 0xff;
  if (levels <= 1) return here;
  return here + serial(seed * 2 + 1, levels - 1) + serial(seed * 2 + 2, levels - 1);
}

static long arg(int argc, char** argv, int i, long dflt) {
  if (argc <= i) return dflt;
  char* end = NULL;
  long v = strtol(argv[i], &end, 10);
  if (!end || *end || v < 1 || v > 100000) {
    fprintf(stderr, "usage: untied_tree [WIDTH=1057] [DEPTH=5]\n");
    exit(2);
  }
  return v;
}

int main(int argc, char** argv) {
  long width = arg(argc, argv, 1, 1057);
  int depth = (int)arg(argc, argv, 2, 5);
  if (depth > 20) depth = 20;
  unsigned long long* sums = calloc((size_t)width, sizeof *sums);
  if (!sums) return 1;
#pragma omp parallel
#pragma omp single
  {
    /* The creator is tied: an untied creator's own continuation can be run by libomp 14 on top of
     * a child it then waits for, and its taskwait spins for ever (seen under load). */
#pragma omp task
    {
      for (long i = 0; i < width; i++) {
#pragma omp task untied firstprivate(i)
        sums[i] = node((unsigned long long)i * 7919u, depth);
      }
#pragma omp taskwait
    }
  }
  unsigned long long sum = 0, want = 0;
  for (long i = 0; i < width; i++) {
    sum += sums[i];
    want += serial((unsigned long long)i * 7919u, depth);
  }
  long tasks = 1 + width * ((1L << depth) - 1);
  printf("untied_tree width=%ld depth=%d tasks=%ld nesting=%d sum=%llu %s\n", width, depth, tasks,
         depth + 1, sum, sum == want ? "OK" : "FAILED");
  free(sums);
  return sum == want ? 0 : 1;
}
