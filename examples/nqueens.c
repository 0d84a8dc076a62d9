/* nqueens.c -- N-queens, BOTS style: one task per candidate placement.
 *
 * OpenMP pattern: recursive search with a task per column tried at each row; the task copies the
 * partial board, places its queen, checks validity and recurses; the parent joins its row's tasks
 * with `taskwait` and sums their solution counts (no atomics). Rows >= cutoff are searched serially
 * inside their task (cutoff 0: no cut-off, tasks at every depth).
 *
 * What a tool should see: many small tasks of one task construct, a deep creation tree (depth =
 * row, 0 for the root's children), many tasks that end immediately (invalid placement), taskwaits
 * at every level. Each task calls tasklens_param_int("depth", row) (include/tasklens/tasklens.h,
 * a no-op without tasklens): splitting the profile by `depth` shows n x (valid placements of
 * `depth` queens) tasks at each depth.
 *
 * Usage:  nqueens [N=8 (1..20)] [cutoff=0]
 * Prints: nqueens n=N cutoff=C solutions=S threads=T tasks=K OK|FAILED   (N=8: solutions=92)
 * tasks= comes from a serial recount of the same search afterwards.
 */
#include "common.h" /* first: it selects POSIX 2008 before any system header */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tasklens/tasklens.h>

#define MAXN 20
#define USAGE "usage: nqueens [N=8 (1..20)] [cutoff=0]\n"

/* Is the queen of row `row` (column a[row]) attacked by the queens of rows 0..row-1? */
static int ok(int row, const char* a) {
  for (int r = 0; r < row; r++) {
    int d = a[row] - a[r];
    if (d == 0 || d == row - r || d == r - row) return 0;
  }
  return 1;
}

/* Number of solutions completing the board a[0..row-1]. */
static long long search(int n, int row, const char* a, int cutoff) {
  if (row == n) return 1;
  long long sols[MAXN] = {0};
  for (int col = 0; col < n; col++) {
    if (cutoff == 0 || row < cutoff) {
#pragma omp task firstprivate(col) shared(sols)
      {
        int depth = row; /* depth = row */
        tasklens_param_int("depth", depth);
        char b[MAXN];
        memcpy(b, a, (size_t)depth);
        b[depth] = (char)col;
        if (ok(depth, b)) sols[col] = search(n, depth + 1, b, cutoff);
      }
    } else {
      char b[MAXN];
      memcpy(b, a, (size_t)row);
      b[row] = (char)col;
      if (ok(row, b)) sols[col] = search(n, row + 1, b, cutoff);
    }
  }
#pragma omp taskwait
  long long total = 0;
  for (int col = 0; col < n; col++) total += sols[col];
  return total;
}

/* The same search without tasks, counting the task constructs the parallel run executed. */
static void recount(int n, int row, char* a, int cutoff, long long* sols, long long* tasks) {
  if (row == n) {
    ++*sols;
    return;
  }
  if (cutoff == 0 || row < cutoff) *tasks += n;
  for (int col = 0; col < n; col++) {
    a[row] = (char)col;
    if (ok(row, a)) recount(n, row + 1, a, cutoff, sols, tasks);
  }
}

int main(int argc, char** argv) {
  static const long long known[] = {
      1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512, 95815104};
  int n = (int)arg_long(argc, argv, 1, 8, 1, MAXN, USAGE);
  int cutoff = (int)arg_long(argc, argv, 2, 0, 0, MAXN, USAGE);
  long long solutions = 0;
  int threads = 0;
  char empty[MAXN] = {0};
#pragma omp parallel
#pragma omp single
  {
    threads = omp_get_num_threads();
    solutions = search(n, 0, empty, cutoff);
  }

  char board[MAXN];
  long long sols = 0, tasks = 0;
  recount(n, 0, board, cutoff, &sols, &tasks);
  int good = solutions == sols && (n > 17 || solutions == known[n - 1]);
  printf("nqueens n=%d cutoff=%d solutions=%lld threads=%d tasks=%lld %s\n", n, cutoff, solutions,
         threads, tasks, good ? "OK" : "FAILED");
  return good ? 0 : 1;
}
