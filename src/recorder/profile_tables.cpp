#include "recorder/profile_tables.h"

#include <cstdlib>

namespace tasklens::recorder::prof {
namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 27;
  return h;
}

uint32_t slot_of(uint64_t key, uint32_t cap) { return uint32_t(mix(key, 0x51ed27) & (cap - 1)); }

// Open addressing with linear probing: T has `key`-like identity given by `id(T)`, 0 = empty
// for nodes, `used` for constructs.
template <class T, class Id, class Empty>
T* probe(T* slots, uint32_t cap, uint64_t id, Id id_of, Empty empty) {
  for (uint32_t i = slot_of(id, cap);; i = (i + 1) & (cap - 1)) {
    T& s = slots[i];
    if (empty(s) || id_of(s) == id) return &s;
  }
}

template <class T, class Id, class Empty>
bool grow(T*& slots, uint32_t& cap, Id id_of, Empty empty) {
  uint32_t ncap = cap ? cap * 2 : 64;
  if (ncap < cap) return false;
  auto* fresh = static_cast<T*>(std::calloc(ncap, sizeof(T)));
  if (!fresh) return false;
  for (uint32_t i = 0; i < cap; ++i) {
    if (empty(slots[i])) continue;
    *probe(fresh, ncap, id_of(slots[i]), id_of, empty) = slots[i];
  }
  std::free(slots);
  slots = fresh;
  cap = ncap;
  return true;
}

auto node_id = [](const Node& n) { return n.key; };
auto node_empty = [](const Node& n) { return n.key == 0; };
auto construct_id = [](const Construct& c) { return c.code; };
auto construct_empty = [](const Construct& c) { return !c.used; };

}  // namespace

uint64_t node_key(uint64_t parent, uint8_t kind, uint16_t sub, uint64_t code) {
  uint64_t h = mix(mix(mix(parent, kind + 1), sub), code);
  return h ? h : 1;
}

void Construct::merge(const Construct& c) {
  created += c.created, instances += c.instances, unfinished += c.unfinished;
  discarded += c.discarded, fragments += c.fragments, migrations += c.migrations;
  time.merge(c.time), creation.merge(c.creation), start_delay.merge(c.start_delay);
  max_active = c.max_active > max_active ? c.max_active : max_active;
  for (int i = 0; i < kMaxCounters; ++i) counters[i].merge(c.counters[i]);
}

Node* NodeTable::find(uint64_t key) const {
  if (!cap) return nullptr;
  Node* n = probe(slots, cap, key, node_id, node_empty);
  return n->key == key ? n : nullptr;
}

Node* NodeTable::get(uint64_t key, uint64_t parent, uint8_t kind, uint16_t sub, uint64_t code) {
  if (cap) {
    Node* n = probe(slots, cap, key, node_id, node_empty);
    if (n->key == key) return n;
  }
  if ((used + 1) * 4 > cap * 3 && !grow(slots, cap, node_id, node_empty)) {
    full = true;
    return nullptr;
  }
  Node* n = probe(slots, cap, key, node_id, node_empty);
  *n = Node{};
  n->key = key, n->parent = parent, n->kind = kind, n->sub = sub, n->code = code;
  ++used;
  return n;
}

void NodeTable::merge(const NodeTable& other) {
  full |= other.full;
  for (uint32_t i = 0; i < other.cap; ++i) {
    const Node& o = other.slots[i];
    if (!o.key) continue;
    if (Node* n = get(o.key, o.parent, o.kind, o.sub, o.code)) n->metrics.merge(o.metrics);
  }
}

void NodeTable::release() {
  std::free(slots);
  *this = NodeTable{};
}

Construct* ConstructTable::get(uint64_t code) {
  if (cap) {
    Construct* c = probe(slots, cap, code, construct_id, construct_empty);
    if (c->used) return c;
  }
  if ((used + 1) * 4 > cap * 3 && !grow(slots, cap, construct_id, construct_empty)) {
    full = true;
    return nullptr;
  }
  Construct* c = probe(slots, cap, code, construct_id, construct_empty);
  *c = Construct{};
  c->code = code, c->used = true;
  ++used;
  return c;
}

void ConstructTable::merge(const ConstructTable& other) {
  full |= other.full;
  for (uint32_t i = 0; i < other.cap; ++i) {
    const Construct& o = other.slots[i];
    if (!o.used) continue;
    if (Construct* c = get(o.code)) c->merge(o);
  }
}

void ConstructTable::release() {
  std::free(slots);
  *this = ConstructTable{};
}

}  // namespace tasklens::recorder::prof
