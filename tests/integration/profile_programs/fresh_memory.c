/* fresh_memory.c -- two task constructs of about equal work: the first touches fresh memory
 * (a new anonymous mapping per task, one store per page: one page fault each), the second only
 * computes. `tasklens run --counters page-faults` must put the faults on the first.
 * Prints: tasks=T pages=P OK, P the pages each fresh-memory task touched. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <omp.h>
#include <stdio.h>
#include <sys/mman.h>

#define TASKS 16
#define PAGES 1024

static volatile double sink;

static void touch_fresh(void) {
  size_t bytes = (size_t)PAGES * 4096;
  char* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return;
  for (size_t k = 0; k < bytes; k += 4096) p[k] = 1;
  sink += p[bytes - 1];
  munmap(p, bytes);
}

static void compute(void) {
  double x = 0;
  for (int k = 0; k < 2000000; ++k) x += k * 0.5;
  sink += x;
}

int main(void) {
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < TASKS; ++i) {
#pragma omp task
    touch_fresh();
#pragma omp task
    compute();
  }
  printf("tasks=%d pages=%d OK\n", 2 * TASKS, PAGES);
  return 0;
}
