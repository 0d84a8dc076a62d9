// The replay driver (POT Algorithm 1): reads the merged stream in time order, lets every pass see
// each event before and after the task model applies it, and reports progress on long traces.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "format/experiment.h"
#include "format/result.h"
#include "format/stream_reader.h"
#include "replay/construct_map.h"
#include "replay/pass.h"

namespace tasklens::replay {

struct ReplayStats {
  uint64_t events = 0;
  uint32_t threads = 0;
  uint64_t end_ns = 0;
  uint64_t peak_live_tasks = 0;
  std::vector<format::Problem> problems;  // damage found in the streams
};

// Called now and then with (events done, events expected); expected may be 0 when unknown.
using Progress = std::function<void(uint64_t done, uint64_t expected)>;

// Stops early when every pass is finished() (checked every 4096 events): `events` then counts
// the events read, and damage further on is not seen. `constructs`: the experiment's symbolizer,
// which makes the copies of a task construct one construct for every pass (TaskModel::
// set_constructs); null keeps every code address apart.
Result<ReplayStats> run_replay(const format::Experiment& x, const std::vector<Pass*>& passes,
                               const Progress& progress = nullptr,
                               ConstructMap* constructs = nullptr);

// The same over the records of a feed, one of its readers (record_feed.h, parallel_replay.h).
class FeedReader;
ReplayStats run_replay(FeedReader& feed, const format::Experiment& x,
                       const std::vector<Pass*>& passes, const Progress& progress,
                       ConstructMap* constructs);

}  // namespace tasklens::replay
