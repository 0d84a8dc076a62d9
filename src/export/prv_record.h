// One Paraver .prv record before sorting, and its compact form in the sort's runs (PrvCodec):
// a header byte, then varints (the time as the difference from the record before in the run).
#pragma once

#include <cstdint>

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

// A header byte: the kind, and whether the time and the row are the record before's (most are:
// records of one time come together, a row's events of one time too, prv_group.h); then varints:
// the time - the time before and the row (row_code) unless the same, the value, then the event's
// type (as its difference from 60000000, zigzag: one byte for tasklens' own types, not four), or
// the state's or communication's time2 - time (zigzag: a receive may precede its send in a
// damaged trace) and the receiver.
struct PrvCodec {
  static constexpr int64_t kTypeBase = 60000000;
  static constexpr size_t kMaxBytes = 1 + 4 * format::kMaxVarintBytes + 2 * 5;
  static constexpr uint8_t kSameTime = 4, kSameRow = 8;

  static uint8_t* encode(const PrvRecord& r, const PrvRecord& prev, uint8_t* p) {
    uint8_t* head = p++;
    uint8_t h = r.kind;
    if (r.time == prev.time) {
      h |= kSameTime;
    } else {
      p = format::put_varint(p, r.time - prev.time);
    }
    if (r.row == prev.row) {
      h |= kSameRow;
    } else {
      p = format::put_varint(p, row_code(r.row));
    }
    *head = h;
    p = format::put_varint(p, format::zigzag(r.value));
    if (r.kind == 2) return format::put_varint(p, format::zigzag(int64_t(r.type) - kTypeBase));
    p = format::put_varint(p, format::zigzag(int64_t(r.time2 - r.time)));
    if (r.kind == 3) p = format::put_varint(p, row_code(r.row2));
    return p;
  }

  // `r` holds the record before (the run's context): decoded in place.
  [[gnu::always_inline]] static const uint8_t* decode(const uint8_t* p, PrvRecord& r) {
    uint64_t v;
    uint8_t h = *p++;
    r.kind = h & 3;
    if (!(h & kSameTime)) {
      p = get(p, v);
      r.time += v;
    }
    if (!(h & kSameRow)) {
      p = get(p, v);
      r.row = row_of(v);
    }
    p = get(p, v);
    r.value = format::unzigzag(v);
    p = get(p, v);
    r.row2 = 0;
    if (r.kind == 2) {
      r.type = uint32_t(format::unzigzag(v) + kTypeBase);
      r.time2 = 0;
      return p;
    }
    r.type = 0;
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
  // merge's hottest loop; most are one byte.
  [[gnu::always_inline]] static const uint8_t* get(const uint8_t* p, uint64_t& v) {
    uint64_t byte = *p++;
    v = byte;
    if (!(byte & 0x80)) return p;
    return get_more(p, v);
  }
  static const uint8_t* get_more(const uint8_t* p, uint64_t& v) {
    v &= 0x7f;
    uint64_t byte;
    unsigned shift = 7;
    do {
      byte = *p++;
      v |= (byte & 0x7f) << shift;
      shift += 7;
    } while ((byte & 0x80) && shift < 64);
    return p;
  }
};

}  // namespace tasklens::exports
