// The chunk builder and the StreamReader: multi-chunk streams read back exactly, and every kind of
// damage (truncation anywhere, a flipped byte, a missing chunk, recorder losses) is reported as a
// Problem that names the file, while everything readable before and after it is still read.
#include "format/stream_reader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "format/checksum.h"
#include "format/chunk_builder.h"
#include "format/kinds.h"
#include "support/trace_builder.h"

namespace tasklens::format {
namespace {

using testing::scratch_dir;

// A thread's events: a task created, started and completed every 10 ticks.
std::vector<Event> task_events(size_t n, uint32_t thread) {
  std::vector<Event> out;
  uint64_t t = 1000;
  uint64_t parent = make_id(thread, 1);
  for (size_t i = 0; out.size() < n; ++i) {
    uint64_t task = make_id(thread, 2 + i);
    out.push_back({t += 10, Kind::kTaskCreate, 0, 0, task_flag::kExplicit, task, parent, 0x401000});
    out.push_back({t += 10, Kind::kTaskSchedule, uint8_t(TaskStatus::kSwitch), 0, 0, parent, task, 0});
    out.push_back({t += 10, Kind::kTaskSchedule, uint8_t(TaskStatus::kComplete), 0, 0, task, parent, 0});
  }
  out.resize(n);
  return out;
}

struct ChunkSpec {
  size_t events;
  uint32_t seq;
  uint32_t lost_before = 0;
};

// The bytes of a stream file: a header and one chunk per spec, cut from `events` in order.
// `offsets` receives where each chunk starts.
std::vector<uint8_t> stream_bytes(const std::vector<Event>& events, uint32_t thread,
                                  const std::vector<ChunkSpec>& chunks,
                                  std::vector<size_t>* offsets = nullptr) {
  std::vector<uint8_t> out(sizeof(FileHeader));
  FileHeader h = make_file_header(thread, 4242);
  std::memcpy(out.data(), &h, sizeof h);
  size_t first = 0;
  for (const ChunkSpec& c : chunks) {
    std::vector<uint8_t> buf(max_chunk_bytes(c.events));
    ChunkInfo info;
    info.thread = thread;
    info.seq = c.seq;
    info.lost_before = c.lost_before;
    info.calib_ticks = events[first].time;
    info.calib_ns = events[first].time * 2;
    size_t n = build_chunk(events.data() + first, c.events, info, buf.data());
    if (offsets) offsets->push_back(out.size());
    out.insert(out.end(), buf.begin(), buf.begin() + long(n));
    first += c.events;
  }
  return out;
}

std::string write_file(const std::vector<uint8_t>& bytes, const std::string& name = "thread-0000.tlt") {
  std::string path = scratch_dir() + "/" + name;
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                              std::streamsize(bytes.size()));
  return path;
}

struct ReadBack {
  std::vector<Event> events;
  std::vector<ChunkHeader> headers;
  std::vector<Problem> problems;
};

ReadBack read_all(const std::string& path) {
  ReadBack r;
  auto reader = StreamReader::open(path);
  EXPECT_TRUE(reader.ok()) << (reader.ok() ? "" : reader.error().message);
  if (!reader) return r;
  std::vector<Event> chunk;
  ChunkHeader h;
  while ((*reader)->next_chunk(chunk, &h)) {
    r.headers.push_back(h);
    r.events.insert(r.events.end(), chunk.begin(), chunk.end());
  }
  r.problems = (*reader)->problems();
  return r;
}

void expect_events(const std::vector<Event>& got, const std::vector<Event>& want, size_t from,
                   size_t n) {
  ASSERT_EQ(got.size(), n);
  for (size_t i = 0; i < n; ++i) {
    const Event& a = got[i];
    const Event& b = want[from + i];
    ASSERT_EQ(a.time, b.time) << "event " << i;
    ASSERT_EQ(a.kind, b.kind) << "event " << i;
    ASSERT_EQ(a.a, b.a) << "event " << i;
    ASSERT_EQ(a.b, b.b) << "event " << i;
    if (a.kind == Kind::kTaskCreate) ASSERT_EQ(a.c, b.c) << "event " << i;
  }
}

std::vector<Event> slice(const std::vector<Event>& v, size_t from, size_t n) {
  return {v.begin() + long(from), v.begin() + long(from + n)};
}

TEST(StreamReader, ReadsEveryChunkOfAMultiChunkStream) {
  auto events = task_events(1000, 3);
  auto bytes = stream_bytes(events, 3, {{400, 0}, {1, 1}, {599, 2}});
  std::string path = write_file(bytes, "thread-0003.tlt");  // named for its thread, as recorded
  auto reader = StreamReader::open(path);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->thread(), 3u);
  EXPECT_EQ((*reader)->os_tid(), 4242u);
  ReadBack r = read_all(path);
  EXPECT_TRUE(r.problems.empty());
  expect_events(r.events, events, 0, 1000);
  ASSERT_EQ(r.headers.size(), 3u);
  EXPECT_EQ(r.headers[1].seq, 1u);
  EXPECT_EQ(r.headers[1].event_count, 1u);
  EXPECT_EQ(r.headers[2].first_time, events[401].time);
  EXPECT_EQ(r.headers[2].last_time, events[999].time);
  EXPECT_EQ(r.headers[2].calib_ns, events[401].time * 2);
}

