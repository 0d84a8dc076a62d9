// The on-disk layout of a thread stream: a file header, then self-describing chunks.
// Byte order is the machine's (little-endian x86-64); the version field doubles as a
// byte-order mark. See docs/FORMAT.md.
#pragma once

#include <cstdint>
#include <cstring>

namespace tasklens::format {

// Bumped whenever a reader of the previous version could misread the new bytes. Version 2 added
// the `counters` kind (perf_event counter samples, `tasklens run --counters`); a version-1 file
// has none and reads the same, so this tasklens reads versions kOldestReadVersion to
// kFormatVersion and writes kFormatVersion.
constexpr uint16_t kFormatVersion = 2;
constexpr uint16_t kOldestReadVersion = 1;

constexpr bool readable_version(uint64_t v) {
  return v >= kOldestReadVersion && v <= kFormatVersion;
}

constexpr char kStreamMagic[8] = {'T', 'A', 'S', 'K', 'L', 'E', 'N', 'S'};
constexpr uint32_t kChunkMagic = 0x4b43'4c54;  // "TLCK" in memory order

// The most threads a recording holds (the recorder refuses more): a stream's thread index is
// below this.
constexpr uint32_t kMaxThreads = 4096;

// Stream files are named thread-NNNN.tlt in the experiment directory.
constexpr const char* kStreamPrefix = "thread-";
constexpr const char* kStreamSuffix = ".tlt";
constexpr const char* kMetadataFile = "experiment.json";

struct FileHeader {
  char magic[8];
  uint16_t version;
  uint16_t header_bytes;  // sizeof(FileHeader)
  uint32_t thread;        // 0-based thread index, order of first appearance
  uint64_t os_tid;        // the thread's Linux tid
  uint64_t reserved;
};
static_assert(sizeof(FileHeader) == 32);

struct ChunkHeader {
  uint32_t magic;
  uint16_t version;
  uint16_t header_bytes;   // sizeof(ChunkHeader)
  uint32_t thread;
  uint32_t seq;            // 0, 1, 2... per thread: a gap means chunks were lost
  uint32_t event_count;
  uint32_t payload_bytes;
  uint32_t lost_before;    // events dropped on this thread since the previous chunk
  uint32_t checksum;       // over this header (with checksum = 0) and the payload
  uint64_t first_time;     // ticks of the first event; the payload's deltas start here
  uint64_t last_time;      // ticks of the last event
  uint64_t calib_ticks;    // a clock sample taken by the writer when it wrote the chunk...
  uint64_t calib_ns;       // ...and CLOCK_MONOTONIC at the same moment
};
static_assert(sizeof(ChunkHeader) == 64);

}  // namespace tasklens::format
