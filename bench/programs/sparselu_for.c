// sparselu_for: LU factorisation (no pivoting) of a sparse block matrix, a task per block
// operation, the tasks created inside `for` worksharing loops so that every thread creates some
// (BOTS "sparselu" for version). The matrix is NB x NB blocks of BS x BS floats; absent blocks are
// NULL and get allocated when fill-in reaches them. Step kk: lu0 on the diagonal block in a
// `single`, then `for` loops creating a task per present block of row kk (fwd) and column kk
// (bdiv), a barrier, then a `for` loop over the rows creating a task per updated block of the
// trailing matrix (bmod), a barrier.
// Usage: sparselu_for NB BS | tiny | small | medium
#define _POSIX_C_SOURCE 200809L
#include "sparselu_common.h"

static void usage(void) {
  fprintf(stderr, "usage: sparselu_for NB BS | tiny | small | medium\n");
  exit(2);
}

static void sparselu_tasks(real** M) {
#pragma omp parallel
  for (int kk = 0; kk < NB; ++kk) {
    real* diag = M[kk * NB + kk];
#pragma omp single
    lu0(diag);
    // implicit barrier: diag is factorised
#pragma omp for nowait
    for (int jj = kk + 1; jj < NB; ++jj) {
      real* col = M[kk * NB + jj];
      if (!col) continue;
#pragma omp task firstprivate(diag, col)
      fwd(diag, col);
    }
#pragma omp for
    for (int ii = kk + 1; ii < NB; ++ii) {
      real* row = M[ii * NB + kk];
      if (!row) continue;
#pragma omp task firstprivate(diag, row)
      bdiv(diag, row);
    }
    // the implicit barrier completes the fwd and bdiv tasks
#pragma omp for
    for (int ii = kk + 1; ii < NB; ++ii) {
      real* row = M[ii * NB + kk];
      if (!row) continue;
      for (int jj = kk + 1; jj < NB; ++jj) {
        real* col = M[kk * NB + jj];
        if (!col) continue;
        real* inner = M[ii * NB + jj];  // row ii is only touched by this iteration
        if (!inner) inner = M[ii * NB + jj] = alloc_block();
#pragma omp task firstprivate(row, col, inner)
        bmod(row, col, inner);
      }
    }
    // the implicit barrier completes the bmod tasks
  }
}

int main(int argc, char** argv) {
  return sparselu_main(argc, argv, "sparselu_for", sparselu_tasks, /*lu0_is_task=*/0);
}
