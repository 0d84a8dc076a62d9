// Ends the runtime leaves out, supplied by the replay so that every pass and export sees closed
// constructs. libomp reports a `single` entered through GCC's entry points (GOMP_single_start)
// with a work begin and no end: libgomp's interface has no call at the end of a single. A
// worksharing construct cannot enclose a barrier or another worksharing construct of the same
// task, so the single ends where its task next begins one of those, or ends itself. (A taskloop
// is no worksharing construct: a single may hold one.)
#pragma once

#include <cstdint>
#include <vector>

#include "format/event.h"
#include "replay/merged_stream.h"

namespace tasklens::replay {

class ImpliedEnds {
 public:
  explicit ImpliedEnds(uint32_t threads) : open_(threads) {}

  // The end implied by `r` (a work end of an open single, at r's time), or nullptr. Call once
  // per record, before the record itself is applied.
  const Record* before(const Record& r) {
    // Only these kinds begin, end or close a single (check()): the others leave without a look
    // at the thread's singles (a program's whole run may be inside one, and every event paid).
    using format::Kind;
    constexpr uint64_t kCloses = (uint64_t(1) << uint8_t(Kind::kImplicitTask)) |
                                 (uint64_t(1) << uint8_t(Kind::kSyncRegion)) |
                                 (uint64_t(1) << uint8_t(Kind::kSyncRegionWait)) |
                                 (uint64_t(1) << uint8_t(Kind::kWork));
    const unsigned kind = uint8_t(r.ev.kind);
    if (kind >= 64 || !((kCloses >> kind) & 1)) return nullptr;
    if (r.thread >= open_.size()) return nullptr;
    auto& open = open_[r.thread];
    if (open.empty() && r.ev.kind != format::Kind::kWork) return nullptr;
    return check(r, open);
  }

 private:
  struct Open {
    uint64_t region, task, codeptr;
  };
  const Record* check(const Record& r, std::vector<Open>& open);

  std::vector<std::vector<Open>> open_;  // per thread: singles begun and not ended, innermost last
  Record implied_{};
};

}  // namespace tasklens::replay
