/* crash.c -- an OpenMP task program that ends badly, for the recorder's crash tests.
 *
 * Phase 1: a `single` creates NTASKS small tasks and waits for them; then the program prints
 * "phase1 tasks=NTASKS" (flushed). Phase 2 depends on MODE:
 *   abort  20 more tasks; once all 20 exist, task 10 calls abort()            (SIGABRT mid-run)
 *   segv   the same, but task 10 writes through a null pointer               (SIGSEGV mid-run)
 *   wait   one more task prints "ready" and then sleeps for ever, the other threads wait in the
 *          barrier: the test ends it with SIGINT or SIGTERM
 *   loop   tasks for ever, in batches of 100 joined by a taskwait; "ready" after the first batch:
 *          the test ends it with SIGKILL
 *   segv-all  every thread of a new team writes through a null pointer at once, after a barrier
 *          (two fatal signals in flight: the recorder's handler must still flush the trace)
 * So the trace of an abort/segv run holds exactly NTASKS + 20 task creations, a wait run NTASKS + 1.
 *
 * Usage: crash abort|segv|wait|loop|segv-all [NTASKS=1000]
 */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile unsigned long sink;

static void work(long i) {
  unsigned long x = (unsigned long)i;
  for (int k = 0; k < 200; k++) x = x * 6364136223846793005ul + 1442695040888963407ul;
  sink += x;
}

static int all_created; /* set once every phase-2 task exists (atomic builtins) */

static void phase2_fatal(int segv) {
#pragma omp parallel
#pragma omp single
  {
    for (long i = 0; i < 20; i++) {
#pragma omp task firstprivate(i)
      {
        if (i == 10) {
          while (!__atomic_load_n(&all_created, __ATOMIC_ACQUIRE)) {
          }
          if (segv) {
            int* volatile null = NULL; /* volatile: not folded into a trap instruction */
            *null = 1;
          } else {
            abort();
          }
        }
        work(i);
      }
    }
    __atomic_store_n(&all_created, 1, __ATOMIC_RELEASE);
#pragma omp taskwait
  }
}

static void phase2_fault_everywhere(void) {
#pragma omp parallel
  {
#pragma omp barrier
    int* volatile null = NULL;
    *null = omp_get_thread_num();
  }
}

static void phase2_wait(void) {
#pragma omp parallel
#pragma omp single
  {
#pragma omp task
    {
      printf("ready\n");
      fflush(stdout);
      for (;;) pause();
    }
  }
}

static void phase2_loop(void) {
#pragma omp parallel
#pragma omp single
  for (long batch = 0;; batch++) {
    for (long i = 0; i < 100; i++) {
#pragma omp task firstprivate(i)
      work(i);
    }
#pragma omp taskwait
    if (batch == 0) {
      printf("ready\n");
      fflush(stdout);
    }
  }
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: crash abort|segv|wait|loop [NTASKS=1000]\n");
    return 2;
  }
  const char* mode = argv[1];
  long ntasks = argc > 2 ? atol(argv[2]) : 1000;
#pragma omp parallel
#pragma omp single
  {
    for (long i = 0; i < ntasks; i++) {
#pragma omp task firstprivate(i)
      work(i);
    }
#pragma omp taskwait
  }
  printf("phase1 tasks=%ld\n", ntasks);
  fflush(stdout);
  if (strcmp(mode, "abort") == 0) phase2_fatal(0);
  if (strcmp(mode, "segv") == 0) phase2_fatal(1);
  if (strcmp(mode, "segv-all") == 0) phase2_fault_everywhere();
  if (strcmp(mode, "wait") == 0) phase2_wait();
  if (strcmp(mode, "loop") == 0) phase2_loop();
  fprintf(stderr, "crash: unknown mode %s\n", mode);
  return 2;
}
