// The chunk codec: turns a run of fixed-size Events (40 bytes each in memory) into a compact
// byte payload and back. Each event is a kind byte, a varint time delta, and only the fields
// its kind uses, ids and code addresses delta-coded against recently seen values. A payload is
// decodable on its own: predictors restart at every chunk.
#pragma once

#include <cstddef>
#include <cstdint>

#include "format/event.h"

namespace tasklens::format {

// Recent-value predictor shared by encoder and decoder (4 entries, see codec.cpp).
struct NearCache {
  uint64_t v[4] = {0, 0, 0, 0};
  unsigned next = 0;  // round-robin slot for values far from all entries
};

struct CodecState {
  uint64_t time;
  NearCache task, code;
  uint64_t parallel = 0, addr = 0;
};

// Upper bound of the bytes encode_events() writes for n events.
constexpr size_t max_encoded_bytes(size_t n) { return n * 56; }

struct EncodeResult {
  size_t bytes = 0;
  uint32_t clamped = 0;  // events whose time went backwards and were set to the previous time
  uint64_t last_time = 0;
  // Counted on the way, so that the recorder's writer need not read the events twice.
  uint32_t kind_counts[256] = {};  // events per Kind number
  uint32_t explicit_creates = 0;   // task_create events with the explicit flag
};

// Encodes events[0, n) into `out`, which has room for max_encoded_bytes(n). Times are deltas
// from `first_time` (pass events[0].time). A time lower than its predecessor's is clamped.
EncodeResult encode_events(const Event* events, size_t n, uint64_t first_time, uint8_t* out);

struct DecodeResult {
  size_t events = 0;
  bool malformed = false;  // bad bytes, or bytes left after `max` events
};

// Decodes up to `max` events of a chunk payload into `out` (times in ticks).
DecodeResult decode_events(const uint8_t* payload, size_t bytes, uint64_t first_time, Event* out,
                           size_t max);

// Decodes one event at a time from a chunk payload.
class ChunkDecoder {
 public:
  ChunkDecoder(const uint8_t* payload, size_t bytes, uint64_t first_time);
  // Fills `e` (time in ticks). False at the end of the payload or on malformed bytes; then
  // `malformed()` tells which.
  bool next(Event& e);
  bool malformed() const { return malformed_; }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
  CodecState state_;
  bool malformed_ = false;
};

}  // namespace tasklens::format
