// Profile mode's per-thread tables and their merge at exit (recorder/profile_tables.h): nodes
// agree across threads by their path key, statistics merge as if one thread had seen every
// sample, and the tables grow without losing entries.
#include "recorder/profile_tables.h"

#include <gtest/gtest.h>

namespace tasklens::recorder::prof {
namespace {

TEST(ProfileTables, NodeKeysAreThePath) {
  uint64_t root = node_key(0, 2, 0, 0x400);
  EXPECT_EQ(root, node_key(0, 2, 0, 0x400));
  EXPECT_NE(root, node_key(0, 2, 0, 0x401));
  EXPECT_NE(root, node_key(0, 3, 0, 0x400));
  EXPECT_NE(node_key(root, 4, 0, 0x500), node_key(node_key(0, 2, 0, 0x401), 4, 0, 0x500));
  EXPECT_NE(root, 0u);
}

TEST(ProfileTables, MergeOfTwoThreads) {
  NodeTable a, b;
  uint64_t root = node_key(0, 2, 0, 0x400);
  uint64_t child = node_key(root, 6, 0, 0x410);
  Node* ra = a.get(root, 0, 2, 0, 0x400);
  ra->metrics.add(1, 10, 0), ra->metrics.add(2, 30, 25), ra->metrics.add(1, 20, 0);
  Node* rb = b.get(root, 0, 2, 0, 0x400);
  rb->metrics.add(1, 5, 0);
  b.get(child, root, 6, 0, 0x410)->metrics.visits = 7;

  NodeTable all;
  all.merge(a);
  all.merge(b);
  EXPECT_EQ(all.used, 2u);
  const Node* r = all.find(root);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->metrics.visits, 4u);
  EXPECT_EQ(r->metrics.fragments, 5u);
  format::Stat incl = r->metrics.inclusive();
  EXPECT_EQ(incl.count, 4u);
  EXPECT_EQ(incl.sum, 65u);
  EXPECT_EQ(incl.min, 5u);
  EXPECT_EQ(incl.max, 30u);
  // Exclusive: the visit with children 25 of its 30 has 5, the others as much as inclusive.
  format::Stat excl = r->metrics.exclusive();
  EXPECT_EQ(excl.count, 4u);
  EXPECT_EQ(excl.sum, 40u);
  EXPECT_EQ(excl.min, 5u);
  EXPECT_EQ(excl.max, 20u);
  EXPECT_EQ(Span{}.stat(0).min, 0u);  // no sample: zeros, as Stat has them
  const Node* c = all.find(child);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->parent, root);
  EXPECT_EQ(c->code, 0x410u);
  EXPECT_EQ(c->kind, 6);
  EXPECT_EQ(c->metrics.visits, 7u);
  a.release(), b.release(), all.release();
}

TEST(ProfileTables, ConstructsMergeCountsAndMaxima) {
  ConstructTable a, b;
  Construct* ca = a.get(0x10);
  ca->created = 5, ca->instances = 3, ca->max_active = 4;
  ca->time.add(100);
  ca->counters[1].add(7);
  Construct* cb = b.get(0x10);
  cb->created = 1, cb->instances = 3, cb->max_active = 2;
  cb->time.add(50), cb->time.add(300);
  cb->counters[1].add(1);
  b.get(0)->created = 9;  // code 0 is a construct like any other
  ConstructTable all;
  all.merge(a);
  all.merge(b);
  EXPECT_EQ(all.used, 2u);
  Construct* c = all.get(0x10);
  EXPECT_EQ(c->created, 6u);
  EXPECT_EQ(c->instances, 6u);
  EXPECT_EQ(c->max_active, 4u);  // the most on one thread, not a sum
  format::Stat time = c->time.stat();
  EXPECT_EQ(time.count, 3u);
  EXPECT_EQ(time.sum, 450u);
  EXPECT_EQ(time.min, 50u);
  EXPECT_EQ(time.max, 300u);
  EXPECT_EQ(c->counters[1].sum, 8u);
  EXPECT_EQ(c->counters[1].min, 1u);
  EXPECT_EQ(all.get(0)->created, 9u);
  a.release(), b.release(), all.release();
}

TEST(ProfileTables, GrowKeepsEveryEntry) {
  NodeTable t;
  for (uint64_t i = 1; i <= 5000; ++i) t.get(node_key(0, 1, 0, i), 0, 1, 0, i)->metrics.visits = i;
  EXPECT_EQ(t.used, 5000u);
  EXPECT_FALSE(t.full);
  for (uint64_t i = 1; i <= 5000; ++i) {
    const Node* n = t.find(node_key(0, 1, 0, i));
    ASSERT_NE(n, nullptr) << i;
    EXPECT_EQ(n->metrics.visits, i);
  }
  t.release();
}

// The profiler keeps pointers to nodes and constructs in its frames and task records: growing a
// table must not move its entries.
TEST(ProfileTables, EntriesDoNotMoveWhenTheTableGrows) {
  NodeTable t;
  Node* first = t.get(node_key(0, 1, 0, 1), 0, 1, 0, 1);
  ASSERT_NE(first, nullptr);
  first->metrics.visits = 42;
  for (uint64_t i = 2; i <= 1000; ++i) ASSERT_NE(t.get(node_key(0, 1, 0, i), 0, 1, 0, i), nullptr);
  EXPECT_GT(t.cap, 64u);
  EXPECT_EQ(t.find(node_key(0, 1, 0, 1)), first);
  EXPECT_EQ(first->metrics.visits, 42u);
  ConstructTable c;
  Construct* c1 = c.get(0x10);
  c1->created = 3;
  for (uint64_t i = 0x11; i < 0x11 + 500; ++i) ASSERT_NE(c.get(i), nullptr);
  EXPECT_EQ(c.get(0x10), c1);
  EXPECT_EQ(c1->created, 3u);
  EXPECT_EQ(c.used, 501u);
  t.release(), c.release();
}

}  // namespace
}  // namespace tasklens::recorder::prof
