// strassen: Strassen's recursive matrix multiplication C = A * B with tasks (BOTS "strassen"
// shape). Each recursion level splits the N x N matrices in 2 x 2 quadrants and computes the
// seven Strassen products M1..M7 as seven tasks (each forms its operand sums, recurses, frees),
// then a taskwait and the quadrants of C are assembled from the products. At or below CUTOFF
// rows the product is the classic triple loop, so tasks are coarse (a leaf multiply).
// N must be CUTOFF * 2^k (or any N whose halvings down to <= CUTOFF are all even).
// Usage: strassen N [CUTOFF] | tiny | small | medium
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

static long cutoff = 64;

static void usage(void) {
  fprintf(stderr, "usage: strassen N [CUTOFF] | tiny | small | medium\n");
  exit(2);
}

static double* alloc_mat(long n) {
  double* m = malloc((size_t)(n * n) * sizeof(double));
  if (!m) {
    fprintf(stderr, "strassen: out of memory\n");
    exit(2);
  }
  return m;
}

// All matrices are row-major n x n views with a leading dimension (row stride).

// C = A * B, classic i-k-j loops.
static void mul_classic(long n, const double* A, long lda, const double* B, long ldb, double* C,
                        long ldc) {
  for (long i = 0; i < n; ++i) {
    double* c = C + i * ldc;
    for (long j = 0; j < n; ++j) c[j] = 0.0;
    for (long k = 0; k < n; ++k) {
      double a = A[i * lda + k];
      const double* b = B + k * ldb;
      for (long j = 0; j < n; ++j) c[j] += a * b[j];
    }
  }
}

// C = A + s * B (s = +1 or -1); C is a dense n x n matrix.
static void add(long n, const double* A, long lda, const double* B, long ldb, double s, double* C) {
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) C[i * n + j] = A[i * lda + j] + s * B[i * ldb + j];
}

static void strassen(long n, const double* A, long lda, const double* B, long ldb, double* C,
                     long ldc);

// P = (X1 + sx X2) * (Y1 + sy Y2); a NULL second operand means the operand is X1 (resp. Y1).
static void product(long h, const double* X1, const double* X2, double sx, long lda,
                    const double* Y1, const double* Y2, double sy, long ldb, double* P) {
  double *tx = NULL, *ty = NULL;
  const double* x = X1;
  const double* y = Y1;
  long ldx = lda, ldy = ldb;
  if (X2) {
    tx = alloc_mat(h);
    add(h, X1, lda, X2, lda, sx, tx);
    x = tx;
    ldx = h;
  }
  if (Y2) {
    ty = alloc_mat(h);
    add(h, Y1, ldb, Y2, ldb, sy, ty);
    y = ty;
    ldy = h;
  }
  strassen(h, x, ldx, y, ldy, P, h);
  free(tx);
  free(ty);
}

static void strassen(long n, const double* A, long lda, const double* B, long ldb, double* C,
                     long ldc) {
  if (n <= cutoff) {
    mul_classic(n, A, lda, B, ldb, C, ldc);
    return;
  }
  long h = n / 2;
  const double *A11 = A, *A12 = A + h, *A21 = A + h * lda, *A22 = A + h * lda + h;
  const double *B11 = B, *B12 = B + h, *B21 = B + h * ldb, *B22 = B + h * ldb + h;
  double* M[7];
  for (int i = 0; i < 7; ++i) M[i] = alloc_mat(h);

#pragma omp task
  product(h, A11, A22, +1, lda, B11, B22, +1, ldb, M[0]);  // M1 = (A11 + A22)(B11 + B22)
#pragma omp task
  product(h, A21, A22, +1, lda, B11, NULL, 0, ldb, M[1]);  // M2 = (A21 + A22) B11
#pragma omp task
  product(h, A11, NULL, 0, lda, B12, B22, -1, ldb, M[2]);  // M3 = A11 (B12 - B22)
#pragma omp task
  product(h, A22, NULL, 0, lda, B21, B11, -1, ldb, M[3]);  // M4 = A22 (B21 - B11)
#pragma omp task
  product(h, A11, A12, +1, lda, B22, NULL, 0, ldb, M[4]);  // M5 = (A11 + A12) B22
#pragma omp task
  product(h, A21, A11, -1, lda, B11, B12, +1, ldb, M[5]);  // M6 = (A21 - A11)(B11 + B12)
#pragma omp task
  product(h, A12, A22, -1, lda, B21, B22, +1, ldb, M[6]);  // M7 = (A12 - A22)(B21 + B22)
#pragma omp taskwait

  for (long i = 0; i < h; ++i)
    for (long j = 0; j < h; ++j) {
      long e = i * h + j;
      double m1 = M[0][e], m2 = M[1][e], m3 = M[2][e], m4 = M[3][e], m5 = M[4][e], m6 = M[5][e],
             m7 = M[6][e];
      C[i * ldc + j] = m1 + m4 - m5 + m7;
      C[i * ldc + j + h] = m3 + m5;
      C[(i + h) * ldc + j] = m2 + m4;
      C[(i + h) * ldc + j + h] = m1 - m2 + m3 + m6;
    }
  for (int i = 0; i < 7; ++i) free(M[i]);
}

