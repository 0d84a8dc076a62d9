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

// A node's durations per visit: sum, min and max, their count being the node's visits. Updated
// at every frame's close, so leaner than Stat: no count of its own, and min starts at its
// identity (no first-sample test).
struct Span {
  uint64_t sum = 0, min = UINT64_MAX, max = 0;
  void add(uint64_t v) {
    sum += v;
    // Branches, not selects: after a node's first visits a new extreme is rare, and a branch
    // skips the store.
    if (__builtin_expect(v < min, 0)) min = v;
    if (__builtin_expect(v > max, 0)) max = v;
  }
  void merge(const Span& s) {
    sum += s.sum;
    min = s.min < min ? s.min : min;
    max = s.max > max ? s.max : max;
  }
  // As a Stat of `count` samples (all zero without samples, as Stat has it).
  Stat stat(uint64_t count) const { return count ? Stat{count, sum, min, max} : Stat{}; }
};

// A construct's or a split's statistic: a Span with its own count (leaner than Stat to update).
struct Tally {
  uint64_t count = 0;
  Span span;
  void add(uint64_t v) {
    ++count;
    span.add(v);
  }
  void merge(const Tally& t) {
    count += t.count;
    span.merge(t.span);
  }
  Stat stat() const { return span.stat(count); }
};

// A node's visits and their inclusive and exclusive times. A visit without children (most of
// them: creations, stubs, taskwaits, leaf tasks) has as much exclusive time as inclusive, and
// updates one Span, `leaf`; the others update `inner_incl` and `inner_excl`. The statistics over
// all visits merge them (exact: sums, minima and maxima merge).
struct Metrics {
  uint64_t visits = 0, fragments = 0;
  Span leaf, inner_incl, inner_excl;
  // One visit: its fragments, its inclusive time, its children's inclusive time.
  void add(uint64_t frags, uint64_t incl, uint64_t child) {
    ++visits;
    fragments += frags;
    if (child == 0) {
      leaf.add(incl);
    } else {
      inner_incl.add(incl);
      inner_excl.add(incl > child ? incl - child : 0);
    }
  }
  Stat inclusive() const { return merged(inner_incl); }
  Stat exclusive() const { return merged(inner_excl); }
  void merge(const Metrics& m) {
    visits += m.visits;
    fragments += m.fragments;
    leaf.merge(m.leaf);
    inner_incl.merge(m.inner_incl);
    inner_excl.merge(m.inner_excl);
  }

 private:
  Stat merged(const Span& inner) const {
    Span all = leaf;
    all.merge(inner);
    return all.stat(visits);
  }
};

// The most perf_event counters one run reads (recorder/task_counters.h).
constexpr int kMaxCounters = int(format::kMaxCounters);

// A node of the call-path profile, identified by its path: key = mix(parent key, kind, sub,
// code, value), the same on every thread, so that threads need not share a table to agree on
// nodes. Its identity (key to value) is written once, before any other thread can see the node:
// a thread that closes a frame of a migrated task reads it from the node of the thread that
// opened the frame.
struct Node {
  uint64_t key = 0;
  uint64_t parent = 0;  // 0: a root
  uint64_t code = 0;    // a construct's address; user regions and parameters: the name's id
  int64_t value = 0;    // a parameter's value
  uint16_t sub = 0;
  uint8_t kind = 0;
  uint32_t kind_sub = 0;  // kind_sub_of(kind, sub): the two compared at once
  Metrics metrics;
  // Per visit, each counter's delta over the visit (`--counters`): allocated at the node's first
  // visit with counters, in counters order; nullptr without.
  Stat* counters = nullptr;
  struct ParamValue* split = nullptr;  // a parameter node of a task tree: its construct's split
  // Children looked up from this node (same table), found again without a hash: one slot per
  // child, by kind, code and value (a task's parameter nodes are many children of one node).
  static uint32_t kind_sub_of(uint8_t kind, uint16_t sub) { return kind | uint32_t(sub) << 8; }
  static constexpr int kKids = 8;
  Node* kids[kKids] = {};
  static uint32_t kid_slot(uint8_t kind, uint64_t code, int64_t value) {
    uint64_t h = code ^ (code >> 5) ^ (uint64_t(value) * 3) ^ kind;
    return uint32_t(h % kKids);
  }
};

// How many counters the nodes carry (0: none); set at start-up, before any node is made.
extern int g_node_counters;

// A task construct's counts (Score-P's Table I, ompP's task counts).
struct Construct {
  uint64_t code = 0;
  Node* root = nullptr;  // the node of its task tree's root in the same thread's tables
  // Its instances' stub node last looked up, under the node stub_parent (same tables).
  const Node* stub_parent = nullptr;
  Node* stub = nullptr;
  uint64_t created = 0, instances = 0, unfinished = 0, discarded = 0, fragments = 0, migrations = 0;
  Tally time, creation, start_delay;  // ticks
  uint32_t active = 0, max_active = 0;
  Stat counters[kMaxCounters];  // per instance: its fragments' deltas summed
  void merge(const Construct& c);
};

uint64_t node_key(uint64_t parent, uint8_t kind, uint16_t sub, uint64_t code, int64_t value = 0);

// A task construct's instances by the first value they set of a parameter (Lorenz et al.
// Table IV): their times, and how many set the parameter again.
struct ParamValue {
  uint64_t key = 0;  // mix(code, name, value)
  uint64_t code = 0, name = 0;
  int64_t value = 0;
  Tally time;
  uint64_t again = 0;
};

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
  Node* get(uint64_t key, uint64_t parent, uint8_t kind, uint16_t sub, uint64_t code,
            int64_t value = 0);
  // The node `like` is, in this table.
  Node* get(const Node& like) {
    return get(like.key, like.parent, like.kind, like.sub, like.code, like.value);
  }
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

struct ParamTable {
  ParamValue** slots = nullptr;
  uint32_t cap = 0, used = 0;
  bool full = false;
  Block* blocks = nullptr;
  ParamValue* get(uint64_t code, uint64_t name, int64_t value);
  void merge(const ParamTable& other);
  void release();
};

}  // namespace tasklens::recorder::prof
