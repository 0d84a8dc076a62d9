#include "recorder/profile_tables.h"

#include <cstddef>
#include <cstdlib>
#include <new>

namespace tasklens::recorder::prof {
namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 27;
  return h;
}

uint32_t slot_of(uint64_t key, uint32_t cap) {
  return uint32_t(mix(key, 0x51ed27) & (cap - 1));
}

// Open addressing with linear probing over pointers (nullptr: an empty slot); `id_of(T)` is an
// entry's identity.
template <class T, class Id>
T** probe(T** slots, uint32_t cap, uint64_t id, Id id_of) {
  for (uint32_t i = slot_of(id, cap);; i = (i + 1) & (cap - 1)) {
    T** s = &slots[i];
    if (!*s || id_of(**s) == id) return s;
  }
}

template <class T, class Id>
bool grow(T**& slots, uint32_t& cap, Id id_of) {
  uint32_t ncap = cap ? cap * 2 : 64;
  if (ncap < cap) return false;
  auto** fresh = static_cast<T**>(std::calloc(ncap, sizeof(T*)));
  if (!fresh) return false;
  for (uint32_t i = 0; i < cap; ++i) {
    if (slots[i]) *probe(fresh, ncap, id_of(*slots[i]), id_of) = slots[i];
  }
  std::free(slots);
  slots = fresh;
  cap = ncap;
  return true;
}

constexpr uint32_t kPerBlock = 64;

// A new entry from the table's blocks (a fresh block when the last is full); nullptr when out of
// memory. Entries never move.
template <class T>
T* allocate(Block*& blocks) {
  static_assert(alignof(T) <= alignof(std::max_align_t), "blocks are malloc-aligned");
  constexpr size_t kHead = (sizeof(Block) + alignof(T) - 1) / alignof(T) * alignof(T);
  if (!blocks || blocks->used == kPerBlock) {
    auto* b = static_cast<Block*>(std::malloc(kHead + kPerBlock * sizeof(T)));
    if (!b) return nullptr;
    b->next = blocks, b->used = 0;
    blocks = b;
  }
  auto* items = reinterpret_cast<T*>(reinterpret_cast<char*>(blocks) + kHead);
  return new (&items[blocks->used++]) T{};
}

void free_blocks(Block* b) {
  while (b) {
    Block* next = b->next;
    std::free(b);
    b = next;
  }
}

// Finds `id` or makes its entry (`init` sets its identity); nullptr when out of memory.
template <class T, class Id, class Init>
T* get_or_make(T**& slots, uint32_t& cap, uint32_t& used, bool& full, Block*& blocks, uint64_t id,
               Id id_of, Init init) {
  if (cap) {
    T* e = *probe(slots, cap, id, id_of);
    if (e) return e;
  }
  if ((used + 1) * 4 > cap * 3 && !grow(slots, cap, id_of)) {
    full = true;
    return nullptr;
  }
  T* e = allocate<T>(blocks);
  if (!e) {
    full = true;
    return nullptr;
  }
  init(*e);
  *probe(slots, cap, id, id_of) = e;
  ++used;
  return e;
}

auto node_id = [](const Node& n) { return n.key; };
auto construct_id = [](const Construct& c) { return c.code; };
auto param_id = [](const ParamValue& p) { return p.key; };

}  // namespace

int g_node_counters = 0;

uint64_t node_key(uint64_t parent, uint8_t kind, uint16_t sub, uint64_t code, int64_t value) {
  uint64_t h = mix(mix(mix(parent, kind + 1), sub), code);
  if (value) h = mix(h, uint64_t(value));
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
  return *probe(slots, cap, key, node_id);
}

Node* NodeTable::get(uint64_t key, uint64_t parent, uint8_t kind, uint16_t sub, uint64_t code,
                     int64_t value) {
  return get_or_make(slots, cap, used, full, blocks, key, node_id, [&](Node& n) {
    n.key = key, n.parent = parent, n.kind = kind, n.sub = sub, n.code = code, n.value = value;
    n.kind_sub = Node::kind_sub_of(kind, sub);
  });
}

void NodeTable::merge(const NodeTable& other) {
  full |= other.full;
  for (uint32_t i = 0; i < other.cap; ++i) {
    const Node* o = other.slots[i];
    if (!o) continue;
    Node* n = get(*o);
    if (!n) continue;
    n->metrics.merge(o->metrics);
    if (!o->counters || g_node_counters <= 0) continue;
    if (!n->counters)
      n->counters = static_cast<Stat*>(std::calloc(size_t(g_node_counters), sizeof(Stat)));
    if (!n->counters) {
      full = true;
      continue;
    }
    for (int c = 0; c < g_node_counters; ++c) n->counters[c].merge(o->counters[c]);
  }
}

void NodeTable::release() {
  for (uint32_t i = 0; i < cap; ++i) {
    if (slots[i]) std::free(slots[i]->counters);
  }
  std::free(slots);
  free_blocks(blocks);
  *this = NodeTable{};
}

Construct* ConstructTable::get(uint64_t code) {
  return get_or_make(slots, cap, used, full, blocks, code, construct_id,
                     [code](Construct& c) { c.code = code; });
}

void ConstructTable::merge(const ConstructTable& other) {
  full |= other.full;
  for (uint32_t i = 0; i < other.cap; ++i) {
    const Construct* o = other.slots[i];
    if (!o) continue;
    if (Construct* c = get(o->code)) c->merge(*o);
  }
}

ParamValue* ParamTable::get(uint64_t code, uint64_t name, int64_t value) {
  uint64_t key = mix(mix(code, name), uint64_t(value));
  return get_or_make(slots, cap, used, full, blocks, key, param_id, [&](ParamValue& p) {
    p.key = key, p.code = code, p.name = name, p.value = value;
  });
}

void ParamTable::merge(const ParamTable& other) {
  full |= other.full;
  for (uint32_t i = 0; i < other.cap; ++i) {
    const ParamValue* o = other.slots[i];
    if (!o) continue;
    if (ParamValue* p = get(o->code, o->name, o->value))
      p->time.merge(o->time), p->again += o->again;
  }
}

void ParamTable::release() {
  std::free(slots);
  free_blocks(blocks);
  *this = ParamTable{};
}

void ConstructTable::release() {
  std::free(slots);
  free_blocks(blocks);
  *this = ConstructTable{};
}

}  // namespace tasklens::recorder::prof
