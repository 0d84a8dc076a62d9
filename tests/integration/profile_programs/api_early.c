/* api_early.c -- the user API called before the OpenMP runtime starts, then inside it.
 *
 * Under `tasklens run` the recorder is loaded by the runtime at its first construct, so the calls
 * before it find no recorder and are dropped; they must not switch the API off: the regions
 * inside and after the parallel region are recorded.
 * Prints: api_early threads=T tasks=K OK
 */
#include <stdio.h>
#include <tasklens/tasklens.h>

int main(void) {
  for (int i = 0; i < 100; i++) {
    tasklens_region_begin("before_runtime");
    tasklens_param_int("early", i);
    tasklens_region_end("before_runtime");
  }
  int threads = 0, tasks = 0;
#pragma omp parallel reduction(+ : threads)
  {
    tasklens_region_begin("inside");
    threads += 1;
#pragma omp single
    for (int i = 0; i < 10; i++) {
#pragma omp task
      {
        tasklens_param_int("item", i % 3);
#pragma omp atomic
        tasks++;
      }
    }
    tasklens_region_end("inside");
  }
  tasklens_region_begin("after");
  tasklens_param_int("late", 7);
  tasklens_region_end("after");
  printf("api_early threads=%d tasks=%d %s\n", threads, tasks, tasks == 10 ? "OK" : "FAILED");
  return tasks == 10 ? 0 : 1;
}
