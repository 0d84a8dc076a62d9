// sort: parallel merge sort with tasks (BOTS "sort" shape, a cilksort-like algorithm).
// An array is cut into four quarters sorted by four tasks; two tasks merge the pairs of quarters
// into a scratch array and the two halves are merged back. A merge is itself parallel: the larger
// input is split at its middle element, the other one by binary search, and the two sub-merges
// become tasks. Below SORT_CUTOFF elements a quarter is sorted serially (quicksort + insertion
// sort); below MERGE_CUTOFF elements a merge is serial.
// Usage: sort N [SORT_CUTOFF [MERGE_CUTOFF]] | tiny | small | medium
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

typedef long elm;

static void usage(void) {
  fprintf(stderr,
          "usage: sort N [SORT_CUTOFF [MERGE_CUTOFF]] | tiny | small | medium   (cut-offs >= 4)\n");
  exit(2);
}

static long sort_cutoff = 2048, merge_cutoff = 2048;

// ---- serial kernels -----------------------------------------------------------------------

static void insertion_sort(elm* a, long n) {
  for (long i = 1; i < n; ++i) {
    elm v = a[i];
    long j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      --j;
    }
    a[j + 1] = v;
  }
}

static void quick_sort(elm* a, long n) {
  while (n > 16) {
    // median of three as pivot
    elm x = a[0], y = a[n / 2], z = a[n - 1];
    elm p = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
    long i = 0, j = n - 1;
    while (i <= j) {
      while (a[i] < p) ++i;
      while (a[j] > p) --j;
      if (i <= j) {
        elm t = a[i];
        a[i] = a[j];
        a[j] = t;
        ++i;
        --j;
      }
    }
    // recurse into the smaller part, loop on the larger
    if (j + 1 < n - i) {
      quick_sort(a, j + 1);
      a += i;
      n -= i;
    } else {
      quick_sort(a + i, n - i);
      n = j + 1;
    }
  }
  insertion_sort(a, n);
}

static void merge_serial(const elm* a, long na, const elm* b, long nb, elm* dst) {
  long i = 0, j = 0, k = 0;
  while (i < na && j < nb) dst[k++] = b[j] < a[i] ? b[j++] : a[i++];
  while (i < na) dst[k++] = a[i++];
  while (j < nb) dst[k++] = b[j++];
}

