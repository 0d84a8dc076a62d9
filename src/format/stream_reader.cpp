// StreamReader: one thread's stream file chunk by chunk, damage reported as Problems.
#include "format/stream_reader.h"

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstring>

#include <unistd.h>

#include "format/checksum.h"
#include "format/codec.h"

namespace tasklens::format {
namespace {

// The most events a chunk may claim; more means the header is garbage.
constexpr uint32_t kMaxChunkEvents = 1u << 24;
constexpr size_t kReadBuffer = size_t(1) << 18;

bool plausible(const ChunkHeader& h, uint64_t remaining) {
  return h.magic == kChunkMagic && readable_version(h.version) &&
         h.header_bytes == sizeof(ChunkHeader) && h.event_count > 0 &&
         h.event_count <= kMaxChunkEvents && h.payload_bytes <= remaining;
}

}  // namespace

std::string version_refusal(uint64_t v) {
  std::string reads = kOldestReadVersion == kFormatVersion
                          ? "version " + std::to_string(kFormatVersion)
                          : "versions " + std::to_string(kOldestReadVersion) + " to " +
                                std::to_string(kFormatVersion);
  return std::string("written by ") + (v < kOldestReadVersion ? "an older" : "a newer") +
         " tasklens (format version " + std::to_string(v) + "; this tasklens reads " + reads + ")";
}

Result<std::unique_ptr<StreamReader>> StreamReader::open(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return Error{path + ": " + std::strerror(errno)};
  // Chunks are read one after the other: a large buffer makes one read() of many of them
  // (glibc ignores the size unless it is given the buffer).
  std::unique_ptr<char[]> buffer(new char[kReadBuffer]);
  std::setvbuf(f, buffer.get(), _IOFBF, kReadBuffer);
  FileHeader h{};
  size_t got = std::fread(&h, 1, sizeof h, f);
  size_t magic_bytes = std::min(got, sizeof h.magic);
  if (std::memcmp(h.magic, kStreamMagic, magic_bytes) != 0) {
    std::fclose(f);
    return Error{path + ": not a tasklens trace (bad magic)"};
  }
  // The thread index the file's name gives ("thread-0007.tlt"), when it gives one.
  std::string base = path.substr(path.find_last_of('/') + 1);
  unsigned named = 0;
  int used = 0;
  bool has_name = std::sscanf(base.c_str(), "thread-%u.tlt%n", &named, &used) == 1 &&
                  size_t(used) == base.size();
  if (got < sizeof h) {
    // What is there is the start of a stream header: the run ended (killed) right after it
    // created the file. Not an error for the experiment: this thread's stream is just empty.
    // Its thread index sizes per-thread tables too: the name's, the header's only when whole
    // and in range (a 25-byte header gave 84 million threads and 4 GB of tables, a fuzzer found).
    bool whole = got >= offsetof(FileHeader, thread) + sizeof h.thread && h.thread < kMaxThreads;
    if (has_name && named < kMaxThreads) {
      h.thread = named;
    } else if (!whole) {
      std::fclose(f);
      return Error{path + ": truncated file header (" + std::to_string(got) + " of " +
                   std::to_string(sizeof h) + " bytes) without a thread index; not read"};
    }
    auto r = std::unique_ptr<StreamReader>(new StreamReader(path, f, std::move(buffer), h));
    r->done_ = true;
    r->problem(Problem::Severity::kDataLost, 0,
               "truncated file header (%zu of %zu bytes): nothing of this thread was written",
               got, sizeof h);
    return r;
  }
  if (!readable_version(h.version)) {
    std::fclose(f);
    return Error{path + ": " + version_refusal(h.version)};
  }
  // The thread index sizes per-thread tables everywhere after: checked before any is made.
  std::string bad;
  if (h.header_bytes != sizeof h) {
    bad = "file header size is " + std::to_string(h.header_bytes) + ", not " +
          std::to_string(sizeof h);
  } else if (h.thread >= kMaxThreads) {
    bad = "thread field is " + std::to_string(h.thread) + ", beyond the " +
          std::to_string(kMaxThreads) + " threads a recording holds";
  } else if (has_name && named != h.thread) {
    bad = "thread field is " + std::to_string(h.thread) + " but the file is named for thread " +
          std::to_string(named);
  }
  if (!bad.empty()) {
    std::fclose(f);
    return Error{path + ": corrupt file header: " + bad + "; the stream is not read"};
  }
  return std::unique_ptr<StreamReader>(new StreamReader(path, f, std::move(buffer), h));
}

StreamReader::StreamReader(std::string path, FILE* f, std::unique_ptr<char[]> buffer,
                           FileHeader h)
    : path_(std::move(path)), file_buffer_(std::move(buffer)), file_(f), header_(h) {
  std::fseek(file_, 0, SEEK_END);
  size_ = uint64_t(std::ftell(file_));
  std::fseek(file_, long(offset_), SEEK_SET);
  at_offset_ = true;
}

StreamReader::~StreamReader() { std::fclose(file_); }

void StreamReader::problem(Problem::Severity s, uint64_t lost, const char* fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  problems_.push_back(Problem{s, path_ + ": " + msg, lost});
}

bool StreamReader::next_chunk(std::vector<Event>& events, ChunkHeader* header) {
  const Event* data = nullptr;
  size_t n = 0;
  bool ok = next_chunk(&data, &n, header);
  events.assign(data, data + n);
  return ok;
}

bool StreamReader::next_chunk(const Event** out_events, size_t* out_count,
                              ChunkHeader* out_header) {
  *out_events = nullptr;
  *out_count = 0;
  while (!done_) {
    if (offset_ == size_) return done_ = true, false;
    ChunkHeader h{};
    uint64_t remaining = size_ - offset_;
    if (remaining < sizeof h) {
      problem(Problem::Severity::kDataLost, 0,
              "truncated at byte %llu: %llu bytes of an incomplete chunk header (chunk %u); "
              "what follows was lost",
              (unsigned long long)offset_, (unsigned long long)remaining, next_seq_);
      return done_ = true, false;
    }
    // A seek drops the stdio buffer (and costs a system call): only when not there already.
    if (!at_offset_) std::fseek(file_, long(offset_), SEEK_SET);
    at_offset_ = false;
    if (std::fread(&h, 1, sizeof h, file_) != sizeof h) {
      problem(Problem::Severity::kDataLost, 0, "read error at byte %llu: %s",
              (unsigned long long)offset_, std::strerror(errno));
      return done_ = true, false;
    }
    if (h.magic != kChunkMagic || h.header_bytes != sizeof(ChunkHeader) || h.event_count == 0 ||
        h.event_count > kMaxChunkEvents) {
      problem(Problem::Severity::kDataLost, 0,
              "corrupt chunk header at byte %llu (chunk %u); the rest of the stream is unreadable",
              (unsigned long long)offset_, next_seq_);
      return done_ = true, false;
    }
    if (!readable_version(h.version)) {
      problem(Problem::Severity::kDataLost, h.event_count,
              "chunk %u at byte %llu has format version %u; this tasklens reads %u", h.seq,
              (unsigned long long)offset_, h.version, kFormatVersion);
      return done_ = true, false;
    }
    if (h.payload_bytes > remaining - sizeof h) {
      problem(Problem::Severity::kDataLost, h.event_count,
              "truncated at byte %llu: chunk %u needs %u payload bytes, %llu are left; its %u "
              "events were lost",
              (unsigned long long)offset_, h.seq, h.payload_bytes,
              (unsigned long long)(remaining - sizeof h), h.event_count);
      return done_ = true, false;
    }
    buf_.resize(sizeof h + h.payload_bytes);
    std::memcpy(buf_.data(), &h, sizeof h);
    if (std::fread(buf_.data() + sizeof h, 1, h.payload_bytes, file_) != h.payload_bytes) {
      problem(Problem::Severity::kDataLost, h.event_count, "read error at byte %llu",
              (unsigned long long)offset_);
      return done_ = true, false;
    }
    uint32_t stored = h.checksum;
    std::memset(buf_.data() + offsetof(ChunkHeader, checksum), 0, sizeof stored);
    uint64_t chunk_offset = offset_;
    offset_ += sizeof h + h.payload_bytes;
    at_offset_ = true;
    if (checksum(buf_.data(), buf_.size()) != stored) {
      // The sizes may be right even though the bytes are not: skip the chunk if the next one
      // starts where this header says, else stop.
      ChunkHeader next{};
      at_offset_ = false;
      bool resync = offset_ == size_ ||
                    (std::fread(&next, 1, sizeof next, file_) == sizeof next &&
                     plausible(next, size_ - offset_ - sizeof next));
      problem(Problem::Severity::kDataLost, h.event_count,
              "chunk %u at byte %llu is corrupt (checksum mismatch); its %u events were %s",
              h.seq, (unsigned long long)chunk_offset, h.event_count,
              resync ? "skipped" : "lost with the rest of the stream");
      // Its sequence number is as damaged as the rest: counted as the one expected.
      next_seq_ += 1;
      if (!resync) return done_ = true, false;
      continue;
    }
    if (h.thread != header_.thread) {
      // Whole and checksummed, but another thread's: copied from another stream.
      problem(Problem::Severity::kDataLost, 0,
              "chunk %u at byte %llu belongs to thread %u, not this stream's thread %u; its %u "
              "events were skipped",
              h.seq, (unsigned long long)chunk_offset, h.thread, header_.thread, h.event_count);
      continue;
    }
    if (h.seq < next_seq_) {
      // A chunk written once is never written again: a repeat (a copied or replayed chunk)
      // would count its events twice.
      problem(Problem::Severity::kDataLost, 0,
              "chunk %u at byte %llu comes after chunk %u (sequence numbers go backwards: a "
              "duplicated or misplaced chunk); its %u events were skipped",
              h.seq, (unsigned long long)chunk_offset, next_seq_ - 1, h.event_count);
      continue;
    }
    if (h.seq != next_seq_) {
      problem(Problem::Severity::kDataLost, 0,
              "chunks %u to %u are missing before byte %llu (a failed write)", next_seq_,
              h.seq - 1, (unsigned long long)chunk_offset);
    }
    next_seq_ = h.seq + 1;
    if (h.lost_before) {
      problem(Problem::Severity::kDataLost, h.lost_before,
              "the recorder dropped %u events before chunk %u (buffer overflow)", h.lost_before,
              h.seq);
    }
    if (decoded_cap_ < h.event_count) {
      decoded_.reset(new Event[h.event_count]);
      decoded_cap_ = h.event_count;
    }
    DecodeResult d = decode_events(buf_.data() + sizeof h, h.payload_bytes, h.first_time,
                                   decoded_.get(), h.event_count);
    if (d.malformed || d.events != h.event_count) {
      problem(Problem::Severity::kDataLost, h.event_count - d.events,
              "chunk %u at byte %llu decodes to %zu of its %u events (malformed payload)", h.seq,
              (unsigned long long)chunk_offset, d.events, h.event_count);
    }
    if (out_header) *out_header = h;
    if (d.events) {
      *out_events = decoded_.get();
      *out_count = d.events;
      return true;
    }
  }
  return false;
}

StreamReader::Check StreamReader::check(const ChunkAt& c, std::vector<char>& chunk) {
  chunk.resize(sizeof c.header + c.header.payload_bytes);
  if (pread(fileno(file_), chunk.data(), chunk.size(), off_t(c.offset)) != ssize_t(chunk.size())) {
    return Check::kUnreadable;
  }
  std::memset(chunk.data() + offsetof(ChunkHeader, checksum), 0, sizeof c.header.checksum);
  return checksum(chunk.data(), chunk.size()) == c.header.checksum &&
                 c.header.thread == header_.thread
             ? Check::kIntact
             : Check::kDamaged;
}

std::vector<StreamReader::ChunkAt> StreamReader::plausible_headers() {
  std::vector<ChunkAt> out;
  uint64_t off = offset_;
  // Positioned reads past the stdio buffer: through it, every seek would refill it.
  while (off + sizeof(ChunkHeader) <= size_) {
    ChunkHeader h{};
    if (pread(fileno(file_), &h, sizeof h, off_t(off)) != ssize_t(sizeof h)) break;
    if (!plausible(h, size_ - off - sizeof h)) break;
    out.push_back({h, off});
    off += sizeof h + h.payload_bytes;
  }
  return out;
}

std::vector<ChunkHeader> StreamReader::scan_headers() {
  std::vector<ChunkHeader> out;
  std::vector<char> chunk;
  for (const ChunkAt& c : plausible_headers()) {
    Check k = check(c, chunk);
    if (k == Check::kUnreadable) break;
    if (k == Check::kIntact) out.push_back(c.header);
  }
  return out;
}

StreamReader::LatestTimes StreamReader::latest_times() {
  const std::vector<ChunkAt> chunks = plausible_headers();
  // What scan_headers() keeps: the intact chunks before the first unreadable one. Only the
  // candidates are read, each once, latest first.
  size_t limit = chunks.size();
  std::vector<int8_t> checked(chunks.size(), -1);  // Check, -1: not read yet
  std::vector<char> buffer;
  // The first chunk in file order with the largest nonzero key among those kept, or null.
  auto latest = [&](auto key) -> const ChunkHeader* {
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < chunks.size(); ++i) {
      if (key(chunks[i].header)) order.push_back(i);
    }
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return key(chunks[a].header) > key(chunks[b].header);
    });
    for (uint32_t i : order) {
      if (i >= limit) continue;
      if (checked[i] < 0) checked[i] = int8_t(check(chunks[i], buffer));
      if (Check(checked[i]) == Check::kUnreadable) limit = i;
      if (Check(checked[i]) == Check::kIntact) return &chunks[i].header;
    }
    return nullptr;
  };
  LatestTimes t;
  if (const ChunkHeader* h = latest([](const ChunkHeader& c) { return c.last_time; })) {
    t.last_ticks = h->last_time;
  }
  if (const ChunkHeader* h = latest([](const ChunkHeader& c) { return c.calib_ns; })) {
    t.calib_ticks = h->calib_ticks;
    t.calib_ns = h->calib_ns;
  }
  return t;
}

}  // namespace tasklens::format
