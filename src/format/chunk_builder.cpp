// ChunkBuilder: stream file header and chunks, bytes only, no allocation.
#include "format/chunk_builder.h"

#include <cstring>

#include "format/checksum.h"

namespace tasklens::format {

FileHeader make_file_header(uint32_t thread, uint64_t os_tid) {
  FileHeader h{};
  std::memcpy(h.magic, kStreamMagic, sizeof h.magic);
  h.version = kFormatVersion;
  h.header_bytes = sizeof(FileHeader);
  h.thread = thread;
  h.os_tid = os_tid;
  return h;
}

size_t build_chunk(const Event* events, size_t n, const ChunkInfo& info, uint8_t* out,
                   EncodeResult* result) {
  EncodeResult r = encode_events(events, n, events[0].time, out + sizeof(ChunkHeader));
  ChunkHeader h{};
  h.magic = kChunkMagic;
  h.version = kFormatVersion;
  h.header_bytes = sizeof(ChunkHeader);
  h.thread = info.thread;
  h.seq = info.seq;
  h.event_count = uint32_t(n);
  h.payload_bytes = uint32_t(r.bytes);
  h.lost_before = info.lost_before;
  h.first_time = events[0].time;
  h.last_time = r.last_time;
  h.calib_ticks = info.calib_ticks;
  h.calib_ns = info.calib_ns;
  h.checksum = 0;
  std::memcpy(out, &h, sizeof h);
  uint32_t sum = checksum(out, sizeof(ChunkHeader) + r.bytes);
  std::memcpy(out + offsetof(ChunkHeader, checksum), &sum, sizeof sum);
  if (result) *result = r;
  return sizeof(ChunkHeader) + r.bytes;
}

}  // namespace tasklens::format
