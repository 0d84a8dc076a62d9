// One Paraver .prv record before sorting, and its compact form in the sort's runs (PrvCodec):
// a kind byte, then varints (the time as the difference from the record before in the run).
#pragma once

#include <cstdint>
#include <cstring>

#include "format/varint.h"

namespace tasklens::exports {

struct PrvRecord {
  uint64_t time;   // state begin, event time, communication send
  uint64_t time2;  // state end, communication receive
  int64_t value;   // state, event value, communication tag
  uint32_t type;   // event type
  uint32_t row;    // the object (kTaskRow: a task-view row)
  uint32_t row2;   // communication receiver
  uint8_t kind;    // 1 state, 2 event, 3 communication
};

// kind, time - prev, row (row_code), value; then the event's type (as its difference from 60000000,
// zigzag: one byte for tasklens' own types, not four), or the state's or communication's time2 -
// time (zigzag: a receive may precede its send in a damaged trace) and the receiver.
struct PrvCodec {
  static constexpr int64_t kTypeBase = 60000000;
  static constexpr size_t kMaxBytes = 1 + 4 * format::kMaxVarintBytes + 2 * 5;

  static uint8_t* encode(const PrvRecord& r, uint64_t prev, uint8_t* p) {
    *p++ = r.kind;
    p = format::put_varint(p, r.time - prev);
    p = format::put_varint(p, row_code(r.row));
    p = format::put_varint(p, format::zigzag(r.value));
    if (r.kind == 2) return format::put_varint(p, format::zigzag(int64_t(r.type) - kTypeBase));
    p = format::put_varint(p, format::zigzag(int64_t(r.time2 - r.time)));
    if (r.kind == 3) p = format::put_varint(p, row_code(r.row2));
    return p;
  }

  static const uint8_t* decode(const uint8_t* p, uint64_t prev, PrvRecord& r) {
    uint64_t v = 0;
    r.kind = *p++;
    // Most events and states have four one-byte varints (an equal or close time, a small row,
    // value and type or duration): read as one word. Every record has at least four varints
    // after its kind, so the word is inside it.
    uint32_t w;
    std::memcpy(&w, p, 4);
    if ((w & 0x80808080u) == 0 && r.kind != 3) {
      r.time = prev + (w & 0xff);
      r.row = row_of((w >> 8) & 0xff);
      r.value = format::unzigzag((w >> 16) & 0xff);
      r.row2 = 0;
      if (r.kind == 2) {
        r.type = uint32_t(format::unzigzag(w >> 24) + kTypeBase);
        r.time2 = 0;
      } else {
        r.type = 0;
        r.time2 = r.time + uint64_t(format::unzigzag(w >> 24));
      }
      return p + 4;
    }
    p = get(p, v);
    r.time = prev + v;
    p = get(p, v);
    r.row = row_of(v);
    p = get(p, v);
    r.value = format::unzigzag(v);
    r.type = 0;
    r.time2 = 0;
    r.row2 = 0;
    if (r.kind == 2) {
      p = get(p, v);
      r.type = uint32_t(format::unzigzag(v) + kTypeBase);
      return p;
    }
    p = get(p, v);
    r.time2 = r.time + uint64_t(format::unzigzag(v));
    if (r.kind == 3) {
      p = get(p, v);
      r.row2 = row_of(v);
    }
    return p;
  }

 private:
  // A row with its task-view flag (the top bit) moved to the bottom: one byte, not five, for the
  // first task-view rows.
  static uint32_t row_code(uint32_t row) { return (row << 1) | (row >> 31); }
  static uint32_t row_of(uint64_t code) { return uint32_t(code >> 1) | uint32_t(code << 31); }
  // A varint encode() wrote (so it ends within kMaxVarintBytes): read without bounds checks, the
  // merge's hottest loop.
  static const uint8_t* get(const uint8_t* p, uint64_t& v) {
    uint64_t byte = *p++;
    v = byte & 0x7f;
    for (unsigned shift = 7; (byte & 0x80) && shift < 64; shift += 7) {
      byte = *p++;
      v |= (byte & 0x7f) << shift;
    }
    return p;
  }
};

}  // namespace tasklens::exports
