/* Two taskloops of different cost in one single region. libomp 14 reports both with the same code
 * address inside itself; tasklens must show them as two constructs at their own lines.
 * The lines of the two pragmas are found by the test through the markers in their comments. */
#include <omp.h>
#include <stdio.h>

static double spin(int n) {
  volatile double s = 0;
  for (int i = 0; i < n; i++) s += i * 0.5;
  return s;
}

int main(void) {
  int heavy = 0, light = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop grainsize(1) /* TASKLOOP_HEAVY */
    for (int i = 0; i < 40; i++) {
      spin(100000);
#pragma omp atomic
      heavy++;
    }
#pragma omp taskloop grainsize(1) /* TASKLOOP_LIGHT */
    for (int i = 0; i < 20; i++) {
      spin(100);
#pragma omp atomic
      light++;
    }
  }
  printf("two_taskloops heavy=%d light=%d %s\n", heavy, light,
         heavy == 40 && light == 20 ? "OK" : "FAILED");
  return heavy == 40 && light == 20 ? 0 : 1;
}
