#include "recorder/runtime_call_site.h"

#include <link.h>
#include <unwind.h>

#include <algorithm>
#include <cstdint>

namespace tasklens::recorder {
namespace {

struct Range {
  uintptr_t lo = 0, hi = 0;
  bool contains(uintptr_t a) const { return a >= lo && a < hi; }
};

Range g_runtime, g_recorder;

// The span of the executable segments of the loaded object whose code holds `symbol`.
Range range_of(const void* symbol) {
  struct Query {
    uintptr_t symbol;
    Range found;
  } q{reinterpret_cast<uintptr_t>(symbol), {}};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        Query* q = static_cast<Query*>(data);
        Range code{UINTPTR_MAX, 0};
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& p = info->dlpi_phdr[i];
          if (p.p_type != PT_LOAD || !(p.p_flags & PF_X)) continue;
          code.lo = std::min<uintptr_t>(code.lo, info->dlpi_addr + p.p_vaddr);
          code.hi = std::max<uintptr_t>(code.hi, info->dlpi_addr + p.p_vaddr + p.p_memsz);
        }
        if (!code.contains(q->symbol)) return 0;
        q->found = code;
        return 1;
      },
      &q);
  return q.found;
}

struct Walk {
  uintptr_t found = 0;
  int frames = 0;
};

}  // namespace

void note_runtime_object(const void* runtime_symbol) {
  g_runtime = range_of(runtime_symbol);
  g_recorder = range_of(reinterpret_cast<const void*>(&program_call_site));
}

bool in_runtime(uint64_t codeptr) { return g_runtime.contains(uintptr_t(codeptr)); }

CodeSpan runtime_code() { return {g_runtime.lo, g_runtime.hi}; }

uint64_t program_call_site() {
  if (!g_runtime.hi) return 0;
  Walk walk;
  _Unwind_Backtrace(
      [](_Unwind_Context* ctx, void* data) {
        Walk* w = static_cast<Walk*>(data);
        uintptr_t ip = _Unwind_GetIP(ctx);
        if (++w->frames > 64 || ip == 0) return _URC_END_OF_STACK;
        if (g_runtime.contains(ip) || g_recorder.contains(ip)) return _URC_NO_REASON;
        w->found = ip;
        return _URC_END_OF_STACK;
      },
      &walk);
  return walk.found;
}

}  // namespace tasklens::recorder
