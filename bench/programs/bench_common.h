// bench_common.h: what every task benchmark program repeats: reading a whole-number parameter
// and the SplitMix64 pseudo-random numbers the programs build their inputs from. Static inline,
// so that a program stays one .c file plus this header. Include it after the system headers.
#ifndef TASKLENS_BENCH_COMMON_H
#define TASKLENS_BENCH_COMMON_H

#include <stdint.h>
#include <stdlib.h>

// Each program defines usage(): prints its usage line on stderr and exits with status 2.
static void usage(void);

// `s` as a whole number in [lo, hi]; anything else is a usage error.
static inline long parse_long(const char* s, long lo, long hi) {
  char* end;
  long v = strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < lo || v > hi) usage();
  return v;
}

// The SplitMix64 finalizer: a bijection on 64-bit words whose outputs look random.
static inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// A well-mixed hash of x: what SplitMix64 returns from state x.
static inline uint64_t hash64(uint64_t x) {
  return mix64(x + 0x9E3779B97F4A7C15ull);
}

// SplitMix64: advances *state and returns its next pseudo-random number.
static inline uint64_t splitmix64(uint64_t* state) {
  return mix64(*state += 0x9E3779B97F4A7C15ull);
}

#endif