// First index in b[0..nb) whose element is >= key.
static long lower_bound(const elm* b, long nb, elm key) {
  long lo = 0, hi = nb;
  while (lo < hi) {
    long mid = lo + (hi - lo) / 2;
    if (b[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// ---- the algorithm ------------------------------------------------------------------------
// With count == NULL the recursive calls are tasks; with count != NULL the same recursion runs
// serially and *count is incremented for every task the tasking run creates on the same input.

static void merge(const elm* a, long na, const elm* b, long nb, elm* dst, long* count) {
  if (na < nb) {  // a is the larger input
    const elm* t = a;
    a = b;
    b = t;
    long tn = na;
    na = nb;
    nb = tn;
  }
  if (na + nb <= merge_cutoff || nb == 0) {
    merge_serial(a, na, b, nb, dst);
    return;
  }
  long ma = na / 2;
  long mb = lower_bound(b, nb, a[ma]);
  dst[ma + mb] = a[ma];
  if (count) {
    *count += 2;
    merge(a, ma, b, mb, dst, count);
    merge(a + ma + 1, na - ma - 1, b + mb, nb - mb, dst + ma + mb + 1, count);
    return;
  }
#pragma omp task
  merge(a, ma, b, mb, dst, NULL);
#pragma omp task
  merge(a + ma + 1, na - ma - 1, b + mb, nb - mb, dst + ma + mb + 1, NULL);
#pragma omp taskwait
}

// Sorts a[0..n) in place, using tmp[0..n) as scratch.
static void sort(elm* a, elm* tmp, long n, long* count) {
  if (n <= sort_cutoff) {
    quick_sort(a, n);
    return;
  }
  long q = n / 4;
  elm *A = a, *B = a + q, *C = a + 2 * q, *D = a + 3 * q;
  elm *tA = tmp, *tB = tmp + q, *tC = tmp + 2 * q, *tD = tmp + 3 * q;
  if (count) {
    *count += 6;
    sort(A, tA, q, count);
    sort(B, tB, q, count);
    sort(C, tC, q, count);
    sort(D, tD, n - 3 * q, count);
    merge(A, q, B, q, tA, count);
    merge(C, q, D, n - 3 * q, tC, count);
    merge(tA, 2 * q, tC, n - 2 * q, a, count);
    return;
  }
#pragma omp task
  sort(A, tA, q, NULL);
#pragma omp task
  sort(B, tB, q, NULL);
#pragma omp task
  sort(C, tC, q, NULL);
#pragma omp task
  sort(D, tD, n - 3 * q, NULL);
#pragma omp taskwait
#pragma omp task
  merge(A, q, B, q, tA, NULL);
#pragma omp task
  merge(C, q, D, n - 3 * q, tC, NULL);
#pragma omp taskwait
  merge(tA, 2 * q, tC, n - 2 * q, a, NULL);
}

// Order-independent fingerprint of a multiset of elements.
static void fingerprint(const elm* a, long n, uint64_t* sum, uint64_t* mix) {
  uint64_t s = 0, m = 0;
  for (long i = 0; i < n; ++i) {
    uint64_t st = (uint64_t)a[i];
    s += (uint64_t)a[i];
    m += splitmix64(&st);
  }
  *sum = s;
  *mix = m;
}

int main(int argc, char** argv) {
  long n = 0;
  if (argc == 2 && strcmp(argv[1], "tiny") == 0) {
    n = 1L << 19;
  } else if (argc == 2 && strcmp(argv[1], "small") == 0) {
    n = 1L << 24;
  } else if (argc == 2 && strcmp(argv[1], "medium") == 0) {
    n = 1L << 26;
  } else if (argc >= 2 && argc <= 4) {
    n = parse_long(argv[1], 1, 1L << 34);
    if (argc >= 3) sort_cutoff = parse_long(argv[2], 4, 1L << 34);
    if (argc >= 4) merge_cutoff = parse_long(argv[3], 4, 1L << 34);
  } else {
    usage();
  }

  elm* data = malloc((size_t)n * sizeof(elm));
  elm* ref = malloc((size_t)n * sizeof(elm));
  elm* tmp = malloc((size_t)n * sizeof(elm));
  if (!data || !ref || !tmp) {
    fprintf(stderr, "sort: out of memory\n");
    return 2;
  }
  uint64_t seed = 12345;
  for (long i = 0; i < n; ++i) data[i] = (elm)(splitmix64(&seed) >> 34);  // duplicates occur
  memcpy(ref, data, (size_t)n * sizeof(elm));
  memset(tmp, 0, (size_t)n * sizeof(elm));
  uint64_t in_sum, in_mix;
  fingerprint(data, n, &in_sum, &in_mix);

#pragma omp parallel
  {  // warm-up: start the thread team outside the timed part
  }

  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  sort(data, tmp, n, NULL);
  double t1 = omp_get_wtime();

  // Serial replay of the same recursion: counts the tasks and gives a reference result.
  long tasks = 0;
  sort(ref, tmp, n, &tasks);
  int ok = 1;
  for (long i = 0; i < n && ok; ++i) {
    if (data[i] != ref[i]) ok = 0;
    if (i > 0 && data[i - 1] > data[i]) ok = 0;
  }
  uint64_t out_sum, out_mix;
  fingerprint(data, n, &out_sum, &out_mix);
  if (out_sum != in_sum || out_mix != in_mix) ok = 0;

  printf("sort n=%ld sort_cutoff=%ld merge_cutoff=%ld threads=%d time=%.6f tasks=%ld %s\n", n,
         sort_cutoff, merge_cutoff, omp_get_max_threads(), t1 - t0, tasks, ok ? "OK" : "FAILED");
  free(data);
  free(ref);
  free(tmp);
  return ok ? 0 : 1;
}
