// Call sites the runtime leaves out of mutex events, supplied by the replay so that every pass
// and export sees the program's construct. libomp passes on the return address its entry point
// stashed for the thread; now and then the stash is empty and it reports its own code instead
// (`__kmpc_critical+0x5a`: 1 or 2 of 4,000 critical entries in 2 of 12 runs of
// examples/critical), and the report grew a second critical construct inside the runtime. Such
// an event gets the code address the same lock's last acquire had on that thread (else on any
// thread): the same critical, lock or atomic in all but a program that guards two constructs
// with one lock from one thread, where it may name the other one.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "format/code_span.h"
#include "format/event.h"
#include "replay/merged_stream.h"

namespace tasklens::replay {

class MutexCallSites {
 public:
  MutexCallSites(uint32_t threads, format::CodeSpan runtime) : last_(threads), runtime_(runtime) {}

  // `r`, or a copy of it with the program's call site where r's is inside the runtime.
  // Inline for every record; the three mutex kinds go on out of line (a call per event was
  // 17 instructions of each replay's per-event cost on fib, where no event is a mutex's).
  __attribute__((always_inline)) const Record* fix(const Record& r) {
    using format::Kind;
    constexpr uint64_t kMutexKinds = (uint64_t(1) << uint8_t(Kind::kMutexAcquire)) |
                                     (uint64_t(1) << uint8_t(Kind::kMutexAcquired)) |
                                     (uint64_t(1) << uint8_t(Kind::kMutexReleased));
    const unsigned kind = uint8_t(r.ev.kind);
    if (__builtin_expect(kind >= 64 || !((kMutexKinds >> kind) & 1), 1)) return &r;
    return fix_mutex(r);
  }

 private:
  __attribute__((noinline)) const Record* fix_mutex(const Record& r) {
    using format::Kind;
    const Kind k = r.ev.kind;
    const uint64_t wait_id = r.ev.a, code = r.ev.c;
    if (!runtime_.contains(code)) {
      if (k == Kind::kMutexAcquire) remember(r.thread, wait_id, code);
      return &r;
    }
    uint64_t site = r.thread < last_.size() ? find(last_[r.thread], wait_id) : 0;
    if (!site) site = find(any_, wait_id);
    if (!site) return &r;
    fixed_ = r;
    fixed_.ev.c = site;
    return &fixed_;
  }

  using Sites = std::vector<std::pair<uint64_t, uint64_t>>;  // (wait id, code), latest last
  static constexpr size_t kKept = 8;  // locks remembered per thread (and overall)

  static uint64_t find(const Sites& s, uint64_t wait_id) {
    for (size_t i = s.size(); i-- > 0;) {
      if (s[i].first == wait_id) return s[i].second;
    }
    return 0;
  }
  static void keep(Sites& s, uint64_t wait_id, uint64_t code) {
    if (!s.empty() && s.back().first == wait_id) {
      s.back().second = code;
      return;
    }
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i].first == wait_id) {
        s.erase(s.begin() + long(i));
        break;
      }
    }
    if (s.size() == kKept) s.erase(s.begin());
    s.push_back({wait_id, code});
  }
  void remember(uint32_t thread, uint64_t wait_id, uint64_t code) {
    if (thread < last_.size()) keep(last_[thread], wait_id, code);
    keep(any_, wait_id, code);
  }

  std::vector<Sites> last_;  // per thread
  Sites any_;
  format::CodeSpan runtime_;  // the runtime's code; empty when unknown
  Record fixed_{};
};

}  // namespace tasklens::replay
