// Builds the bytes of stream files: the file header and [ChunkHeader][payload] chunks. Used by
// the recorder's writer thread and by tests that make golden traces by hand. No allocation.
#pragma once

#include <cstddef>
#include <cstdint>

#include "format/chunk.h"
#include "format/codec.h"
#include "format/event.h"

namespace tasklens::format {

FileHeader make_file_header(uint32_t thread, uint64_t os_tid);

struct ChunkInfo {
  uint32_t thread = 0;
  uint32_t seq = 0;
  uint32_t lost_before = 0;
  uint64_t calib_ticks = 0;
  uint64_t calib_ns = 0;
};

// Room build_chunk() needs for n events.
constexpr size_t max_chunk_bytes(size_t n) { return sizeof(ChunkHeader) + max_encoded_bytes(n); }

// Encodes events[0, n) (n > 0) as one chunk into `out`; returns the chunk's total size.
size_t build_chunk(const Event* events, size_t n, const ChunkInfo& info, uint8_t* out,
                   EncodeResult* result = nullptr);

}  // namespace tasklens::format
