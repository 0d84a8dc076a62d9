// cholesky_dep: blocked Cholesky factorisation A = L L^T of a dense symmetric positive definite
// matrix with task dependences (the KaStORS/PLASMA tiled-Cholesky shape). The lower triangle
// of the N x N matrix is held as NB x NB blocks of BS x BS doubles. One thread creates every
// task: potrf on the diagonal block, trsm on the blocks below it, syrk on the later diagonal
// blocks and gemm on the later off-diagonal blocks, ordered only by `depend` clauses on the
// blocks (in: blocks read, inout: block updated). A single taskwait ends the factorisation.
// Usage: cholesky_dep N BS | tiny | small | medium   (BS divides N)
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

static long N, BS, NB;

static void usage(void) {
  fprintf(stderr, "usage: cholesky_dep N BS | tiny | small | medium   (BS divides N)\n");
  exit(2);
}

// Entry (i, j) of the SPD input: symmetric, off-diagonal in [-1, 1), diagonal N + [0, 1),
// strictly diagonally dominant with a positive diagonal.
static double a_entry(long i, long j) {
  if (i < j) {
    long t = i;
    i = j;
    j = t;
  }
  double u = (double)(hash64((uint64_t)i * 0x100000001ull + (uint64_t)j) >> 11) * 0x1.0p-53;
  return i == j ? (double)N + u : 2.0 * u - 1.0;
}

// ---- block kernels (row-major BS x BS) ----------------------------------------------------

// a := its lower Cholesky factor (the strict upper part is set to 0).
static void potrf(double* a) {
  for (long j = 0; j < BS; ++j) {
    double d = a[j * BS + j];
    for (long k = 0; k < j; ++k) d -= a[j * BS + k] * a[j * BS + k];
    d = sqrt(d);
    a[j * BS + j] = d;
    for (long i = j + 1; i < BS; ++i) {
      double s = a[i * BS + j];
      for (long k = 0; k < j; ++k) s -= a[i * BS + k] * a[j * BS + k];
      a[i * BS + j] = s / d;
    }
    for (long k = j + 1; k < BS; ++k) a[j * BS + k] = 0.0;
  }
}

// b := b L^-T, L = l lower triangular.
static void trsm(const double* l, double* b) {
  for (long r = 0; r < BS; ++r) {
    double* x = b + r * BS;
    for (long j = 0; j < BS; ++j) {
      double s = x[j];
      for (long k = 0; k < j; ++k) s -= x[k] * l[j * BS + k];
      x[j] = s / l[j * BS + j];
    }
  }
}

// c := c - a a^T (the whole block; only its lower triangle is used later).
static void syrk(const double* a, double* c) {
  for (long i = 0; i < BS; ++i)
    for (long j = 0; j <= i; ++j) {
      double s = 0.0;
      for (long k = 0; k < BS; ++k) s += a[i * BS + k] * a[j * BS + k];
      c[i * BS + j] -= s;
    }
}

// c := c - a b^T.
static void gemm(const double* a, const double* b, double* c) {
  for (long i = 0; i < BS; ++i)
    for (long j = 0; j < BS; ++j) {
      double s = 0.0;
      for (long k = 0; k < BS; ++k) s += a[i * BS + k] * b[j * BS + k];
      c[i * BS + j] -= s;
    }
}

// ---- factorisation ------------------------------------------------------------------------

#define BLK(i, j) (A[(i) * NB + (j)])

static void cholesky_tasks(double** A) {
#pragma omp parallel
#pragma omp single
  {
    for (long k = 0; k < NB; ++k) {
      double* akk = BLK(k, k);
#pragma omp task firstprivate(akk) depend(inout : akk[0])
      potrf(akk);
      for (long i = k + 1; i < NB; ++i) {
        double* aik = BLK(i, k);
#pragma omp task firstprivate(akk, aik) depend(in : akk[0]) depend(inout : aik[0])
        trsm(akk, aik);
      }
      for (long i = k + 1; i < NB; ++i) {
        double* aik = BLK(i, k);
        double* aii = BLK(i, i);
#pragma omp task firstprivate(aik, aii) depend(in : aik[0]) depend(inout : aii[0])
        syrk(aik, aii);
        for (long j = k + 1; j < i; ++j) {
          double* ajk = BLK(j, k);
          double* aij = BLK(i, j);
#pragma omp task firstprivate(aik, ajk, aij) depend(in : aik[0], ajk[0]) depend(inout : aij[0])
          gemm(aik, ajk, aij);
        }
      }
    }
#pragma omp taskwait
  }
}

