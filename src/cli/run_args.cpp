#include "cli/run_args.h"

#include <cstring>
#include <iterator>

#include "format/counter_kinds.h"

namespace tasklens::cli {
namespace {

// A decimal number from lo to hi, without sign, spaces or leading zeros.
bool plain_number(const char* s, long lo, long hi, int* out) {
  if (*s < '1' || *s > '9' || std::strlen(s) > 9) return false;
  long v = 0;
  for (const char* p = s; *p; ++p) {
    if (*p < '0' || *p > '9') return false;
    v = v * 10 + (*p - '0');
  }
  if (v < lo || v > hi) return false;
  *out = int(v);
  return true;
}

bool one_of(const char* s, const char* a, const char* b) {
  return std::strcmp(s, a) == 0 || std::strcmp(s, b) == 0;
}

// Stores the value of option `name` (one of kRunValueOptions); false when it is not valid.
bool take_value(const char* name, const char* v, RunOptions* o) {
  if (one_of(name, "-o", "--output")) return o->output = v, true;
  if (one_of(name, "-n", "--threads")) return plain_number(v, 1, 4096, &o->threads);
  if (!std::strcmp(name, "--buffer-mb")) return plain_number(v, 1, 1 << 20, &o->buffer_mb);
  if (!std::strcmp(name, "--overflow")) return one_of(v, "block", "drop") && (o->overflow = v, true);
  if (!std::strcmp(name, "--mode")) return one_of(v, "trace", "profile") && (o->mode = v, true);
  // An unknown counter: the full command line says which.
  if (!std::strcmp(name, "--counters")) {
    return !format::unknown_counter(v) && (o->counters = v, true);
  }
  return false;
}

}  // namespace

bool parse_plain_run_args(int argc, char** argv, RunOptions* o) {
  if (argc < 2 || std::strcmp(argv[1], "run") != 0) return false;
  // Bit i: kRunValueOptions[i] (long and short names share the bit of the long one), then the
  // flags.
  unsigned seen = 0;
  auto once = [&seen](unsigned bit) { return !(seen & bit) && (seen |= bit, true); };
  constexpr unsigned kQuiet = 1u << 16, kForce = 1u << 17;
  for (int i = 2; i < argc; ++i) {
    const char* a = argv[i];
    if (!std::strcmp(a, "--") || a[0] != '-') {
      int first = std::strcmp(a, "--") ? i : i + 1;
      if (first >= argc || !argv[first][0]) return false;
      o->command.assign(argv + first, argv + argc);
      return true;
    }
    if (one_of(a, "-q", "--quiet")) {
      if (!once(kQuiet)) return false;
      o->quiet = true;
      continue;
    }
    if (!std::strcmp(a, "--force")) {
      if (!once(kForce)) return false;
      o->force = true;
      continue;
    }
    int k = -1;
    for (size_t j = 0; j < std::size(kRunValueOptions); ++j) {
      if (!std::strcmp(a, kRunValueOptions[j])) k = int(j);
    }
    if (k < 0 || i + 1 >= argc) return false;
    const char* v = argv[++i];
    unsigned bit = 1u << (k < 4 ? k | 1 : k);  // -o/--output and -n/--threads: one bit each
    if (!v[0] || v[0] == '-' || !once(bit) || !take_value(a, v, o)) return false;
  }
  return false;  // no program
}

}  // namespace tasklens::cli
