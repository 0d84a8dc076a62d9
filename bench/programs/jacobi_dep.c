// jacobi_dep: Jacobi sweeps for the Poisson equation -laplace(u) = f on the unit square with
// Dirichlet boundary u = 0, on an N x N interior grid cut into BS x BS blocks (KaStORS "jacobi"
// shape). One thread creates, for ITERS sweeps, one task per block and sweep; the task computes
// the block of the new iterate from the block and its four neighbours of the old iterate. The
// two grids alternate between sweeps; tasks are ordered only by `depend` clauses on the blocks'
// first elements: out on the block written, in on the five blocks read (this also orders the
// next write of a grid after every read of it). A single taskwait ends the sweeps.
// Usage: jacobi_dep N BS ITERS | tiny | small | medium   (BS divides N)
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

static long N, BS, NBLK, LD;  // LD = N + 2: rows include the boundary

static void usage(void) {
  fprintf(stderr, "usage: jacobi_dep N BS ITERS | tiny | small | medium   (BS divides N)\n");
  exit(2);
}

// First interior element of block (bi, bj) in grid g; the dependence object of that block.
static double* block(double* g, long bi, long bj) { return g + (1 + bi * BS) * LD + 1 + bj * BS; }

// dst = one Jacobi sweep of src on block (bi, bj); f is already scaled by h^2.
static void sweep_block(const double* src, double* dst, const double* f, long bi, long bj) {
  for (long i = 1 + bi * BS; i <= (bi + 1) * BS; ++i)
    for (long j = 1 + bj * BS; j <= (bj + 1) * BS; ++j)
      dst[i * LD + j] = 0.25 * (src[(i - 1) * LD + j] + src[(i + 1) * LD + j] +
                                src[i * LD + j - 1] + src[i * LD + j + 1] + f[i * LD + j]);
}

static void jacobi_tasks(double* u0, double* u1, const double* f, long iters) {
#pragma omp parallel
#pragma omp single
  {
    double *src = u0, *dst = u1;
    for (long it = 0; it < iters; ++it) {
      for (long bi = 0; bi < NBLK; ++bi)
        for (long bj = 0; bj < NBLK; ++bj) {
          // neighbours outside the grid are replaced by the block itself
          double* c = block(src, bi, bj);
          double* n = bi > 0 ? block(src, bi - 1, bj) : c;
          double* s = bi + 1 < NBLK ? block(src, bi + 1, bj) : c;
          double* w = bj > 0 ? block(src, bi, bj - 1) : c;
          double* e = bj + 1 < NBLK ? block(src, bi, bj + 1) : c;
          double* out = block(dst, bi, bj);
          (void)n, (void)s, (void)w, (void)e, (void)out;  // used in depend only: quiets GCC
#pragma omp task firstprivate(src, dst, bi, bj) depend(in : c[0], n[0], s[0], w[0], e[0]) \
    depend(out : out[0])
          sweep_block(src, dst, f, bi, bj);
        }
      double* t = src;
      src = dst;
      dst = t;
    }
#pragma omp taskwait
  }
}

int main(int argc, char** argv) {
  long iters = 0;
  if (argc == 2 && strcmp(argv[1], "tiny") == 0) {
    N = 512, BS = 64, iters = 20;
  } else if (argc == 2 && strcmp(argv[1], "small") == 0) {
    N = 2048, BS = 256, iters = 150;
  } else if (argc == 2 && strcmp(argv[1], "medium") == 0) {
    N = 4096, BS = 256, iters = 100;
  } else if (argc == 4) {
    N = parse_long(argv[1], 1, 1L << 16);
    BS = parse_long(argv[2], 1, 1L << 16);
    iters = parse_long(argv[3], 0, 1L << 30);
    if (N % BS != 0) usage();
  } else {
    usage();
  }
  NBLK = N / BS;
  LD = N + 2;
  size_t cells = (size_t)(LD * LD);
  double *u0 = calloc(cells, sizeof(double)), *u1 = calloc(cells, sizeof(double));
  double *r0 = calloc(cells, sizeof(double)), *r1 = calloc(cells, sizeof(double));
  double* f = calloc(cells, sizeof(double));
  if (!u0 || !u1 || !r0 || !r1 || !f) {
    fprintf(stderr, "jacobi_dep: out of memory\n");
    return 2;
  }
  // f = 2 (x(1-x) + y(1-y)), the right-hand side of u = x(1-x)y(1-y), scaled by h^2.
  double h = 1.0 / (double)(N + 1);
  for (long i = 1; i <= N; ++i)
    for (long j = 1; j <= N; ++j) {
      double x = (double)i * h, y = (double)j * h;
      f[i * LD + j] = 2.0 * (x * (1 - x) + y * (1 - y)) * h * h;
    }

#pragma omp parallel
  {  // warm-up: start the thread team outside the timed part
  }

  double t0 = omp_get_wtime();
  jacobi_tasks(u0, u1, f, iters);
  double t1 = omp_get_wtime();

  // Serial reference: the same sweeps, block by block; the result must be identical.
  double *src = r0, *dst = r1;
  for (long it = 0; it < iters; ++it) {
    for (long bi = 0; bi < NBLK; ++bi)
      for (long bj = 0; bj < NBLK; ++bj) sweep_block(src, dst, f, bi, bj);
    double* t = src;
    src = dst;
    dst = t;
  }
  const double* result = iters % 2 == 0 ? u0 : u1;
  int ok = 1;
  double umax = 0.0;
  for (long i = 1; i <= N && ok; ++i)
    for (long j = 1; j <= N; ++j) {
      double v = result[i * LD + j];
      if (!isfinite(v) || v != src[i * LD + j]) ok = 0;
      if (v > umax) umax = v;
    }
  // Jacobi from 0 increases monotonically towards the solution, whose maximum is 1/16.
  if (iters > 0 && !(umax > 0.0 && umax <= 0.0625 + 1e-12)) ok = 0;

  long tasks = iters * NBLK * NBLK;
  printf("jacobi_dep n=%ld bs=%ld iters=%ld threads=%d time=%.6f tasks=%ld %s\n", N, BS, iters,
         omp_get_max_threads(), t1 - t0, tasks, ok ? "OK" : "FAILED");
  free(u0);
  free(u1);
  free(r0);
  free(r1);
  free(f);
  return ok ? 0 : 1;
}