TEST(StreamReader, ScanHeadersSeesEveryChunkWithoutDecoding) {
  auto events = task_events(300, 0);
  std::string path = write_file(stream_bytes(events, 0, {{100, 0}, {100, 1}, {100, 2}}));
  auto reader = StreamReader::open(path);
  ASSERT_TRUE(reader.ok());
  auto headers = (*reader)->scan_headers();
  ASSERT_EQ(headers.size(), 3u);
  EXPECT_EQ(headers[2].seq, 2u);
  EXPECT_EQ(headers[2].event_count, 100u);
  // Scanning does not move the reading position.
  std::vector<Event> chunk;
  ASSERT_TRUE((*reader)->next_chunk(chunk));
  EXPECT_EQ(chunk.size(), 100u);
}

// A chunk whose checksum fails is skipped by the decoder: its header's times must not set the
// run's end either (open_experiment scans the headers before any event is read).
TEST(StreamReader, ScanHeadersLeavesOutAChunkWhoseChecksumFails) {
  auto events = task_events(300, 0);
  std::vector<size_t> offsets;
  auto bytes = stream_bytes(events, 0, {{100, 0}, {100, 1}, {100, 2}}, &offsets);
  uint64_t far = uint64_t(1) << 62;
  std::memcpy(bytes.data() + offsets[1] + offsetof(ChunkHeader, last_time), &far, sizeof far);
  auto reader = StreamReader::open(write_file(bytes));
  ASSERT_TRUE(reader.ok());
  auto headers = (*reader)->scan_headers();
  ASSERT_EQ(headers.size(), 2u);
  EXPECT_EQ(headers[0].seq, 0u);
  EXPECT_EQ(headers[1].seq, 2u);
  EXPECT_EQ(headers[1].last_time, events[299].time);
}

// latest_times() reads only the candidate chunks, latest first: a damaged chunk with the latest
// times is passed over for the next intact one, as scan_headers() leaves it out.
TEST(StreamReader, LatestTimesAreThoseOfTheIntactChunks) {
  auto events = task_events(300, 0);
  std::vector<size_t> offsets;
  auto bytes = stream_bytes(events, 0, {{100, 0}, {100, 1}, {100, 2}}, &offsets);
  auto reader = StreamReader::open(write_file(bytes));
  ASSERT_TRUE(reader.ok());
  StreamReader::LatestTimes t = (*reader)->latest_times();
  EXPECT_EQ(t.last_ticks, events[299].time);
  EXPECT_EQ(t.calib_ticks, events[200].time);
  EXPECT_EQ(t.calib_ns, events[200].time * 2);
  // The last chunk's payload damaged: the middle chunk's times.
  bytes[offsets[2] + sizeof(ChunkHeader)] ^= 0x5a;
  reader = StreamReader::open(write_file(bytes));
  ASSERT_TRUE(reader.ok());
  t = (*reader)->latest_times();
  EXPECT_EQ(t.last_ticks, events[199].time);
  EXPECT_EQ(t.calib_ticks, events[100].time);
  EXPECT_EQ(t.calib_ns, events[100].time * 2);
  ASSERT_EQ((*reader)->scan_headers().size(), 2u);
  EXPECT_EQ((*reader)->scan_headers()[1].last_time, t.last_ticks);
}

TEST(StreamReader, EmptyStreamHasNoChunksAndNoProblems) {
  std::string path = write_file(stream_bytes({}, 0, {}));
  ReadBack r = read_all(path);
  EXPECT_TRUE(r.events.empty());
  EXPECT_TRUE(r.problems.empty());
}

