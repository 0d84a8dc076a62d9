// api_raii.cpp -- the user API from C++: tasklens::Region scopes inside tasks.
// Prints: api_raii sum=S tasks=K OK
#include <tasklens/tasklens.h>

#include <cstdio>

static long work(int i) {
  tasklens::Region r("work");  // ends with the scope
  long s = 0;
  for (int k = 0; k <= i; ++k) s += k;
  return s;
}

int main() {
  const int n = 20;
  long sum = 0;
#pragma omp parallel
#pragma omp single
  {
    tasklens::Region outer("spawn");
    for (int i = 0; i < n; ++i) {
#pragma omp task shared(sum)
      {
        tasklens_param_int("i", i);
        long s = work(i);
#pragma omp atomic
        sum += s;
      }
    }
#pragma omp taskwait
  }
  long expect = 0;
  for (int i = 0; i < n; ++i) expect += long(i) * (i + 1) / 2;
  std::printf("api_raii sum=%ld tasks=%d %s\n", sum, n, sum == expect ? "OK" : "FAILED");
  return sum == expect ? 0 : 1;
}
