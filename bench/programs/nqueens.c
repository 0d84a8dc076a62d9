// nqueens: count all placements of N non-attacking queens on an N x N board by backtracking,
// one task per valid partial placement (BOTS "nqueens" shape). Each task copies the board prefix,
// tries every column of the next row and spawns a task for each safe one; the solution counts
// of the children are summed after a taskwait.
// Usage: nqueens N [CUTOFF] | tiny | small | medium
//   CUTOFF is a recursion depth (row); rows >= CUTOFF are searched serially. 0 = no cut-off.
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

#define MAXN 20

static void usage(void) {
  fprintf(stderr, "usage: nqueens N [CUTOFF] | tiny | small | medium   (1 <= N <= %d)\n", MAXN);
  exit(2);
}

// Queen in row `row` at column `col` is safe against the queens of rows 0..row-1 in a[].
static int safe(const signed char* a, int row, int col) {
  for (int r = 0; r < row; ++r) {
    int c = a[r];
    if (c == col || c - col == row - r || col - c == row - r) return 0;
  }
  return 1;
}

// Serial search; *tasks counts the tasks the tasking version would create under `cutoff`.
static long search_serial(int n, int row, signed char* a, int cutoff, long* tasks) {
  if (row == n) return 1;
  long sols = 0;
  int spawn = cutoff == 0 || row < cutoff;
  for (int col = 0; col < n; ++col) {
    if (!safe(a, row, col)) continue;
    if (spawn) ++*tasks;
    a[row] = (signed char)col;
    sols += search_serial(n, row + 1, a, cutoff, tasks);
  }
  return sols;
}

static long search_task(int n, int row, const signed char* a, int cutoff) {
  if (row == n) return 1;
  if (cutoff > 0 && row >= cutoff) {
    signed char b[MAXN];
    long unused = 0;
    memcpy(b, a, (size_t)row);
    return search_serial(n, row, b, 0, &unused);
  }
  long sols[MAXN];
  for (int col = 0; col < n; ++col) {
    sols[col] = 0;
    if (!safe(a, row, col)) continue;
#pragma omp task firstprivate(col, row, n, cutoff) shared(sols)
    {
      signed char b[MAXN];
      memcpy(b, a, (size_t)row);
      b[row] = (signed char)col;
      sols[col] = search_task(n, row + 1, b, cutoff);
    }
  }
#pragma omp taskwait
  long total = 0;
  for (int col = 0; col < n; ++col) total += sols[col];
  return total;
}

// Known solution counts (OEIS A000170) for N = 0..20.
static const long known[MAXN + 1] = {1,        1,         0,          0,          2,
                                     10,       4,         40,         92,         352,
                                     724,      2680,      14200,      73712,      365596,
                                     2279184,  14772512,  95815104,   666090624,  4968057848,
                                     39029188884};

int main(int argc, char** argv) {
  int n = 0, cutoff = 0;
  if (argc == 2 && strcmp(argv[1], "tiny") == 0) {
    n = 10;
  } else if (argc == 2 && strcmp(argv[1], "small") == 0) {
    n = 13;
  } else if (argc == 2 && strcmp(argv[1], "medium") == 0) {
    n = 14;
  } else if (argc == 2 || argc == 3) {
    n = (int)parse_long(argv[1], 1, MAXN);
    if (argc == 3) cutoff = (int)parse_long(argv[2], 0, MAXN);
  } else {
    usage();
  }

#pragma omp parallel
  {  // warm-up: start the thread team outside the timed part
  }

  signed char board[MAXN] = {0};
  long result = 0;
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  result = search_task(n, 0, board, cutoff);
  double t1 = omp_get_wtime();

  long tasks = 0;
  long serial = search_serial(n, 0, board, cutoff, &tasks);
  int ok = result == serial && result == known[n];
  printf("nqueens n=%d cutoff=%d threads=%d time=%.6f tasks=%ld %s\n", n, cutoff,
         omp_get_max_threads(), t1 - t0, tasks, ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