// Cut a three-chunk stream at every byte: never a crash, never a wrong event; the chunks that are
// whole before the cut are read, and exactly one problem says where the stream ends.
TEST(StreamReader, TruncatedAnywhereKeepsTheWholeChunksBeforeTheCut) {
  auto events = task_events(90, 0);
  std::vector<size_t> offsets;
  auto bytes = stream_bytes(events, 0, {{30, 0}, {30, 1}, {30, 2}}, &offsets);
  offsets.push_back(bytes.size());
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    SCOPED_TRACE("cut at byte " + std::to_string(cut));
    std::string path = write_file({bytes.begin(), bytes.begin() + long(cut)});
    auto reader = StreamReader::open(path);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    std::vector<Event> all, chunk;
    while ((*reader)->next_chunk(chunk)) all.insert(all.end(), chunk.begin(), chunk.end());
    size_t whole = 0;
    while (whole < 3 && offsets[whole + 1] <= cut) ++whole;
    expect_events(all, events, 0, whole * 30);
    const auto& problems = (*reader)->problems();
    if (cut == offsets[whole]) {
      // Cut exactly between chunks (or after the file header): nothing visibly damaged.
      EXPECT_TRUE(problems.empty());
      continue;
    }
    ASSERT_EQ(problems.size(), 1u);
    const Problem& p = problems[0];
    EXPECT_EQ(p.severity, Problem::Severity::kDataLost);
    EXPECT_EQ(p.message.rfind(path + ": ", 0), 0u) << p.message;
    if (cut < sizeof(FileHeader)) {
      EXPECT_NE(p.message.find("truncated file header"), std::string::npos) << p.message;
    } else if (cut - offsets[whole] < sizeof(ChunkHeader)) {
      EXPECT_NE(p.message.find("incomplete chunk header (chunk " + std::to_string(whole) + ")"),
                std::string::npos)
          << p.message;
    } else {
      EXPECT_NE(p.message.find("chunk " + std::to_string(whole) + " needs"), std::string::npos)
          << p.message;
      EXPECT_EQ(p.events_lost, 30u);
    }
  }
}

// A header cut inside its thread field, whose bytes say 84 million: the thread index sizes
// per-thread tables everywhere after (the fuzzer's 25-byte stream made 4 GB of them). The file's
// name gives the index; without such a name the stream is refused.
TEST(StreamReader, ATruncatedHeaderTakesItsThreadFromTheFileName) {
  auto bytes = stream_bytes(task_events(30, 0), 0, {{30, 0}});
  bytes.resize(14);  // magic, version, header size and two bytes of the thread field
  bytes[12] = 0x04, bytes[13] = 0x05;
  auto named = StreamReader::open(write_file(bytes, "thread-0007.tlt"));
  ASSERT_TRUE(named.ok()) << named.error().message;
  EXPECT_EQ((*named)->thread(), 7u);
  std::vector<Event> chunk;
  EXPECT_FALSE((*named)->next_chunk(chunk));
  auto unnamed = StreamReader::open(write_file(bytes, "stream.tlt"));
  ASSERT_FALSE(unnamed.ok());
  EXPECT_NE(unnamed.error().message.find("without a thread index"), std::string::npos)
      << unnamed.error().message;
}

TEST(StreamReader, FlippedPayloadByteSkipsThatChunkOnly) {
  auto events = task_events(90, 0);
  std::vector<size_t> offsets;
  auto bytes = stream_bytes(events, 0, {{30, 0}, {30, 1}, {30, 2}}, &offsets);
  bytes[offsets[1] + sizeof(ChunkHeader) + 5] ^= 0x10;
  std::string path = write_file(bytes);
  ReadBack r = read_all(path);
  std::vector<Event> want = slice(events, 0, 30);
  auto tail = slice(events, 60, 30);
  want.insert(want.end(), tail.begin(), tail.end());
  expect_events(r.events, want, 0, 60);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].message,
            path + ": chunk 1 at byte " + std::to_string(offsets[1]) +
                " is corrupt (checksum mismatch); its 30 events were skipped");
  EXPECT_EQ(r.problems[0].events_lost, 30u);
}

TEST(StreamReader, FlippedByteInTheLastChunkLosesOnlyIt) {
  auto events = task_events(60, 0);
  std::vector<size_t> offsets;
  auto bytes = stream_bytes(events, 0, {{30, 0}, {30, 1}}, &offsets);
  bytes.back() ^= 0x01;
  ReadBack r = read_all(write_file(bytes));
  expect_events(r.events, events, 0, 30);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_NE(r.problems[0].message.find("chunk 1 at byte"), std::string::npos);
  EXPECT_NE(r.problems[0].message.find("checksum mismatch"), std::string::npos);
}

TEST(StreamReader, CorruptChunkHeaderStopsTheStreamWithAClearMessage) {
  auto events = task_events(60, 0);
  std::vector<size_t> offsets;
  auto bytes = stream_bytes(events, 0, {{30, 0}, {30, 1}}, &offsets);
  bytes[offsets[1]] ^= 0xff;  // the chunk magic
  std::string path = write_file(bytes);
  ReadBack r = read_all(path);
  expect_events(r.events, events, 0, 30);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].message,
            path + ": corrupt chunk header at byte " + std::to_string(offsets[1]) +
                " (chunk 1); the rest of the stream is unreadable");
}

