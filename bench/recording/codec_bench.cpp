// codec_bench: the writer's encoder (codec + checksum, build_chunk) on real recorded streams.
//
//   codec_bench [--runs N] [--chunks N] STREAM.tlt...
//
// Decodes the chunks of each stream, re-encodes them as the recorder's writer does, checks that
// every payload comes out byte for byte as in the file (an encoder made faster must write the
// same bytes), and times the encoding: ns per event, best and median of N passes. With
// --chunks N only the first N chunks are used, so that they stay in the cache (the writer reads
// chunks just filled; a whole stream of millions of events is read from memory).
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "format/chunk.h"
#include "format/chunk_builder.h"
#include "format/codec.h"

namespace {

using namespace tasklens::format;

double now_s() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

struct Stream {
  std::vector<std::vector<Event>> chunks;
  std::vector<std::vector<uint8_t>> payloads;
  size_t events = 0, file_bytes = 0;
};

bool load(const char* path, size_t max_chunks, Stream* s) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  s->file_bytes = bytes.size();
  size_t off = sizeof(FileHeader);
  while (off + sizeof(ChunkHeader) <= bytes.size() && s->chunks.size() < max_chunks) {
    ChunkHeader h;
    std::memcpy(&h, &bytes[off], sizeof h);
    const uint8_t* payload = &bytes[off + sizeof h];
    if (off + sizeof h + h.payload_bytes > bytes.size()) return false;
    std::vector<Event> events(h.event_count);
    DecodeResult d = decode_events(payload, h.payload_bytes, h.first_time, events.data(), events.size());
    if (d.malformed || d.events != events.size()) return false;
    s->events += events.size();
    s->chunks.push_back(std::move(events));
    s->payloads.emplace_back(payload, payload + h.payload_bytes);
    off += sizeof h + h.payload_bytes;
  }
  return !s->chunks.empty();
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 9;
  size_t max_chunks = size_t(-1);
  std::vector<const char*> paths;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--chunks") && i + 1 < argc) {
      max_chunks = size_t(std::max(1, std::atoi(argv[++i])));
    } else {
      paths.push_back(argv[i]);
    }
  }
  if (paths.empty()) {
    std::fprintf(stderr, "usage: codec_bench [--runs N] [--chunks N] STREAM.tlt...\n");
    return 2;
  }
  std::vector<uint8_t> out(max_chunk_bytes(4096));
  int status = 0;
  for (const char* path : paths) {
    Stream s;
    if (!load(path, max_chunks, &s)) {
      std::fprintf(stderr, "%s: not a readable tasklens stream\n", path);
      return 1;
    }
    size_t mismatches = 0;
    for (size_t i = 0; i < s.chunks.size(); ++i) {
      size_t bytes = build_chunk(s.chunks[i].data(), s.chunks[i].size(), ChunkInfo{}, out.data());
      const std::vector<uint8_t>& want = s.payloads[i];
      mismatches += bytes - sizeof(ChunkHeader) != want.size() ||
                    std::memcmp(out.data() + sizeof(ChunkHeader), want.data(), want.size()) != 0;
    }
    std::vector<double> ns;
    for (int r = 0; r < runs; ++r) {
      double t0 = now_s();
      for (const auto& c : s.chunks) build_chunk(c.data(), c.size(), ChunkInfo{}, out.data());
      ns.push_back((now_s() - t0) * 1e9 / double(s.events));
    }
    std::sort(ns.begin(), ns.end());
    std::printf("%s: %zu chunks, %zu events: encode + checksum %.2f ns/event (best), %.2f (median "
                "of %d)%s\n",
                path, s.chunks.size(), s.events, ns.front(), ns[ns.size() / 2], runs,
                mismatches ? "" : ", payloads identical to the file");
    if (mismatches) {
      std::printf("  %zu chunks encode differently from the file\n", mismatches);
      status = 1;
    }
  }
  return status;
}
