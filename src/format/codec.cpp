#include "format/codec.h"

#include <array>

#include "format/kinds.h"
#include "format/varint.h"

namespace tasklens::format {
namespace {

// A value within kNear (zigzag distance) of a cache entry is written as that distance plus one,
// and updates the entry; a value far from all entries is written raw after a tag of zero, and
// replaces the round-robin entry. Tag = (distance + 1 or 0) << 2 | entry.
constexpr uint64_t kNear = uint64_t(1) << 40;

__attribute__((always_inline)) inline uint8_t* put_near(uint8_t* p, NearCache& c, uint64_t v) {
  unsigned best = 0;
  uint64_t best_z = zigzag(int64_t(v - c.v[0]));
  for (unsigned i = 1; i < 4; ++i) {
    uint64_t z = zigzag(int64_t(v - c.v[i]));
    if (z < best_z) best_z = z, best = i;
  }
  if (best_z < kNear) {
    c.v[best] = v;
    return put_varint(p, ((best_z + 1) << 2) | best);
  }
  unsigned slot = c.next;
  c.next = (c.next + 1) & 3;
  c.v[slot] = v;
  p = put_varint(p, slot);
  return put_varint(p, v);
}

inline const uint8_t* get_near(const uint8_t* p, const uint8_t* end, NearCache& c, uint64_t* v) {
  uint64_t x;
  p = get_varint(p, end, &x);
  if (!p) return nullptr;
  unsigned slot = unsigned(x & 3);
  uint64_t tag = x >> 2;
  if (tag == 0) {
    p = get_varint(p, end, v);
    if (!p) return nullptr;
    c.next = (slot + 1) & 3;
  } else {
    *v = c.v[slot] + uint64_t(unzigzag(tag - 1));
  }
  c.v[slot] = *v;
  return p;
}

__attribute__((always_inline)) inline uint8_t* put_slot(uint8_t* p, Slot slot, uint64_t v,
                                                     CodecState& s) {
  switch (slot) {
    case Slot::kNone:
      return p;
    case Slot::kRaw:
      return put_varint(p, v);
    case Slot::kSigned:
      return put_varint(p, zigzag(int64_t(v)));
    case Slot::kTask:
      return put_near(p, s.task, v);
    case Slot::kCode:
      return put_near(p, s.code, v);
    case Slot::kParallel: {
      uint64_t d = v - s.parallel;
      s.parallel = v;
      return put_varint(p, zigzag(int64_t(d)));
    }
    case Slot::kAddr: {
      uint64_t d = v - s.addr;
      s.addr = v;
      return put_varint(p, zigzag(int64_t(d)));
    }
  }
  return p;
}

inline const uint8_t* get_slot(const uint8_t* p, const uint8_t* end, Slot slot, CodecState& s,
                               uint64_t* v) {
  uint64_t x = 0;
  switch (slot) {
    case Slot::kNone:
      *v = 0;
      return p;
    case Slot::kRaw:
      return get_varint(p, end, v);
    case Slot::kSigned:
      p = get_varint(p, end, &x);
      *v = uint64_t(unzigzag(x));
      return p;
    case Slot::kTask:
      return get_near(p, end, s.task, v);
    case Slot::kCode:
      return get_near(p, end, s.code, v);
    case Slot::kParallel:
      p = get_varint(p, end, &x);
      *v = s.parallel += uint64_t(unzigzag(x));
      return p;
    case Slot::kAddr:
      p = get_varint(p, end, &x);
      *v = s.addr += uint64_t(unzigzag(x));
      return p;
  }
  return nullptr;
}

// What the encoder needs of a kind's layout, packed (the writer thread's inner loop).
struct Packed {
  bool op, sub, flags;
  Slot a, b, c;
};

const Packed* packed_layouts() {
  static const auto table = [] {
    std::array<Packed, 256> t{};
    for (size_t k = 0; k < size_t(Kind::kCount); ++k) {
      const KindLayout& l = layout(Kind(k));
      t[k] = {!l.op.empty(), !l.sub.empty(), !l.flags.empty(), l.a, l.b, l.c};
    }
    return t;
  }();
  return table.data();
}

}  // namespace

EncodeResult encode_events(const Event* events, size_t n, uint64_t first_time, uint8_t* out) {
  EncodeResult r;
  CodecState s;
  s.time = first_time;
  uint8_t* p = out;
  const Packed* layouts = packed_layouts();
  for (size_t i = 0; i < n; ++i) {
    const Event& e = events[i];
    const Packed& l = layouts[uint8_t(e.kind)];
    uint64_t t = e.time;
    if (t < s.time) {
      t = s.time;
      ++r.clamped;
    }
    *p++ = uint8_t(e.kind);
    p = put_varint(p, t - s.time);
    s.time = t;
    ++r.kind_counts[uint8_t(e.kind)];
    switch (e.kind) {
      // The kinds that make most of a task program's events, coded without a look at their
      // layout: the same bytes as the general case below (the codec tests round-trip every
      // kind through the layout-driven decoder).
      case Kind::kTaskSchedule:
        *p++ = e.op;
        p = put_near(p, s.task, e.a);
        p = put_near(p, s.task, e.b);
        continue;
      case Kind::kTaskCreate:
        r.explicit_creates += (e.flags & task_flag::kExplicit) != 0;
        *p++ = e.op;
        p = put_varint(p, e.flags);
        p = put_near(p, s.task, e.a);
        p = put_near(p, s.task, e.b);
        p = put_near(p, s.code, e.c);
        continue;
      case Kind::kSyncRegion:
      case Kind::kSyncRegionWait:
        *p++ = e.op;
        p = put_varint(p, e.sub);
        p = put_slot(p, Slot::kParallel, e.a, s);
        p = put_near(p, s.task, e.b);
        p = put_near(p, s.code, e.c);
        continue;
      default:
        break;
    }
    if (l.op) *p++ = e.op;
    if (l.sub) p = put_varint(p, e.sub);
    if (l.flags) p = put_varint(p, e.flags);
    p = put_slot(p, l.a, e.a, s);
    p = put_slot(p, l.b, e.b, s);
    p = put_slot(p, l.c, e.c, s);
  }
  r.bytes = size_t(p - out);
  r.last_time = s.time;
  return r;
}

ChunkDecoder::ChunkDecoder(const uint8_t* payload, size_t bytes, uint64_t first_time)
    : p_(payload), end_(payload + bytes) {
  state_.time = first_time;
}

bool ChunkDecoder::next(Event& e) {
  if (p_ >= end_ || malformed_) return false;
  const uint8_t* p = p_;
  uint8_t kind = *p++;
  if (kind == 0 || kind >= uint8_t(Kind::kCount)) {
    malformed_ = true;
    return false;
  }
  e.kind = Kind(kind);
  const KindLayout& l = layout(e.kind);
  uint64_t x = 0;
  p = get_varint(p, end_, &x);
  if (!p) return malformed_ = true, false;
  state_.time += x;
  e.time = state_.time;
  e.op = 0;
  e.sub = 0;
  e.flags = 0;
  if (!l.op.empty()) {
    if (p >= end_) return malformed_ = true, false;
    e.op = *p++;
  }
  if (!l.sub.empty()) {
    if (!(p = get_varint(p, end_, &x))) return malformed_ = true, false;
    e.sub = uint16_t(x);
  }
  if (!l.flags.empty()) {
    if (!(p = get_varint(p, end_, &x))) return malformed_ = true, false;
    e.flags = uint32_t(x);
  }
  if (!(p = get_slot(p, end_, l.a, state_, &e.a))) return malformed_ = true, false;
  if (!(p = get_slot(p, end_, l.b, state_, &e.b))) return malformed_ = true, false;
  if (!(p = get_slot(p, end_, l.c, state_, &e.c))) return malformed_ = true, false;
  p_ = p;
  return true;
}

}  // namespace tasklens::format
