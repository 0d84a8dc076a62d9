// Tasks run in a barrier by a thread that waits there: thread 1 creates PARENTS tasks, each of
// which creates one child, then works alone for 20 ms; thread 0, already in the region's closing
// barrier, runs most of them there. libomp 14's GCC entry points gave the first creation of each
// task begun in that barrier the barrier's own code address (the `parallel` line).
// Usage: barrier_tasks [PARENTS=20]
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static void spin_us(double us) {
  double start = omp_get_wtime();
  while ((omp_get_wtime() - start) * 1e6 < us) {
  }
}

int main(int argc, char** argv) {
  int parents = argc > 1 ? atoi(argv[1]) : 20;
  long children = 0;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 1) {
      for (int i = 0; i < parents; ++i) {
#pragma omp task shared(children)
        {
#pragma omp task shared(children)
          {
            spin_us(100);
#pragma omp atomic
            children++;
          }
          spin_us(100);
        }
      }
      spin_us(20000);
    }
  }
  printf("parents=%d children=%ld %s\n", parents, children, children == parents ? "OK" : "FAILED");
  return children == parents ? 0 : 1;
}
