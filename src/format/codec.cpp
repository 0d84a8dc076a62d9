#include "format/codec.h"

#include <array>
#include <utility>

#include "format/kinds.h"
#include "format/varint.h"

namespace tasklens::format {
namespace {

// A value within kNear (zigzag distance) of a cache entry is written as that distance plus one,
// and updates the entry; a value far from all entries is written raw after a tag of zero, and
// replaces the round-robin entry. Tag = (distance + 1 or 0) << 2 | entry.
constexpr uint64_t kNear = uint64_t(1) << 40;

__attribute__((always_inline)) inline uint8_t* put_near(uint8_t* p, NearCache& c, uint64_t v) {
  // Most values repeat one of the entries (a parent, the task that ran before, the same
  // construct): the first equal entry is the one the search below would choose.
  unsigned eq = unsigned(v == c.v[0]) | unsigned(v == c.v[1]) << 1 | unsigned(v == c.v[2]) << 2 |
                unsigned(v == c.v[3]) << 3;
  if (__builtin_expect(eq != 0, 1)) {
    *p++ = uint8_t((1u << 2) | unsigned(__builtin_ctz(eq)));
    return p;
  }
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

// Encodes the fields of an event of kind K after its kind byte and time delta: the layout is
// known at compile time, so each kind gets straight-line code (the writer thread's inner loop).
template <size_t K>
uint8_t* encode_fields(uint8_t* p, CodecState& s, const Event& e) {
  constexpr KindLayout l = kKindLayouts[K];
  if constexpr (!l.op.empty()) *p++ = e.op;
  if constexpr (!l.sub.empty()) p = put_varint(p, e.sub);
  if constexpr (!l.flags.empty()) p = put_varint(p, e.flags);
  p = put_slot(p, l.a, e.a, s);
  p = put_slot(p, l.b, e.b, s);
  return put_slot(p, l.c, e.c, s);
}

using EncodeFn = uint8_t* (*)(uint8_t*, CodecState&, const Event&);

template <size_t... K>
constexpr std::array<EncodeFn, sizeof...(K)> make_encoders(std::index_sequence<K...>) {
  return {&encode_fields<K>...};
}

constexpr auto kEncoders = make_encoders(std::make_index_sequence<size_t(Kind::kCount)>());

}  // namespace

EncodeResult encode_events(const Event* events, size_t n, uint64_t first_time, uint8_t* out) {
  EncodeResult r;
  CodecState s;
  s.time = first_time;
  uint8_t* p = out;
  for (size_t i = 0; i < n; ++i) {
    const Event& e = events[i];
    uint64_t t = e.time;
    if (t < s.time) {
      t = s.time;
      ++r.clamped;
    }
    *p++ = uint8_t(e.kind);
    p = put_varint(p, t - s.time);
    s.time = t;
    ++r.kind_counts[uint8_t(e.kind)];
    r.explicit_creates += creates_explicit_task(e);
    // Kinds out of range are written as their number alone (the reader rejects them).
    if (size_t(e.kind) < kEncoders.size()) p = kEncoders[size_t(e.kind)](p, s, e);
  }
  r.bytes = size_t(p - out);
  r.last_time = s.time;
  return r;
}

namespace {

// A varint read without a bound: only called when at least kMaxEventBytes remain.
__attribute__((always_inline)) inline const uint8_t* get_varint_unchecked(const uint8_t* p,
                                                                          uint64_t* v) {
  uint64_t b = *p++;
  if (__builtin_expect(b < 0x80, 1)) {
    *v = b;
    return p;
  }
  uint64_t result = b & 0x7f;
  for (unsigned shift = 7; shift < 64; shift += 7) {
    b = *p++;
    result |= (b & 0x7f) << shift;
    if (b < 0x80) {
      *v = result;
      return p;
    }
  }
  return nullptr;  // over-long
}

// The largest encoding of one event (see max_encoded_bytes), plus margin.
constexpr size_t kMaxEventBytes = 64;

template <bool kChecked>
__attribute__((always_inline)) inline const uint8_t* varint(const uint8_t* p, const uint8_t* end,
                                                            uint64_t* v) {
  return kChecked ? get_varint(p, end, v) : get_varint_unchecked(p, v);
}

template <bool kChecked>
__attribute__((always_inline)) inline const uint8_t* decode_slot(const uint8_t* p,
                                                                 const uint8_t* end, Slot slot,
                                                                 CodecState& s, uint64_t* v) {
  uint64_t x = 0;
  switch (slot) {
    case Slot::kNone:
      *v = 0;
      return p;
    case Slot::kRaw:
      return varint<kChecked>(p, end, v);
    case Slot::kSigned:
      p = varint<kChecked>(p, end, &x);
      *v = uint64_t(unzigzag(x));
      return p;
    case Slot::kTask:
    case Slot::kCode: {
      NearCache& c = slot == Slot::kTask ? s.task : s.code;
      if (!(p = varint<kChecked>(p, end, &x))) return nullptr;
      unsigned entry = unsigned(x & 3);
      uint64_t tag = x >> 2;
      if (tag == 0) {
        if (!(p = varint<kChecked>(p, end, v))) return nullptr;
        c.next = (entry + 1) & 3;
      } else {
        *v = c.v[entry] + uint64_t(unzigzag(tag - 1));
      }
      c.v[entry] = *v;
      return p;
    }
    case Slot::kParallel:
      p = varint<kChecked>(p, end, &x);
      *v = s.parallel += uint64_t(unzigzag(x));
      return p;
    case Slot::kAddr:
      p = varint<kChecked>(p, end, &x);
      *v = s.addr += uint64_t(unzigzag(x));
      return p;
  }
  return nullptr;
}

// Decodes the fields of an event of kind K, which the caller has read: the layout is known at
// compile time, so each kind gets straight-line code.
template <size_t K, bool kChecked>
const uint8_t* decode_fields(const uint8_t* p, const uint8_t* end, CodecState& s, Event& e) {
  constexpr KindLayout l = kKindLayouts[K];
  uint64_t x = 0;
  if (!(p = varint<kChecked>(p, end, &x))) return nullptr;
  s.time += x;
  e.time = s.time;
  e.kind = Kind(K);
  e.op = 0;
  e.sub = 0;
  e.flags = 0;
  if constexpr (!l.op.empty()) {
    if (kChecked && p >= end) return nullptr;
    e.op = *p++;
  }
  if constexpr (!l.sub.empty()) {
    if (!(p = varint<kChecked>(p, end, &x))) return nullptr;
    e.sub = uint16_t(x);
  }
  if constexpr (!l.flags.empty()) {
    if (!(p = varint<kChecked>(p, end, &x))) return nullptr;
    e.flags = uint32_t(x);
  }
  if (!(p = decode_slot<kChecked>(p, end, l.a, s, &e.a))) return nullptr;
  if (!(p = decode_slot<kChecked>(p, end, l.b, s, &e.b))) return nullptr;
  return decode_slot<kChecked>(p, end, l.c, s, &e.c);
}

using DecodeFn = const uint8_t* (*)(const uint8_t*, const uint8_t*, CodecState&, Event&);

template <bool kChecked, size_t... K>
constexpr std::array<DecodeFn, sizeof...(K)> make_decoders(std::index_sequence<K...>) {
  return {&decode_fields<K, kChecked>...};
}

template <bool kChecked>
constexpr auto kDecoders = make_decoders<kChecked>(std::make_index_sequence<size_t(Kind::kCount)>());

// Decodes one event at p; nullptr when malformed.
template <bool kChecked>
__attribute__((always_inline)) inline const uint8_t* decode_one(const uint8_t* p,
                                                                const uint8_t* end, CodecState& s,
                                                                Event& e) {
  uint8_t kind = *p++;
  if (kind == 0 || kind >= uint8_t(Kind::kCount)) return nullptr;
  return kDecoders<kChecked>[kind](p, end, s, e);
}

}  // namespace

DecodeResult decode_events(const uint8_t* payload, size_t bytes, uint64_t first_time, Event* out,
                           size_t max) {
  DecodeResult r;
  CodecState s;
  s.time = first_time;
  const uint8_t* p = payload;
  const uint8_t* end = payload + bytes;
  // Without bound checks while a whole event surely fits, with them near the end.
  while (r.events < max && end - p >= ptrdiff_t(kMaxEventBytes)) {
    p = decode_one<false>(p, end, s, out[r.events]);
    if (!p) return r.malformed = true, r;
    ++r.events;
  }
  while (r.events < max && p < end) {
    p = decode_one<true>(p, end, s, out[r.events]);
    if (!p) return r.malformed = true, r;
    ++r.events;
  }
  if (p < end) r.malformed = true;  // more bytes than the events announced
  return r;
}

ChunkDecoder::ChunkDecoder(const uint8_t* payload, size_t bytes, uint64_t first_time)
    : p_(payload), end_(payload + bytes) {
  state_.time = first_time;
}

bool ChunkDecoder::next(Event& e) {
  if (p_ >= end_ || malformed_) return false;
  const uint8_t* p = decode_one<true>(p_, end_, state_, e);
  if (!p) return malformed_ = true, false;
  p_ = p;
  return true;
}

}  // namespace tasklens::format