TEST(StreamReader, MissingChunkIsReportedAsASequenceGap) {
  auto events = task_events(90, 0);
  std::vector<size_t> offsets;
  // The writer failed to write chunk 1 (seq 1 never reached the file).
  auto bytes = stream_bytes(events, 0, {{30, 0}, {30, 2}, {30, 3}}, &offsets);
  std::string path = write_file(bytes);
  ReadBack r = read_all(path);
  expect_events(r.events, events, 0, 90);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].message, path + ": chunks 1 to 1 are missing before byte " +
                                       std::to_string(offsets[1]) + " (a failed write)");
  EXPECT_EQ(r.problems[0].severity, Problem::Severity::kDataLost);
}

TEST(StreamReader, RecorderLossesBeforeAChunkAreReported) {
  auto events = task_events(60, 0);
  std::string path = write_file(stream_bytes(events, 0, {{30, 0}, {30, 1, 1234}}));
  ReadBack r = read_all(path);
  expect_events(r.events, events, 0, 60);
  ASSERT_EQ(r.headers.size(), 2u);
  EXPECT_EQ(r.headers[1].lost_before, 1234u);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].message,
            path + ": the recorder dropped 1234 events before chunk 1 (buffer overflow)");
  EXPECT_EQ(r.problems[0].events_lost, 1234u);
}

TEST(StreamReader, NotATasklensFile) {
  std::string text = "#!/bin/sh\necho this is a script, not a trace\n";
  std::string path = write_file({text.begin(), text.end()});
  auto r = StreamReader::open(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, path + ": not a tasklens trace (bad magic)");
}

TEST(StreamReader, MissingFile) {
  std::string path = scratch_dir() + "/thread-0007.tlt";
  auto r = StreamReader::open(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, path + ": No such file or directory");
}

TEST(StreamReader, NewerAndOlderStreamVersionsAreDistinctErrors) {
  auto bytes = stream_bytes(task_events(3, 0), 0, {{3, 0}});
  auto with_version = [&](uint16_t v) {
    auto b = bytes;
    std::memcpy(b.data() + offsetof(FileHeader, version), &v, sizeof v);
    return write_file(b);
  };
  std::string newer = with_version(kFormatVersion + 1);
  auto r = StreamReader::open(newer);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, newer + ": written by a newer tasklens (format version " +
                                   std::to_string(kFormatVersion + 1) +
                                   "; this tasklens reads versions " +
                                   std::to_string(kOldestReadVersion) + " to " +
                                   std::to_string(kFormatVersion) + ")");
  std::string older = with_version(kOldestReadVersion - 1);
  r = StreamReader::open(older);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("written by an older tasklens"), std::string::npos);
}

TEST(StreamReader, ChunkOfANewerVersionStopsTheStream) {
  auto events = task_events(60, 0);
  std::vector<size_t> offsets;
  auto bytes = stream_bytes(events, 0, {{30, 0}, {30, 1}}, &offsets);
  uint16_t v = kFormatVersion + 1;
  std::memcpy(bytes.data() + offsets[1] + offsetof(ChunkHeader, version), &v, sizeof v);
  std::string path = write_file(bytes);
  ReadBack r = read_all(path);
  expect_events(r.events, events, 0, 30);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_NE(r.problems[0].message.find("chunk 1 at byte " + std::to_string(offsets[1]) +
                                       " has format version"),
            std::string::npos)
      << r.problems[0].message;
}

// A payload whose checksum is right but whose bytes do not decode (a writer bug, not bit rot):
// the events before the bad one are kept and the rest counted as lost.
TEST(StreamReader, MalformedPayloadWithAValidChecksum) {
  auto events = task_events(30, 0);
  std::vector<size_t> offsets;
  auto bytes = stream_bytes(events, 0, {{30, 0}}, &offsets);
  ChunkHeader h;
  std::memcpy(&h, bytes.data() + offsets[0], sizeof h);
  h.event_count = 31;  // one more than the payload holds
  h.checksum = 0;
  std::memcpy(bytes.data() + offsets[0], &h, sizeof h);
  uint32_t sum = checksum(bytes.data() + offsets[0], sizeof h + h.payload_bytes);
  std::memcpy(bytes.data() + offsets[0] + offsetof(ChunkHeader, checksum), &sum, sizeof sum);
  ReadBack r = read_all(write_file(bytes));
  expect_events(r.events, events, 0, 30);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_NE(r.problems[0].message.find("decodes to 30 of its 31 events"), std::string::npos)
      << r.problems[0].message;
  EXPECT_EQ(r.problems[0].events_lost, 1u);
}

}  // namespace
}  // namespace tasklens::format
