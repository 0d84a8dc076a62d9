/* stress.c -- OpenMP programs that push the recorder to its limits, for bench/stress/run.sh
 * (issue 15). Every mode prints one line "stress MODE ... OK" before it ends normally.
 *
 *   events N   about N events: batches of 1000 empty tasks from a `single`, joined by taskwait
 *              (each task is 3 events: create, schedule in, schedule out; 751032 events for
 *              N = 10^6 with 2 threads)
 *   nested D   parallel regions nested D deep (2 threads each, max-active-levels set), tasks in
 *              the innermost ones
 *   exit       exit(3) from a task in the middle of a parallel region
 *   segv       a write through a null pointer from a task in the middle of a parallel region
 *
 * Usage: stress events N | nested D | exit | segv
 */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile long sink;

static long events(long n) {
  long batches = n / 3000 > 0 ? n / 3000 : 1, tasks = 0;
#pragma omp parallel
#pragma omp single
  for (long b = 0; b < batches; b++) {
    for (int i = 0; i < 1000; i++) {
#pragma omp task
      sink++;
    }
#pragma omp taskwait
    tasks += 1000;
  }
  return tasks;
}

static long nested(int depth) {
  long tasks = 0;
  if (depth == 0) {
    for (int i = 0; i < 10; i++) {
#pragma omp task
      sink++;
    }
#pragma omp taskwait
    return 10;
  }
#pragma omp parallel num_threads(2) reduction(+ : tasks)
  tasks += nested(depth - 1);
  return tasks;
}

/* Ends the process from inside a task: exit(3), or a fault (SIGSEGV). */
static void die(int segv) {
  if (segv) {
    int* volatile null = NULL; /* volatile: not folded into a trap instruction */
    *null = 1;
  }
  printf("stress exit at task 500\n");
  fflush(stdout);
  exit(3);
}

static void die_in_region(int segv) {
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < 1000; i++) {
#pragma omp task firstprivate(i)
    if (i == 500) die(segv);
    else sink += i;
  }
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "events") == 0 && argc > 2) {
    long n = atol(argv[2]);
    printf("stress events tasks=%ld OK\n", events(n));
  } else if (strcmp(mode, "nested") == 0 && argc > 2) {
    int depth = atoi(argv[2]);
    omp_set_max_active_levels(depth + 1);
    long tasks = nested(depth);
    printf("stress nested depth=%d tasks=%ld %s\n", depth, tasks,
           tasks == 10l << depth ? "OK" : "FAILED");
  } else if (strcmp(mode, "exit") == 0 || strcmp(mode, "segv") == 0) {
    die_in_region(strcmp(mode, "segv") == 0);
  } else {
    fprintf(stderr, "usage: stress events N | nested D | exit | segv\n");
    return 2;
  }
  return 0;
}
