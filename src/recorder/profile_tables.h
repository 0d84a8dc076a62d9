// The tables of the recorder's profile mode (docs/PROFILE-MODE.md): one set per thread, written
// by that thread alone (no locks), merged into one set at the end of the run. Memory grows with
// the distinct call paths and task constructs, never with the events: open addressing over
// pointers in malloc'd arrays that double when 3/4 full; the entries themselves are allocated in
// blocks and never move, so that a pointer to one stays valid for the table's life (the profiler
// keeps them in its frames and task records instead of hashing again). Nothing here throws or
// prints.
#pragma once

#include <cstdint>

#include "format/event.h"

#include "format/stat.h"

namespace tasklens::recorder::prof {

// Count, sum, min and max of a series of samples (durations in ticks, counter deltas).
using Stat = format::Stat;

struct Metrics {
  uint64_t visits = 0, fragments = 0;
  Stat inclusive, exclusive;
  void merge(const Metrics& m) {
    visits += m.visits;
    fragments += m.fragments;
    inclusive.merge(m.inclusive);
    exclusive.merge(m.exclusive);
  }
};

// The most perf_event counters one run reads (recorder/task_counters.h).
constexpr int kMaxCounters = int(format::kMaxCounters);

// A node of the call-path profile, identified by its path: key = mix(parent key, kind, sub,
// code), the same on every thread, so that threads need not share a table to agree on nodes.
struct Node {
  uint64_t key = 0;
  uint64_t parent = 0;  // 0: a root
  uint64_t code = 0;
  uint16_t sub = 0;
  uint8_t kind = 0;
  uint8_t next_kid = 0;
  Metrics metrics;
  // The children last looked up from this node (same table), found again without a hash.
  static constexpr int kKids = 4;
  Node* kids[kKids] = {};
};

// A task construct's counts (Score-P's Table I, ompP's task counts).
struct Construct {
  uint64_t code = 0;
  Node* root = nullptr;  // the node of its task tree's root in the same thread's tables
  uint64_t created = 0, instances = 0, unfinished = 0, discarded = 0, fragments = 0,
           migrations = 0;
  Stat time, creation, start_delay;  // ticks
  uint32_t active = 0, max_active = 0;
  Stat counters[kMaxCounters];  // per instance: its fragments' deltas summed
  void merge(const Construct& c);
};

uint64_t node_key(uint64_t parent, uint8_t kind, uint16_t sub, uint64_t code);

// Where a table's entries live: blocks of kPerBlock, chained, freed with the table.
struct Block {
  Block* next;
  uint32_t used;
};

struct NodeTable {
  Node** slots = nullptr;
  uint32_t cap = 0, used = 0;
  bool full = false;  // an allocation failed: nodes beyond were not kept
  Block* blocks = nullptr;
  // The node `key`, made (with the rest of its identity) when new; nullptr when out of memory.
  Node* get(uint64_t key, uint64_t parent, uint8_t kind, uint16_t sub, uint64_t code);
  Node* find(uint64_t key) const;
  void merge(const NodeTable& other);
  void release();
};

struct ConstructTable {
  Construct** slots = nullptr;
  uint32_t cap = 0, used = 0;
  bool full = false;
  Block* blocks = nullptr;
  Construct* get(uint64_t code);
  void merge(const ConstructTable& other);
  void release();
};

}  // namespace tasklens::recorder::prof
