// Profile mode's frames (profiler.h): opening a node of the call path on a task's stack and
// closing it into the thread's tables, the steps of analysis/profile.cpp's push and close_top.
// Inline: every callback runs them, most more than once (docs/PROFILE-MODE-COST.md, "Where the time
// went").
#pragma once

#include <cstdlib>
#include <cstring>

#include "recorder/profiler.h"

namespace tasklens::recorder::prof {

inline uint64_t clock(const Task& r, uint64_t now) {
  return r.running ? r.clock + (now - r.since) : r.clock;
}
inline uint64_t top_node(const Task& r) {
  return r.depth ? r.frames[r.depth - 1].key : 0;
}
inline uint16_t owner_of(const Thread* th) {
  return th->owner;
}

// The time at which an implicit task's frames close: `now`, or its region's end when libomp
// reports the end later (a worker's closing barrier, released by the next region or the exit).
// Implicit tasks only: their records stay on their thread.
inline uint64_t frames_time(const Task& t, uint64_t now) {
  if (!t.region) return now;
  uint64_t ended = t.region->ended.load(std::memory_order_acquire);
  return ended && ended < now && ended >= t.since ? ended : now;
}

// The node of a frame opened under `top` (nullptr: a root with parent `parent`) in th's tables:
// from the parent node's cache of children when it is th's, else by the path's key.
inline __attribute__((always_inline)) Node* child_node(Thread* th, const Frame* top,
                                                       uint64_t parent, uint8_t kind, uint16_t sub,
                                                       uint64_t code, int64_t value = 0) {
  Node* pn = top && top->owner == owner_of(th) ? top->n : nullptr;
  Node** slot = nullptr;
  if (pn) {
    slot = &pn->kids[Node::kid_slot(kind, code, value)];
    Node* kid = *slot;
    if (kid && kid->code == code && kid->kind_sub == Node::kind_sub_of(kind, sub) &&
        kid->value == value) {
      return kid;
    }
  }
  Node* n = th->nodes.get(node_key(parent, kind, sub, code, value), parent, kind, sub, code, value);
  if (slot && n) *slot = n;
  return n;
}

// Room for one more frame (and its counters); false when out of memory.
bool grow_frames(Task& r);

inline __attribute__((always_inline)) bool push_node(Thread* th, Task& r, Node* n, uint64_t key,
                                                     FrameType type, uint64_t now, uint64_t match) {
  if (__builtin_expect(r.depth == r.cap, 0) && !grow_frames(r)) return false;
  Frame& f = r.frames[r.depth];
  f.n = n;
  f.key = key;
  f.enter = clock(r, now);
  f.child = 0;
  f.match = match;
  f.frag0 = r.fragments;
  f.owner = n ? owner_of(th) : 0;
  f.type = type;
  if (g_node_counters) {
    std::memcpy(&r.frame_counters[size_t(r.depth) * kMaxCounters], r.counter_sum,
                sizeof r.counter_sum);
  }
  ++r.depth;
  return true;
}

// A root frame: a node with no parent.
inline bool push_root(Thread* th, Task& r, uint8_t kind, uint64_t code, FrameType type,
                      uint64_t now, uint64_t parent = 0) {
  Node* n = child_node(th, nullptr, parent, kind, 0, code);
  return push_node(th, r, n, n ? n->key : node_key(parent, kind, 0, code), type, now, 0);
}

inline __attribute__((always_inline)) bool push_child(Thread* th, Task& r, uint8_t kind,
                                                      uint16_t sub, uint64_t code, FrameType type,
                                                      uint64_t now, uint64_t match = 0,
                                                      int64_t value = 0) {
  const Frame* top = r.depth ? &r.frames[r.depth - 1] : nullptr;
  uint64_t parent = top ? top->key : 0;
  Node* n = child_node(th, top, parent, kind, sub, code, value);
  return push_node(th, r, n, n ? n->key : node_key(parent, kind, sub, code, value), type, now,
                   match);
}

// The counters' advance over the frame at `depth` into its node (allocating the node's
// statistics at its first visit).
void add_node_counters(Node* n, const Task& r, uint32_t depth);
// One visit's counter deltas (g_node_counters of them) into n's statistics.
void add_counter_deltas(Node* n, const uint64_t* delta);

// A frame another thread opened (a migrated task): its node in th's tables.
Node* foreign_node(Thread* th, const Frame& f);

// Closes r's top frame at the task's clock `c` (clock(r, now)).
inline __attribute__((always_inline)) void close_top_at(Thread* th, Task& r, uint64_t c) {
  const Frame& f = r.frames[--r.depth];
  uint64_t incl = c > f.enter ? c - f.enter : 0;
  Node* n = f.n;
  if (__builtin_expect(f.owner != owner_of(th), 0)) n = foreign_node(th, f);
  if (n) {
    // (An implicit task's fragments stay 0: its frames count one fragment each.)
    n->metrics.add(r.fragments - f.frag0 + 1, incl, f.child);
    if (__builtin_expect(g_node_counters != 0, 0)) add_node_counters(n, r, r.depth);
  }
  if (r.depth) r.frames[r.depth - 1].child += incl;
}

inline __attribute__((always_inline)) void close_top(Thread* th, Task& r, uint64_t now) {
  close_top_at(th, r, clock(r, now));
}

// At the end of instance x (its clock `total`): its parameters' first values into th's splits
// (profile_user.cpp).
void add_param_splits(Thread* th, const Task& x, uint64_t total);

template <class Pred>
bool close_to(Thread* th, Task& r, uint64_t now, Pred pred) {
  uint32_t i = r.depth;
  while (i > 0 && !pred(r.frames[i - 1])) --i;
  if (i == 0) return false;
  while (r.depth >= i) close_top(th, r, now);
  return true;
}

}  // namespace tasklens::recorder::prof
