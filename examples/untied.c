/* untied.c -- untied tasks that yield and may migrate between threads.
 *
 * OpenMP pattern: NTASKS `task untied` tasks; each runs STEPS steps of computation with a
 * `taskyield` after every step, creates one (tied) child task in the middle, and ends with a
 * `taskwait` for that child. Every one of those is a task scheduling point where an untied task
 * may be suspended and resumed later, possibly by another thread.
 *
 * What a tool should see: tasks=2*NTASKS (NTASKS untied + NTASKS children), yields=NTASKS*STEPS
 * taskyield constructs, many suspensions/resumptions of the untied tasks, some of them on another
 * thread (migrations). The program counts the migrations its task bodies see: it polls
 * omp_get_thread_num() after every scheduling point of the body (child creation, taskyield,
 * taskwait), which catches every resumption of the body on another thread: body_migrations=M.
 * A tool may count more: clang 14 + libomp run an untied task in parts, and the first part is
 * empty (the body starts at the second switch-in), so a task whose first part ran on one thread
 * and whose body starts on another migrates before the program can see it. GCC's libgomp treats
 * untied tasks as tied: 0 there.
 * libomp also reports task_schedule(T, switch, T) when a suspended part is picked up again at once
 * by the same thread, and `yield` status only when the taskyield actually runs another task.
 * Usage:  untied [NTASKS=64]
 * Prints: untied ntasks=N steps=8 threads=T tasks=2N yields=8N body_migrations=M OK|FAILED
 */
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define STEPS 8
#define USAGE "usage: untied [NTASKS=64]\n"

/* Some deterministic computation (about 20 us): a chain of LCG steps. */
static unsigned long long work(long i, int step) {
  return lcg_steps((unsigned long long)i * 1000003ull + (unsigned long long)step, 20000);
}

/* After a scheduling point: has the task been resumed on another thread? */
#define NOTE_THREAD()                \
  do {                               \
    int now_ = omp_get_thread_num(); \
    if (now_ != where) {             \
      moves++;                       \
      where = now_;                  \
    }                                \
  } while (0)

int main(int argc, char** argv) {
  long ntasks = arg_long(argc, argv, 1, 64, 0, 100000000L, USAGE);
  unsigned long long* result = calloc((size_t)ntasks + 1, sizeof *result);
  long* migrations = calloc((size_t)ntasks + 1, sizeof *migrations);
  int threads = 0;
#pragma omp parallel
#pragma omp single
  {
    threads = omp_get_num_threads();
    for (long i = 0; i < ntasks; i++) {
#pragma omp task untied
      {
        int where = omp_get_thread_num();
        long moves = 0;
        unsigned long long acc = 0, child = 0;
        for (int step = 0; step < STEPS; step++) {
          acc += work(i, step);
          if (step == STEPS / 2) {
#pragma omp task shared(child)
            child = work(i, 100);
            NOTE_THREAD();
          }
#pragma omp taskyield
          NOTE_THREAD();
        }
#pragma omp taskwait
        NOTE_THREAD();
        result[i] = acc + child;
        migrations[i] = moves;
      }
    }
  }

  int good = 1;
  long total_moves = 0;
  for (long i = 0; i < ntasks; i++) {
    unsigned long long expect = work(i, 100);
    for (int step = 0; step < STEPS; step++) expect += work(i, step);
    if (result[i] != expect) good = 0;
    total_moves += migrations[i];
  }
  printf("untied ntasks=%ld steps=%d threads=%d tasks=%ld yields=%ld body_migrations=%ld %s\n",
         ntasks, STEPS, threads, 2 * ntasks, STEPS * ntasks, total_moves, good ? "OK" : "FAILED");
  free(result);
  free(migrations);
  return good ? 0 : 1;
}
