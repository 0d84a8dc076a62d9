// Reads one thread's stream file chunk by chunk. Damage (a truncated tail, a corrupt chunk, a
// gap in the chunk sequence) never throws away what comes before it: it is reported as a Problem
// and reading goes on where it safely can.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "format/chunk.h"
#include "format/event.h"
#include "format/result.h"

namespace tasklens::format {

struct Problem {
  enum class Severity { kInfo, kDataLost };
  Severity severity;
  std::string message;  // names the file and the byte offset
  uint64_t events_lost = 0;  // when known
};

class StreamReader {
 public:
  // Opens the file and checks its header: "not a tasklens trace", "older/newer version" are
  // errors here.
  static Result<std::unique_ptr<StreamReader>> open(const std::string& path);
  ~StreamReader();

  uint32_t thread() const { return header_.thread; }
  uint64_t os_tid() const { return header_.os_tid; }
  const std::string& path() const { return path_; }

  // Decodes the next readable chunk into `events` (times in ticks). False at the end of what can
  // be read.
  bool next_chunk(std::vector<Event>& events, ChunkHeader* header = nullptr);
  // The same without a copy: *events points into the reader's buffer until the next call.
  bool next_chunk(const Event** events, size_t* count, ChunkHeader* header = nullptr);
  // Reads the chunk headers, from the current position to the end (for clock samples), of the
  // chunks whose checksum holds and whose thread is the stream's: the others' headers are as
  // damaged as their payloads (the whole chunk is read to check, nothing decoded).
  std::vector<ChunkHeader> scan_headers();
  // Of the chunks scan_headers() returns, the latest event time, and the clock sample with the
  // latest ns (the first chunk's of equal ones; zeros when none), read without checking every
  // chunk: the candidates are checked latest first, and the last chunk is mostly intact
  // (open_experiment: checking all of fib 30's 92 MB took 40-80 ms before any replay could start).
  struct LatestTimes {
    uint64_t last_ticks = 0, calib_ticks = 0, calib_ns = 0;
  };
  LatestTimes latest_times();

  const std::vector<Problem>& problems() const { return problems_; }

 private:
  StreamReader(std::string path, FILE* f, std::unique_ptr<char[]> buffer, FileHeader h);
  void problem(Problem::Severity s, uint64_t lost, const char* fmt, ...)
      __attribute__((format(printf, 4, 5)));
  struct ChunkAt {
    ChunkHeader header;
    uint64_t offset;
  };
  // The chunk headers from the current position on, up to the first implausible one.
  std::vector<ChunkAt> plausible_headers();
  enum class Check : int8_t { kIntact, kDamaged, kUnreadable };
  // Reads the chunk whole (into `chunk`): its checksum holds and it is the stream's thread's?
  Check check(const ChunkAt& c, std::vector<char>& chunk);

  std::string path_;
  std::unique_ptr<char[]> file_buffer_;  // file_'s stdio buffer: outlives it (declared first)
  FILE* file_;
  FileHeader header_;
  uint64_t offset_ = sizeof(FileHeader);
  bool at_offset_ = false;  // the file position is offset_
  uint64_t size_ = 0;
  uint32_t next_seq_ = 0;
  bool done_ = false;
  std::vector<uint8_t> buf_;
  std::unique_ptr<Event[]> decoded_;  // not value-initialized: decoding overwrites it
  size_t decoded_cap_ = 0;
  std::vector<Problem> problems_;
};

// Why a file of format version `v` (not readable_version) is refused: "written by an older
// tasklens (format version 0; this tasklens reads versions 1 to 2)", or "a newer".
std::string version_refusal(uint64_t v);

}  // namespace tasklens::format
