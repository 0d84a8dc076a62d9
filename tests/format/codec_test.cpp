#include "format/codec.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "format/kinds.h"

namespace tasklens::format {
namespace {

// The fields a kind does not use are not stored: compare only what the layout keeps.
void expect_same(const Event& a, const Event& b) {
  const KindLayout& l = layout(a.kind);
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.kind, b.kind);
  if (!l.op.empty()) EXPECT_EQ(a.op, b.op);
  if (!l.sub.empty()) EXPECT_EQ(a.sub, b.sub);
  if (!l.flags.empty()) EXPECT_EQ(a.flags, b.flags);
  if (l.a != Slot::kNone) EXPECT_EQ(a.a, b.a);
  if (l.b != Slot::kNone) EXPECT_EQ(a.b, b.b);
  if (l.c != Slot::kNone) EXPECT_EQ(a.c, b.c);
}

TEST(Codec, RoundTripsEveryKindWithRandomFields) {
  std::mt19937_64 rng(42);
  std::vector<Event> in;
  uint64_t t = 1000;
  for (int i = 0; i < 20000; ++i) {
    Event e{};
    t += rng() % 5000;
    e.time = t;
    e.kind = Kind(1 + rng() % (uint64_t(Kind::kCount) - 1));
    e.op = uint8_t(rng());
    e.sub = uint16_t(rng());
    e.flags = uint32_t(rng());
    // Ids from a few threads, addresses near each other, sometimes anything at all.
    e.a = rng() % 3 ? make_id(uint32_t(rng() % 4), rng() % 1000) : rng();
    e.b = rng() % 3 ? make_id(uint32_t(rng() % 4), rng() % 1000) : rng();
    e.c = 0x400000 + rng() % 4096;
    in.push_back(e);
  }
  std::vector<uint8_t> buf(max_encoded_bytes(in.size()));
  EncodeResult r = encode_events(in.data(), in.size(), in[0].time, buf.data());
  ASSERT_LE(r.bytes, buf.size());
  EXPECT_EQ(r.clamped, 0u);
  ChunkDecoder dec(buf.data(), r.bytes, in[0].time);
  Event out;
  size_t n = 0;
  while (dec.next(out)) expect_same(in[n++], out);
  EXPECT_FALSE(dec.malformed());
  EXPECT_EQ(n, in.size());
}

// A value equal to several cache entries is coded against the first of them, as the search for
// the nearest entry does (the predictors start at zero: task id 0, "none", matches all four).
TEST(Codec, EqualValueTakesTheFirstEqualEntry) {
  std::vector<Event> in = {{100, Kind::kTaskSchedule, 1, 0, 0, 0, 0, 0}};
  std::vector<uint8_t> buf(max_encoded_bytes(1));
  EncodeResult r = encode_events(in.data(), 1, 100, buf.data());
  // kind, time delta 0, status, then tag (0 + 1) << 2 | entry 0 for both task ids.
  EXPECT_EQ(std::vector<uint8_t>(buf.begin(), buf.begin() + long(r.bytes)),
            (std::vector<uint8_t>{7, 0, 1, 4, 4}));
}

TEST(Codec, ClampsTimeThatGoesBackwards) {
  std::vector<Event> in = {{100, Kind::kThreadEnd, 0, 0, 0, 0, 0, 0},
                           {90, Kind::kThreadEnd, 0, 0, 0, 0, 0, 0}};
  std::vector<uint8_t> buf(max_encoded_bytes(2));
  EncodeResult r = encode_events(in.data(), 2, 100, buf.data());
  EXPECT_EQ(r.clamped, 1u);
  ChunkDecoder dec(buf.data(), r.bytes, 100);
  Event e;
  ASSERT_TRUE(dec.next(e));
  ASSERT_TRUE(dec.next(e));
  EXPECT_EQ(e.time, 100u);
}

TEST(Codec, ReportsTruncatedPayloadAsMalformed) {
  std::vector<Event> in = {{100, Kind::kTaskCreate, 0, 0, 4, make_id(0, 1), make_id(0, 0), 0x401000}};
  std::vector<uint8_t> buf(max_encoded_bytes(1));
  EncodeResult r = encode_events(in.data(), 1, 100, buf.data());
  ChunkDecoder dec(buf.data(), r.bytes - 1, 100);
  Event e;
  EXPECT_FALSE(dec.next(e));
  EXPECT_TRUE(dec.malformed());
}

}  // namespace
}  // namespace tasklens::format