int main(int argc, char** argv) {
  long n = 0;
  if (argc == 2 && strcmp(argv[1], "tiny") == 0) {
    n = 512, cutoff = 64;
  } else if (argc == 2 && strcmp(argv[1], "small") == 0) {
    n = 2048, cutoff = 64;
  } else if (argc == 2 && strcmp(argv[1], "medium") == 0) {
    n = 3072, cutoff = 96;
  } else if (argc == 2 || argc == 3) {
    n = parse_long(argv[1], 1, 1L << 16);
    if (argc == 3) cutoff = parse_long(argv[2], 1, 1L << 16);
  } else {
    usage();
  }
  // Every level above the cut-off halves n: count the levels, each needs an even n.
  long levels = 0, tasks = 0, pow7 = 1;
  for (long m = n; m > cutoff; m /= 2) {
    if (m % 2 != 0) {
      fprintf(stderr, "strassen: N=%ld halves to the odd size %ld above the cut-off %ld\n", n, m,
              cutoff);
      return 2;
    }
    ++levels;
    pow7 *= 7;
    tasks += pow7;  // 7 tasks per node, 7^level nodes per level
  }

  double *A = alloc_mat(n), *B = alloc_mat(n), *C = alloc_mat(n);
  uint64_t seed = 42;
  for (long i = 0; i < n * n; ++i) {
    A[i] = (double)(splitmix64(&seed) >> 11) * 0x1.0p-52 - 1.0;
    B[i] = (double)(splitmix64(&seed) >> 11) * 0x1.0p-52 - 1.0;
    C[i] = 0.0;
  }

#pragma omp parallel
  {  // warm-up: start the thread team outside the timed part
  }

  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  strassen(n, A, n, B, n, C, n);
  double t1 = omp_get_wtime();

  // Freivalds' check with random vectors: A (B x) must equal C x.
  int ok = 1;
  double *x = malloc((size_t)n * sizeof(double)), *bx = malloc((size_t)n * sizeof(double));
  for (int trial = 0; trial < 3 && ok; ++trial) {
    for (long i = 0; i < n; ++i) x[i] = (double)(splitmix64(&seed) >> 11) * 0x1.0p-52 - 1.0;
    for (long i = 0; i < n; ++i) {
      double s = 0.0;
      for (long j = 0; j < n; ++j) s += B[i * n + j] * x[j];
      bx[i] = s;
    }
    for (long i = 0; i < n; ++i) {
      double abx = 0.0, cx = 0.0;
      for (long j = 0; j < n; ++j) {
        abx += A[i * n + j] * bx[j];
        cx += C[i * n + j] * x[j];
      }
      // entries are in [-1, 1): |A B x| <= n^2; rounding stays far below 1e-9 n^2
      if (!isfinite(cx) || fabs(abx - cx) > 1e-9 * (double)n * (double)n) ok = 0;
    }
  }
  free(x);
  free(bx);

  printf("strassen n=%ld cutoff=%ld levels=%ld threads=%d time=%.6f tasks=%ld %s\n", n, cutoff,
         levels, omp_get_max_threads(), t1 - t0, tasks, ok ? "OK" : "FAILED");
  free(A);
  free(B);
  free(C);
  return ok ? 0 : 1;
}