int main(int argc, char** argv) {
  if (argc == 2 && strcmp(argv[1], "tiny") == 0) {
    N = 768, BS = 64;
  } else if (argc == 2 && strcmp(argv[1], "small") == 0) {
    N = 3072, BS = 128;
  } else if (argc == 2 && strcmp(argv[1], "medium") == 0) {
    N = 4096, BS = 128;
  } else if (argc == 3) {
    N = parse_long(argv[1], 1, 1L << 16);
    BS = parse_long(argv[2], 1, 1L << 16);
    if (N % BS != 0) usage();
  } else {
    usage();
  }
  NB = N / BS;

  double** A = calloc((size_t)(NB * NB), sizeof(double*));
  for (long bi = 0; bi < NB; ++bi)
    for (long bj = 0; bj <= bi; ++bj) {
      double* b = malloc((size_t)(BS * BS) * sizeof(double));
      if (!b) {
        fprintf(stderr, "cholesky_dep: out of memory\n");
        return 2;
      }
      for (long r = 0; r < BS; ++r)
        for (long c = 0; c < BS; ++c) b[r * BS + c] = a_entry(bi * BS + r, bj * BS + c);
      BLK(bi, bj) = b;
    }

#pragma omp parallel
  {  // warm-up: start the thread team outside the timed part
  }

  double t0 = omp_get_wtime();
  cholesky_tasks(A);
  double t1 = omp_get_wtime();

  // Freivalds-style check with random vectors: L (L^T x) must equal A x.
  int ok = 1;
  double *x = malloc((size_t)N * sizeof(double)), *y = malloc((size_t)N * sizeof(double));
  for (int trial = 0; trial < 2 && ok; ++trial) {
    for (long i = 0; i < N; ++i)
      x[i] = (double)(hash64(1000 + trial * N + i) >> 11) * 0x1.0p-52 - 1;
    // y = L^T x: y[j] = sum_{i >= j} L[i][j] x[i]
    for (long j = 0; j < N; ++j) y[j] = 0.0;
    for (long i = 0; i < N; ++i) {
      for (long j = 0; j <= i; ++j) y[j] += BLK(i / BS, j / BS)[(i % BS) * BS + j % BS] * x[i];
    }
    // L y against A x
    double worst = 0.0;
    for (long i = 0; i < N; ++i) {
      double lz = 0.0, ax = 0.0;
      for (long j = 0; j <= i; ++j) lz += BLK(i / BS, j / BS)[(i % BS) * BS + j % BS] * y[j];
      for (long j = 0; j < N; ++j) ax += a_entry(i, j) * x[j];
      double err = fabs(lz - ax);
      if (!isfinite(lz)) ok = 0;
      if (err > worst) worst = err;
    }
    // |A x| <= 2N; rounding stays far below 1e-9 N
    if (!(worst <= 1e-9 * (double)N)) ok = 0;
  }
  free(x);
  free(y);

  // potrf: NB, trsm and syrk: NB(NB-1)/2 each, gemm: NB(NB-1)(NB-2)/6
  long tasks = NB + NB * (NB - 1) + NB * (NB - 1) * (NB - 2) / 6;
  printf("cholesky_dep n=%ld bs=%ld threads=%d time=%.6f tasks=%ld %s\n", N, BS,
         omp_get_max_threads(), t1 - t0, tasks, ok ? "OK" : "FAILED");
  for (long b = 0; b < NB * NB; ++b) free(A[b]);
  free(A);
  return ok ? 0 : 1;
}
