// run_replays: one replay per group of passes, each on its own thread, fed by one decoding.
#include "replay/parallel_replay.h"

#include <memory>
#include <thread>

#include "format/off_cpu.h"
#include "replay/record_feed.h"

namespace tasklens::replay {

namespace {

// run_replays(), with the stream decoded on a thread of its own even for one group.
Result<ReplayStats> replays(const format::Experiment& x,
                            const std::vector<std::vector<Pass*>>& groups, const Progress& progress,
                            ConstructMap* constructs, const std::vector<RecordSink*>& sinks) {
  auto stream = MergedStream::open(x);
  if (!stream) return stream.error();
  // Read once, here, when passes run on several threads (their begin() may read it from each).
  // One group runs on this thread alone and reads it lazily if at all: the exports never do, and
  // reading it (2.4 M intervals on fib 30) was a twentieth of a Paraver export's time.
  if (groups.size() > 1 || !sinks.empty()) format::off_cpu(x);
  std::vector<std::vector<Pass*>> replays = groups;
  if (replays.empty()) replays.emplace_back();
  RecordFeed feed(std::move(*stream), replays.size(), sinks);
  std::mutex lock;
  std::vector<std::unique_ptr<SharedConstructMap>> maps;
  for (size_t i = 0; i < replays.size(); ++i) {
    maps.push_back(constructs ? std::make_unique<SharedConstructMap>(constructs, &lock) : nullptr);
  }
  // Each FeedReader lives on its thread's stack: side by side in one vector, the readers' counters
  // shared cache lines, and each record's read invalidated the others' (a third of the loop).
  std::vector<std::thread> threads;
  threads.emplace_back([&feed] { feed.produce(); });
  for (size_t i = 1; i < replays.size(); ++i) {
    threads.emplace_back([&, i] {
      FeedReader from(feed, i);
      run_replay(from, x, replays[i], nullptr, maps[i].get());
    });
  }
  FeedReader from(feed, 0);
  ReplayStats stats = run_replay(from, x, replays[0], progress, maps[0].get());
  for (std::thread& t : threads) t.join();
  return stats;
}

}  // namespace

Result<ReplayStats> run_replays(const format::Experiment& x,
                                const std::vector<std::vector<Pass*>>& groups,
                                const Progress& progress, ConstructMap* constructs,
                                const std::vector<RecordSink*>& sinks) {
  if (groups.size() <= 1 && sinks.empty()) {
    return run_replay(x, groups.empty() ? std::vector<Pass*>{} : groups[0], progress, constructs);
  }
  return replays(x, groups, progress, constructs, sinks);
}

Result<ReplayStats> run_replay_decoded_apart(const format::Experiment& x,
                                             const std::vector<Pass*>& passes,
                                             const Progress& progress, ConstructMap* constructs) {
  return replays(x, {passes}, progress, constructs, {});
}

}  // namespace tasklens::replay
