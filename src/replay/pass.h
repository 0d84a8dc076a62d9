// The one interface every analysis implements: a pass over the replay. The driver calls before()
// with the model as it was just before the event (so a pass can integrate over the interval that
// ends at the event), then applies the event to the model, then calls after() (the model's
// transitions() and new_edges() say what the event changed).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "format/experiment.h"
#include "replay/merged_stream.h"
#include "replay/task_model.h"

namespace tasklens::replay {

struct ReplayInfo {
  const format::Experiment* experiment = nullptr;
  uint32_t threads = 0;
  uint64_t end_ns = 0;  // the program's exit, or its last event if later (ns since its start)

  // The largest team the process could have had: its streams plus the threads the recorder
  // refused. A larger team size or thread number in an event is damage (the fuzzer's 65,280 made
  // the report a row per phantom thread); passes clamp to this.
  uint32_t team_limit() const {
    uint64_t refused = experiment ? experiment->metadata.recorder.threads_refused : 0;
    uint64_t n = uint64_t(threads) + refused;
    return uint32_t(n < 1 ? 1 : n > UINT32_MAX ? UINT32_MAX : n);
  }
};

// The one clamp of a team size an event claims (or a thread number + 1): at least 1, at most
// `limit`, ReplayInfo::team_limit(), which the passes keep from begin().
inline uint32_t bounded_team(uint64_t claimed, uint32_t limit) {
  return claimed < 1 ? 1 : claimed > limit ? limit : uint32_t(claimed);
}

class Pass {
 public:
  virtual ~Pass() = default;
  virtual void begin(const ReplayInfo& info) {}
  virtual void before(const Record& r, const TaskModel& m) {}
  // False when before() does nothing: the driver then spares the call on every event.
  virtual bool uses_before() const { return true; }
  virtual void after(const Record& r, const TaskModel& m) {}
  // The kinds of event whose after() does something (bit k: format::Kind k): the replay calls
  // after() for those only, perhaps after the other passes' after() (a PassGroup calls it for
  // every event: it must still ignore the others). All by default.
  virtual uint64_t after_kinds() const { return ~uint64_t(0); }
  // A `counters` event (perf_event counter values at a task switch, format/event_views.h): not
  // applied to the model nor handed to before()/after() (it is no program event: a creation, a
  // wait, an interval between events stays what it would be without counters), but here, with
  // the model as it is at that point: the thread's current task is the one that ran up to it.
  virtual void counters(const Record& r, const TaskModel& m) {}
  // True once the pass needs no more events (e.g. an export past the end of its time window):
  // the driver stops reading when every pass is finished, and still calls end().
  virtual bool finished() const { return false; }
  // After the last event; `info.end_ns` closes every open interval.
  virtual void end(const ReplayInfo& info, const TaskModel& m) {}
};

// Several passes run as one, in order (a report section that needs another analysis too).
class PassGroup : public Pass {
 public:
  explicit PassGroup(std::vector<Pass*> passes) : passes_(std::move(passes)) {}
  void begin(const ReplayInfo& info) override {
    for (Pass* p : passes_) p->begin(info);
  }
  void before(const Record& r, const TaskModel& m) override {
    for (Pass* p : passes_) {
      if (p->uses_before()) p->before(r, m);
    }
  }
  bool uses_before() const override {
    for (const Pass* p : passes_) {
      if (p->uses_before()) return true;
    }
    return false;
  }
  void after(const Record& r, const TaskModel& m) override {
    for (Pass* p : passes_) p->after(r, m);
  }
  uint64_t after_kinds() const override {
    uint64_t kinds = 0;
    for (const Pass* p : passes_) kinds |= p->after_kinds();
    return kinds;
  }
  void counters(const Record& r, const TaskModel& m) override {
    for (Pass* p : passes_) p->counters(r, m);
  }
  bool finished() const override {
    for (const Pass* p : passes_) {
      if (!p->finished()) return false;
    }
    return true;
  }
  void end(const ReplayInfo& info, const TaskModel& m) override {
    for (Pass* p : passes_) p->end(info, m);
  }

 private:
  std::vector<Pass*> passes_;
};

}  // namespace tasklens::replay
