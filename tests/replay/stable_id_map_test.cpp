// StableIdMap: values stay where they are until erased, whichever index holds their id (the
// per-thread direct-mapped table or the hash map it falls back to).
#include "replay/stable_id_map.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "format/event.h"

namespace tasklens::replay {
namespace {

struct Value {
  uint64_t id = 0;
  int payload = 0;
};

using format::make_id;

TEST(StableIdMap, FindsWhatWasInsertedAndNothingElse) {
  StableIdMap<Value> m;
  EXPECT_EQ(m.find(make_id(0, 1)), nullptr);
  EXPECT_EQ(m.find(0), nullptr);
  m[make_id(0, 1)].payload = 7;
  m[make_id(1, 1)].payload = 8;  // same counter, another thread
  EXPECT_EQ(m.size(), 2u);
  ASSERT_NE(m.find(make_id(0, 1)), nullptr);
  EXPECT_EQ(m.find(make_id(0, 1))->payload, 7);
  EXPECT_EQ(m.find(make_id(1, 1))->payload, 8);
  EXPECT_EQ(m.find(make_id(0, 2)), nullptr);
  EXPECT_EQ(m.find(make_id(2, 1)), nullptr);
  EXPECT_EQ(&m[make_id(0, 1)], m.find(make_id(0, 1)));  // operator[] finds, does not add
  EXPECT_EQ(m.size(), 2u);
}

TEST(StableIdMap, AnIdWhoseEntryIsTakenGoesToTheHashMapAndKeepsItsAddress) {
  StableIdMap<Value> m;
  // 1024 entries per thread: counters 5 and 5 + 1024 share one.
  uint64_t old_id = make_id(0, 5), new_id = make_id(0, 5 + 1024), newer_id = make_id(0, 5 + 2048);
  Value* old_v = &m[old_id];
  old_v->payload = 1;
  Value* new_v = &m[new_id];
  new_v->payload = 2;
  EXPECT_NE(old_v, new_v);
  EXPECT_EQ(m.find(old_id), old_v);
  EXPECT_EQ(m.find(new_id), new_v);
  // The entry frees; a later id takes it while the one in the hash map is still found.
  EXPECT_TRUE(m.erase(old_id));
  EXPECT_EQ(old_v->payload, 0);  // reset: a hint kept to it sees a default value
  EXPECT_EQ(m.find(old_id), nullptr);
  Value* newer_v = &m[newer_id];
  newer_v->payload = 3;
  EXPECT_EQ(m.find(new_id), new_v);
  EXPECT_EQ(m.find(newer_id)->payload, 3);
  EXPECT_TRUE(m.erase(new_id));
  EXPECT_FALSE(m.erase(new_id));
  EXPECT_EQ(m.find(new_id), nullptr);
  EXPECT_EQ(m.find(newer_id), newer_v);
  EXPECT_EQ(m.size(), 1u);
}

TEST(StableIdMap, IdsNotMadeByTheRecorderWork) {
  StableIdMap<Value> m;
  // Hand-made ids (tests, golden traces) have no thread bits; others a huge thread index.
  uint64_t ids[] = {1, 2, 1025, uint64_t(0xffff) << 48 | 9, uint64_t(2000) << 48 | 9};
  for (int i = 0; i < 5; ++i) m[ids[i]].payload = i + 1;
  for (int i = 0; i < 5; ++i) {
    ASSERT_NE(m.find(ids[i]), nullptr) << i;
    EXPECT_EQ(m.find(ids[i])->payload, i + 1);
  }
  EXPECT_TRUE(m.erase(ids[3]));
  EXPECT_EQ(m.find(ids[3]), nullptr);
  EXPECT_EQ(m.find(ids[4])->payload, 5);
  EXPECT_EQ(m.size(), 4u);
}

TEST(StableIdMap, AgreesWithStdMapUnderRandomInsertsAndErases) {
  StableIdMap<Value> m;
  std::map<uint64_t, Value*> ref;
  std::mt19937_64 rng(42);
  for (int step = 0; step < 200000; ++step) {
    // Counters from a small range, so that entries collide often, over three threads and a few
    // hand-made ids.
    uint32_t thread = uint32_t(rng() % 4);
    uint64_t id = thread == 3 ? 1 + rng() % 50 : make_id(thread, rng() % 5000 + 1);
    if (rng() % 3 == 0) {
      bool had = ref.count(id) != 0;
      EXPECT_EQ(m.erase(id), had);
      ref.erase(id);
    } else {
      Value& v = m[id];
      if (ref.count(id)) {
        EXPECT_EQ(&v, ref[id]);  // the address stayed put
        EXPECT_EQ(v.id, id);
      } else {
        EXPECT_EQ(v.id, 0u);  // new values are default ones
        v.id = id;
        ref[id] = &v;
      }
    }
    ASSERT_EQ(m.size(), ref.size());
  }
  for (const auto& [id, v] : ref) EXPECT_EQ(m.find(id), v);
}

// A value that owns a buffer: erasing clears it and keeps the buffer for the next value.
struct Holder {
  std::vector<int> items;
  void clear() { items.clear(); }
};

TEST(StableIdMap, ClearsValuesThatCanBeClearedAndKeepsTheirBuffers) {
  StableIdMap<Holder> m;
  Holder& a = m[make_id(0, 1)];
  a.items.assign(100, 7);
  const int* buffer = a.items.data();
  EXPECT_TRUE(m.erase(make_id(0, 1)));
  EXPECT_TRUE(a.items.empty());
  Holder& b = m[make_id(0, 2)];  // the slot freed last
  EXPECT_EQ(&b, &a);
  EXPECT_TRUE(b.items.empty());
  b.items.push_back(1);
  EXPECT_EQ(b.items.data(), buffer);  // no new allocation
}

TEST(StableIdMap, ForEachVisitsEveryEntryOnce) {
  StableIdMap<Value> m;
  std::map<uint64_t, int> expected;
  // Entries in the direct-mapped tables, one in the hash map (same entry as make_id(1, 3)), and
  // a hand-made id.
  for (uint64_t id : {make_id(0, 1), make_id(1, 3), make_id(1, 3 + 1024), uint64_t(5)}) {
    m[id].payload = int(id % 1000);
    expected[id] = int(id % 1000);
  }
  std::map<uint64_t, int> seen;
  int calls = 0;
  m.for_each([&](uint64_t id, Value& v) {
    seen[id] = v.payload;
    ++calls;
  });
  EXPECT_EQ(calls, 4);
  EXPECT_EQ(seen, expected);
}

}  // namespace
}  // namespace tasklens::replay
