// sparselu_dep: LU factorisation (no pivoting) of a sparse block matrix with task dependences
// (KaStORS "sparselu" shape). One thread creates every task of every step up front: lu0 on the
// diagonal block, fwd on the present blocks of row kk, bdiv on those of column kk and bmod on the
// updated blocks of the trailing matrix, ordered only by `depend` clauses on the blocks' slots
// (in: the blocks read, inout: the block written); a single taskwait ends the factorisation.
// Fill-in blocks are allocated by the creator when it creates the bmod that first touches them.
// The matrix is NB x NB blocks of BS x BS floats.
// Usage: sparselu_dep NB BS | tiny | small | medium
#define _POSIX_C_SOURCE 200809L
#include "sparselu_common.h"

static void usage(void) {
  fprintf(stderr, "usage: sparselu_dep NB BS | tiny | small | medium\n");
  exit(2);
}

// The dependence objects are the slots M[i * NB + j] of the block table (stable addresses,
// whether or not the block is allocated yet).
static void sparselu_tasks(real** M) {
#pragma omp parallel
#pragma omp single
  {
    for (int kk = 0; kk < NB; ++kk) {
      real* diag = M[kk * NB + kk];
#pragma omp task firstprivate(diag) depend(inout : M[kk * NB + kk])
      lu0(diag);
      for (int jj = kk + 1; jj < NB; ++jj) {
        real* col = M[kk * NB + jj];
        if (!col) continue;
#pragma omp task firstprivate(diag, col) depend(in : M[kk * NB + kk]) depend(inout : M[kk * NB + jj])
        fwd(diag, col);
      }
      for (int ii = kk + 1; ii < NB; ++ii) {
        real* row = M[ii * NB + kk];
        if (!row) continue;
#pragma omp task firstprivate(diag, row) depend(in : M[kk * NB + kk]) depend(inout : M[ii * NB + kk])
        bdiv(diag, row);
      }
      for (int ii = kk + 1; ii < NB; ++ii) {
        real* row = M[ii * NB + kk];
        if (!row) continue;
        for (int jj = kk + 1; jj < NB; ++jj) {
          real* col = M[kk * NB + jj];
          if (!col) continue;
          real* inner = M[ii * NB + jj];
          if (!inner) inner = M[ii * NB + jj] = alloc_block();
#pragma omp task firstprivate(row, col, inner) depend(in : M[ii * NB + kk], M[kk * NB + jj]) \
    depend(inout : M[ii * NB + jj])
          bmod(row, col, inner);
        }
      }
    }
#pragma omp taskwait
  }
}

int main(int argc, char** argv) {
  return sparselu_main(argc, argv, "sparselu_dep", sparselu_tasks, /*lu0_is_task=*/1);
}
