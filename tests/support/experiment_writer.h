// Writes a whole experiment directory from events in memory, with times in nanoseconds (clock
// source "monotonic", one tick = 1 ns), for golden traces made by hand in tests. The recorder
// writes the same format incrementally; both name the metadata's members through
// format/metadata_keys.h, this one through format::Metadata.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "format/event.h"
#include "format/metadata.h"
#include "format/off_cpu.h"
#include "format/result.h"

namespace tasklens::testing {

class ExperimentWriter {
 public:
  // Appends `e` to thread `thread`'s stream. Times must not decrease within a thread.
  void add(uint32_t thread, const format::Event& e) { streams_[thread].push_back(e); }
  // Events per chunk (default 1000): small values exercise chunk boundaries.
  void set_chunk_events(size_t n) { chunk_events_ = n; }
  // Names of user-API strings; id i is names[i - 1].
  void set_strings(std::vector<std::string> names) { metadata_.strings = std::move(names); }
  // Thread `thread` was preempted from `begin` to `end` (ns): a switch-out marked preempted and
  // a switch-in in off_cpu.bin, as the recorder writes them.
  void add_preempted(uint32_t thread, uint64_t begin, uint64_t end);
  // One record of off_cpu.bin as given (a CPU, switches of several threads).
  void add_off_cpu(const format::OffCpuRecord& r) { off_cpu_.push_back(r); }
  // The metadata written (the counts, threads, clock end and events written are set from the
  // events at write()).
  format::Metadata& metadata() { return metadata_; }
  // Extra or replaced metadata members, raw (e.g. of the wrong type, for tests of damage).
  nlohmann::json& meta() { return extra_; }

  // Creates `dir` (and parents) and writes experiment.json and one stream per thread.
  Result<std::string> write(const std::string& dir) const;

 private:
  std::map<uint32_t, std::vector<format::Event>> streams_;
  std::vector<format::OffCpuRecord> off_cpu_;
  format::Metadata metadata_ = default_metadata();
  nlohmann::json extra_ = nlohmann::json::object();
  size_t chunk_events_ = 1000;

  static format::Metadata default_metadata();
};

}  // namespace tasklens::testing
