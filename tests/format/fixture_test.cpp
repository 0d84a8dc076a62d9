// Reads the experiment checked in under tests/format/fixtures/ (written by format_fixture_writer
// when format version 1 was current). A change of the codec, the chunk layout or the metadata that
// breaks old files fails here; a deliberate version bump must turn this into the "older version"
// error, never into garbage.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "format/chunk.h"
#include "format/codec.h"
#include "format/experiment.h"
#include "format/kinds.h"
#include "format/stream_reader.h"
#include "support/test_paths.h"
#include "tests/format/fixture_events.h"

namespace tasklens::format {
namespace {

std::string fixture_dir() { return testing::source_dir() + "/tests/format/fixtures/v1-two-threads"; }

TEST(Fixture, Version1ExperimentReadsBackExactly) {
  auto x = open_experiment(fixture_dir());
  if (!readable_version(1)) {
    ASSERT_FALSE(x.ok());
    EXPECT_NE(x.error().message.find("written by an older tasklens (format version 1;"),
              std::string::npos);
    return;
  }
  ASSERT_TRUE(x.ok()) << x.error().message;
  EXPECT_EQ(x->status, "complete");
  EXPECT_EQ(x->program_name(), "app");
  EXPECT_EQ(x->meta["program"]["pid"], 4242);
  EXPECT_EQ(x->clock.source, "monotonic");
  EXPECT_TRUE(x->clock.calibrated);
  EXPECT_EQ(x->string(1), "phase");
  EXPECT_EQ(x->string(2), "depth");
  EXPECT_TRUE(x->warnings.empty());

  std::map<uint32_t, std::vector<Event>> want;
  for (const auto& [thread, e] : fixture::events()) want[thread].push_back(e);
  ASSERT_EQ(x->streams.size(), want.size());
  for (const std::string& path : x->streams) {
    auto reader = StreamReader::open(path);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    uint32_t thread = (*reader)->thread();
    SCOPED_TRACE("thread " + std::to_string(thread));
    const std::vector<Event>& expected = want.at(thread);
    std::vector<Event> got, chunk;
    ChunkHeader h;
    uint32_t chunks = 0;
    while ((*reader)->next_chunk(chunk, &h)) {
      EXPECT_EQ(h.seq, chunks++);
      EXPECT_LE(h.event_count, fixture::kChunkEvents);
      got.insert(got.end(), chunk.begin(), chunk.end());
    }
    EXPECT_TRUE((*reader)->problems().empty());
    EXPECT_EQ(chunks, (expected.size() + fixture::kChunkEvents - 1) / fixture::kChunkEvents);
    ASSERT_EQ(got.size(), expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      const Event& a = got[i];
      const Event& b = expected[i];
      const KindLayout& l = layout(b.kind);
      SCOPED_TRACE("event " + std::to_string(i) + " (" + std::string(l.name) + ")");
      EXPECT_EQ(a.kind, b.kind);
      EXPECT_EQ(a.time, b.time);
      EXPECT_EQ(a.op, l.op.empty() ? 0 : b.op);
      EXPECT_EQ(a.sub, l.sub.empty() ? 0 : b.sub);
      EXPECT_EQ(a.flags, l.flags.empty() ? 0 : b.flags);
      EXPECT_EQ(a.a, l.a == Slot::kNone ? 0 : b.a);
      EXPECT_EQ(a.b, l.b == Slot::kNone ? 0 : b.b);
      EXPECT_EQ(a.c, l.c == Slot::kNone ? 0 : b.c);
    }
  }
}

// The encoder writes the fixture's payloads byte for byte (decoders accept other choices of cache
// entry, but an encoder made faster must not change what it writes without a version bump).
TEST(Fixture, EncoderWritesTheSameBytes) {
  if (!readable_version(1)) GTEST_SKIP() << "the fixture is of version 1";
  for (const char* name : {"thread-0000.tlt", "thread-0001.tlt"}) {
    SCOPED_TRACE(name);
    std::ifstream in(fixture_dir() + "/" + name, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    size_t off = sizeof(FileHeader), chunks = 0;
    while (off + sizeof(ChunkHeader) <= bytes.size()) {
      ChunkHeader h;
      std::memcpy(&h, &bytes[off], sizeof h);
      const uint8_t* payload = &bytes[off + sizeof h];
      ASSERT_LE(off + sizeof h + h.payload_bytes, bytes.size());
      std::vector<Event> events(h.event_count);
      DecodeResult d = decode_events(payload, h.payload_bytes, h.first_time, events.data(),
                                     events.size());
      ASSERT_FALSE(d.malformed);
      ASSERT_EQ(d.events, events.size());
      std::vector<uint8_t> out(max_encoded_bytes(events.size()));
      EncodeResult r = encode_events(events.data(), events.size(), h.first_time, out.data());
      ASSERT_EQ(r.bytes, h.payload_bytes);
      EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.begin() + long(r.bytes)),
                std::vector<uint8_t>(payload, payload + h.payload_bytes));
      off += sizeof h + h.payload_bytes;
      ++chunks;
    }
    EXPECT_EQ(off, bytes.size());
    EXPECT_GT(chunks, 0u);
  }
}

// The kinds appended to version 1 after the fixture was written (a fixture is never rewritten):
// a reader of the fixture's time calls them damage, never misreads them (FORMAT.md, Versioning).
constexpr Kind kLastKindInFixture = Kind::kToolStall;

// Every kind of version 1 the fixture was written with is in it, so that none can change its
// encoding unnoticed.
TEST(Fixture, CoversEveryKind) {
  std::vector<bool> seen(size_t(Kind::kCount), false);
  for (const auto& te : fixture::events()) seen[size_t(te.event.kind)] = true;
  for (size_t k = 1; k <= size_t(kLastKindInFixture); ++k) {
    EXPECT_TRUE(seen[k]) << layout(Kind(k)).name << " is not in the fixture";
  }
}

// The kinds appended since (the MPI ones, docs/MPI.md) round-trip through the codec with every
// field at values that need their slot's class (a negative peer: zigzag).
TEST(Fixture, KindsAppendedSinceRoundTrip) {
  std::vector<Event> events = {
      {1000, Kind::kMpiCall, 1, 10, 0, 3, uint64_t(int64_t(-1)), 0},
      {1500, Kind::kMpiCall, 2, 10, 0, 3, uint64_t(int64_t(-1)), 0},
      {1600, Kind::kMpiCall, 1, 4, 0, 0x11, 7, 4096},
      {1700, Kind::kMpiCall, 2, 4, 0, 0x11, 1, 1ull << 40},
      {1800, Kind::kMpiClock, 0, 1, 0, 123456789012ull, 123456780000ull, 0},
      // Version 2: counter samples (running totals, large and small).
      {1900, Kind::kCounters, 0, 0, 3, 123456789ull, 4096, 0},
      {1950, Kind::kCounters, 0, 3, 1, 1ull << 50, 0, 0},
  };
  static_assert(size_t(Kind::kCounters) + 1 == size_t(Kind::kCount),
                "a kind appended since the fixture: add it here");
  std::vector<uint8_t> out(max_encoded_bytes(events.size()));
  EncodeResult r = encode_events(events.data(), events.size(), 900, out.data());
  std::vector<Event> back(events.size());
  DecodeResult d = decode_events(out.data(), r.bytes, 900, back.data(), back.size());
  ASSERT_FALSE(d.malformed);
  ASSERT_EQ(d.events, events.size());
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(std::memcmp(&events[i], &back[i], sizeof(Event)), 0) << "event " << i;
  }
}

}  // namespace
}  // namespace tasklens::format
