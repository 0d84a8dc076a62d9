// sparselu_common.h: what the three sparselu programs (sparselu_single, sparselu_for,
// sparselu_dep) share: the sparse block matrix, the block kernels lu0/fwd/bdiv/bmod, the serial
// factorisation that checks the tasking one and counts its tasks, and main(). Each program holds
// only its tasking factorisation and its usage().
#ifndef TASKLENS_SPARSELU_COMMON_H
#define TASKLENS_SPARSELU_COMMON_H

#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

typedef float real;
static int NB, BS;

// ---- matrix -------------------------------------------------------------------------------

// Sparsity pattern: a tridiagonal band of blocks plus about 15% pseudo-random blocks.
static int block_present(int i, int j) {
  if (i - j <= 1 && j - i <= 1) return 1;
  return hash64(((uint64_t)i << 32) ^ (uint64_t)j ^ 0x5A5A0000ull) % 100 < 15;
}

static real* alloc_block(void) {
  real* b = calloc((size_t)BS * BS, sizeof(real));
  if (!b) {
    fprintf(stderr, "sparselu: out of memory\n");
    exit(2);
  }
  return b;
}

// Entries in [-1, 1); the diagonal gets NB*BS added, so the matrix is strictly diagonally
// dominant and LU without pivoting is stable (fill-in keeps the dominance).
static real** generate(void) {
  real** M = calloc((size_t)NB * NB, sizeof(real*));
  for (int bi = 0; bi < NB; ++bi)
    for (int bj = 0; bj < NB; ++bj) {
      if (!block_present(bi, bj)) continue;
      real* b = alloc_block();
      for (int r = 0; r < BS; ++r)
        for (int c = 0; c < BS; ++c) {
          uint64_t gr = (uint64_t)bi * BS + r, gc = (uint64_t)bj * BS + c;
          double u = (double)(hash64(gr * 1000003ull + gc) >> 11) * 0x1.0p-52 - 1.0;
          if (gr == gc) u += (double)NB * BS;
          b[r * BS + c] = (real)u;
        }
      M[bi * NB + bj] = b;
    }
  return M;
}

static void free_matrix(real** M) {
  for (long i = 0; i < (long)NB * NB; ++i) free(M[i]);
  free(M);
}

// ---- block kernels ------------------------------------------------------------------------

// In-place LU of a diagonal block: unit lower L below the diagonal, U on and above it.
static void lu0(real* d) {
  for (int k = 0; k < BS; ++k)
    for (int i = k + 1; i < BS; ++i) {
      d[i * BS + k] /= d[k * BS + k];
      real l = d[i * BS + k];
      for (int j = k + 1; j < BS; ++j) d[i * BS + j] -= l * d[k * BS + j];
    }
}

// Row block: col := L^-1 col, L the unit lower factor of diag.
static void fwd(const real* diag, real* col) {
  for (int k = 0; k < BS; ++k)
    for (int i = k + 1; i < BS; ++i) {
      real l = diag[i * BS + k];
      for (int j = 0; j < BS; ++j) col[i * BS + j] -= l * col[k * BS + j];
    }
}

// Column block: row := row U^-1, U the upper factor of diag.
static void bdiv(const real* diag, real* row) {
  for (int i = 0; i < BS; ++i)
    for (int k = 0; k < BS; ++k) {
      row[i * BS + k] /= diag[k * BS + k];
      real a = row[i * BS + k];
      for (int j = k + 1; j < BS; ++j) row[i * BS + j] -= a * diag[k * BS + j];
    }
}

// Trailing update: inner -= row * col.
static void bmod(const real* row, const real* col, real* inner) {
  for (int i = 0; i < BS; ++i)
    for (int k = 0; k < BS; ++k) {
      real a = row[i * BS + k];
      for (int j = 0; j < BS; ++j) inner[i * BS + j] -= a * col[k * BS + j];
    }
}

// ---- checking and running ----------------------------------------------------------------

// Same operations in the same order per block, serially; returns the number of tasks the
// tasking version creates (fwd + bdiv + bmod).
static long sparselu_serial(real** M) {
  long tasks = 0;
  for (int kk = 0; kk < NB; ++kk) {
    real* diag = M[kk * NB + kk];
    lu0(diag);
    for (int jj = kk + 1; jj < NB; ++jj)
      if (M[kk * NB + jj]) fwd(diag, M[kk * NB + jj]), ++tasks;
    for (int ii = kk + 1; ii < NB; ++ii)
      if (M[ii * NB + kk]) bdiv(diag, M[ii * NB + kk]), ++tasks;
    for (int ii = kk + 1; ii < NB; ++ii) {
      if (!M[ii * NB + kk]) continue;
      for (int jj = kk + 1; jj < NB; ++jj) {
        if (!M[kk * NB + jj]) continue;
        if (!M[ii * NB + jj]) M[ii * NB + jj] = alloc_block();
        bmod(M[ii * NB + kk], M[kk * NB + jj], M[ii * NB + jj]);
        ++tasks;
      }
    }
  }
  return tasks;
}

// Same block structure and every entry within a relative 1e-4 of the serial result.
static int same(real** A, real** B) {
  for (long b = 0; b < (long)NB * NB; ++b) {
    if (!A[b] != !B[b]) return 0;
    if (!A[b]) continue;
    for (long e = 0; e < (long)BS * BS; ++e) {
      double x = A[b][e], y = B[b][e];
      if (!isfinite(x) || fabs(x - y) > 1e-4 * fmax(1.0, fabs(y))) return 0;
    }
  }
  return 1;
}

// The program: NB BS or a size word; one matrix factorised by `factorise` (timed), a copy
// serially; the line "<name> nb= bs= threads= time= tasks= OK|FAILED". `lu0_is_task`: lu0 runs
// as a task too (one more task per step than the serial recount counts).
static int sparselu_main(int argc, char** argv, const char* name, void (*factorise)(real**),
                         int lu0_is_task) {
  if (argc == 2 && strcmp(argv[1], "tiny") == 0) {
    NB = 20, BS = 48;
  } else if (argc == 2 && strcmp(argv[1], "small") == 0) {
    NB = 50, BS = 80;
  } else if (argc == 2 && strcmp(argv[1], "medium") == 0) {
    NB = 50, BS = 128;
  } else if (argc == 3) {
    NB = (int)parse_long(argv[1], 1, 10000);
    BS = (int)parse_long(argv[2], 1, 10000);
  } else {
    usage();
  }

  real** M = generate();
  real** R = generate();

#pragma omp parallel
  {  // warm-up: start the thread team outside the timed part
  }

  double t0 = omp_get_wtime();
  factorise(M);
  double t1 = omp_get_wtime();

  long tasks = sparselu_serial(R) + (lu0_is_task ? NB : 0);
  int ok = same(M, R);
  printf("%s nb=%d bs=%d threads=%d time=%.6f tasks=%ld %s\n", name, NB, BS, omp_get_max_threads(),
         t1 - t0, tasks, ok ? "OK" : "FAILED");
  free_matrix(M);
  free_matrix(R);
  return ok ? 0 : 1;
}

#endif
