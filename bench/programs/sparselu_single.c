// sparselu_single: LU factorisation (no pivoting) of a sparse block matrix, a task per block
// operation, all tasks created by one thread inside `single` (BOTS "sparselu" single version).
// The matrix is NB x NB blocks of BS x BS floats; absent blocks are NULL and get allocated when
// fill-in reaches them. Step kk: lu0 on the diagonal block (by the creator), then a task per
// present block of row kk (fwd) and column kk (bdiv), taskwait, then a task per updated block
// of the trailing matrix (bmod), taskwait.
// Usage: sparselu_single NB BS | tiny | small | medium
#define _POSIX_C_SOURCE 200809L
#include "sparselu_common.h"

static void usage(void) {
  fprintf(stderr, "usage: sparselu_single NB BS | tiny | small | medium\n");
  exit(2);
}

static void sparselu_tasks(real** M) {
#pragma omp parallel
#pragma omp single
  for (int kk = 0; kk < NB; ++kk) {
    real* diag = M[kk * NB + kk];
    lu0(diag);
    for (int jj = kk + 1; jj < NB; ++jj) {
      real* col = M[kk * NB + jj];
      if (!col) continue;
#pragma omp task firstprivate(diag, col)
      fwd(diag, col);
    }
    for (int ii = kk + 1; ii < NB; ++ii) {
      real* row = M[ii * NB + kk];
      if (!row) continue;
#pragma omp task firstprivate(diag, row)
      bdiv(diag, row);
    }
#pragma omp taskwait
    for (int ii = kk + 1; ii < NB; ++ii) {
      real* row = M[ii * NB + kk];
      if (!row) continue;
      for (int jj = kk + 1; jj < NB; ++jj) {
        real* col = M[kk * NB + jj];
        if (!col) continue;
        real* inner = M[ii * NB + jj];
        if (!inner) inner = M[ii * NB + jj] = alloc_block();
#pragma omp task firstprivate(row, col, inner)
        bmod(row, col, inner);
      }
    }
#pragma omp taskwait
  }
}

int main(int argc, char** argv) {
  return sparselu_main(argc, argv, "sparselu_single", sparselu_tasks, /*lu0_is_task=*/0);
}
