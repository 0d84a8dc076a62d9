// uts: Unbalanced Tree Search (BOTS "uts" shape) on a binomial tree: the root has B0 children,
// every other node has M children with probability Q and none otherwise (Q*M < 1 keeps the tree
// finite; close to 1 makes it deep and very unbalanced). Each node carries a 64-bit state; a
// child's state is a hash of its parent's state and its index (a splittable, deterministic
// random generator), so the tree depends only on (B0, M, Q, SEED). Every node but the root is a
// task; a node's task spawns its children's tasks, waits and returns its subtree size.
// Tasks are very fine grained (one hash and a comparison).
// Usage: uts B0 M Q SEED | tiny | small | medium
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

static long B0, M;
static double Q;

static void usage(void) {
  fprintf(stderr, "usage: uts B0 M Q SEED | tiny | small | medium   (0 <= Q*M < 1)\n");
  exit(2);
}

static double parse_double(const char* s, double lo, double hi) {
  char* end;
  double v = strtod(s, &end);
  if (*s == '\0' || *end != '\0' || !(v >= lo && v <= hi)) usage();
  return v;
}

static uint64_t child_state(uint64_t parent, long i) {
  return mix64(parent ^ mix64(0x9E3779B97F4A7C15ull * (uint64_t)(i + 1)));
}

static long num_children(uint64_t state, int depth) {
  if (depth == 0) return B0;
  double u = (double)(mix64(state + 0x632BE59BD9B4E019ull) >> 11) * 0x1.0p-53;
  return u < Q ? M : 0;
}

static long visit(uint64_t state, int depth) {
  long n = num_children(state, depth);
  if (n == 0) return 1;
  long local[16];
  long* sizes = n <= 16 ? local : malloc((size_t)n * sizeof(long));
  if (!sizes) {
    fprintf(stderr, "uts: out of memory\n");
    exit(2);
  }
  for (long i = 0; i < n; ++i) {
    uint64_t cs = child_state(state, i);
#pragma omp task firstprivate(i, cs, depth) shared(sizes)
    sizes[i] = visit(cs, depth + 1);
  }
#pragma omp taskwait
  long total = 1;
  for (long i = 0; i < n; ++i) total += sizes[i];
  if (sizes != local) free(sizes);
  return total;
}

// Serial traversal with an explicit stack: node count, leaves and depth of the tree.
typedef struct {
  uint64_t state;
  int depth;
} Frame;

static void traverse(uint64_t root, long* nodes, long* leaves, int* max_depth) {
  long cap = 1024, top = 0;
  Frame* stack = malloc((size_t)cap * sizeof(Frame));
  stack[top++] = (Frame){root, 0};
  *nodes = *leaves = 0;
  *max_depth = 0;
  while (top > 0) {
    Frame f = stack[--top];
    ++*nodes;
    if (f.depth > *max_depth) *max_depth = f.depth;
    long n = num_children(f.state, f.depth);
    if (n == 0) ++*leaves;
    if (top + n > cap) {
      while (top + n > cap) cap *= 2;
      stack = realloc(stack, (size_t)cap * sizeof(Frame));
      if (!stack) {
        fprintf(stderr, "uts: out of memory\n");
        exit(2);
      }
    }
    for (long i = 0; i < n; ++i) stack[top++] = (Frame){child_state(f.state, i), f.depth + 1};
  }
  free(stack);
}

int main(int argc, char** argv) {
  uint64_t seed = 0;
  if (argc == 2 && strcmp(argv[1], "tiny") == 0) {
    B0 = 1000, M = 4, Q = 0.2475, seed = 1;
  } else if (argc == 2 && strcmp(argv[1], "small") == 0) {
    B0 = 10000, M = 4, Q = 0.2496, seed = 1;
  } else if (argc == 2 && strcmp(argv[1], "medium") == 0) {
    B0 = 30000, M = 4, Q = 0.2496, seed = 1;
  } else if (argc == 5) {
    B0 = parse_long(argv[1], 0, 1L << 30);
    M = parse_long(argv[2], 0, 1L << 20);
    Q = parse_double(argv[3], 0.0, 1.0);
    seed = (uint64_t)parse_long(argv[4], 0, 1L << 62);
    if (Q * (double)M >= 1.0) usage();
  } else {
    usage();
  }
  uint64_t root = mix64(seed ^ 0xD1B54A32D192ED03ull);

#pragma omp parallel
  {  // warm-up: start the thread team outside the timed part
  }

  long nodes_par = 0;
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  nodes_par = visit(root, 0);
  double t1 = omp_get_wtime();

  long nodes, leaves;
  int depth;
  traverse(root, &nodes, &leaves, &depth);
  int ok = nodes_par == nodes;
  printf("uts b0=%ld m=%ld q=%g seed=%llu nodes=%ld leaves=%ld depth=%d threads=%d time=%.6f "
         "tasks=%ld %s\n",
         B0, M, Q, (unsigned long long)seed, nodes, leaves, depth, omp_get_max_threads(), t1 - t0,
         nodes - 1, ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
