#include "recorder/clock.h"

#include <cpuid.h>

namespace tasklens::recorder {

ClockSource g_clock_source = ClockSource::kMonotonic;

bool tsc_is_invariant() {
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000007u) return false;
  __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
  return (edx & (1u << 8)) != 0;
}

}  // namespace tasklens::recorder
