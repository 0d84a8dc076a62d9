// Several replays of one experiment at once, one thread each (issue 19: "replay regions or
// threads in parallel"). The passes of a report are independent of each other but all need the
// task model, and the model is driven one event at a time: it cannot be shared between threads.
// So each group of passes gets a replay of its own (its own task model) on its own thread. The
// stream is decoded once, on a thread of its own, and its records handed to every replay (and to
// other readers, such as the consistency check) through a RecordFeed. What scales is the passes
// and the readers; the task model is built once per group.
//
// The results are those of one replay with every pass: a pass sees the same events and the same
// model either way. The one thing the replays share is the construct map (the symbolizer), which
// each reaches through SharedConstructMap: its answer for an address is the first address of
// that source location in the stream's order, whichever replay asks first (each asks in stream
// order), so the answers are the same as in one replay.
#pragma once

#include <functional>
#include <mutex>
#include <vector>

#include "replay/construct_map.h"
#include "replay/id_map.h"
#include "replay/replay.h"

namespace tasklens::replay {

// A ConstructMap for one of several replays: asks `inner` under `lock` for an address it has not
// seen, and keeps the answers.
class SharedConstructMap final : public ConstructMap {
 public:
  SharedConstructMap(ConstructMap* inner, std::mutex* lock) : inner_(inner), lock_(lock) {}
  uint64_t construct(uint64_t codeptr) override {
    if (codeptr == 0) return 0;
    // The last two addresses asked (fib's two task constructs alternate), newest first.
    if (codeptr == last_code_[0]) return last_construct_[0];
    if (codeptr == last_code_[1]) return last_construct_[1];
    last_code_[1] = last_code_[0];
    last_construct_[1] = last_construct_[0];
    last_code_[0] = codeptr;
    if (const uint64_t* known = known_.find(codeptr)) return last_construct_[0] = *known;
    uint64_t c;
    {
      std::lock_guard<std::mutex> guard(*lock_);
      c = inner_->construct(codeptr);
    }
    known_[codeptr] = c;
    return last_construct_[0] = c;
  }

 private:
  ConstructMap* inner_;
  std::mutex* lock_;
  IdMap<uint64_t> known_;
  uint64_t last_code_[2] = {0, 0}, last_construct_[2] = {0, 0};
};

class RecordSink;  // a reader of the records besides the replays (record_feed.h)

// Runs one replay per group of passes, group 0 on the calling thread (with `progress`), the
// others on threads of their own, all fed by one decoding on a thread of its own, which also
// feeds `sinks`; returns group 0's statistics (the same in every replay), or the error of
// opening the streams (then no sink is fed). One group and no sink is run_replay itself.
// `constructs` is shared as above; nothing else may use it until this returns. Passes whose begin()
// reads lazily filled state of the experiment must find it filled (format::off_cpu() is read here
// before the threads start, when passes or readers run on more than one thread).
Result<ReplayStats> run_replays(const format::Experiment& x,
                                const std::vector<std::vector<Pass*>>& groups,
                                const Progress& progress = nullptr,
                                ConstructMap* constructs = nullptr,
                                const std::vector<RecordSink*>& sinks = {});

// One replay whose stream is decoded on a thread of its own (run_replays with one group and a
// feed): for passes heavy enough that the decoding is worth a second core, such as the exports.
Result<ReplayStats> run_replay_decoded_apart(const format::Experiment& x,
                                             const std::vector<Pass*>& passes,
                                             const Progress& progress = nullptr,
                                             ConstructMap* constructs = nullptr);

}  // namespace tasklens::replay
