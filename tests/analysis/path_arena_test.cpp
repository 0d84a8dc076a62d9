// The task graph's shared path segments (analysis/path_arena.h): reference counts and reuse.
#include "analysis/path_arena.h"

#include <gtest/gtest.h>

namespace tasklens::analysis {
namespace {

// Shared prefixes stay while any path holds them; everything is freed with the last holder.
TEST(PathArena, SegmentsLiveAsLongAsAPathHoldsThem) {
  PathArena arena;
  PathArena::Ref a = arena.extend(0, 1, 0, 10);                 // [a]
  PathArena::Ref b = arena.extend(arena.acquire(a), 2, 1, 20);  // [a b], a held twice
  PathArena::Ref c = arena.extend(a, 3, 1, 30);  // [a c]: takes the first holder's reference
  EXPECT_EQ(arena.in_use(), 3u);
  arena.release(b);  // b goes; a stays for c
  EXPECT_EQ(arena.in_use(), 2u);
  EXPECT_EQ(arena.segment(c).prev, a);
  EXPECT_EQ(arena.segment(a).ns, 10u);
  PathArena::Ref slot = 0;
  arena.assign(&slot, c);
  arena.release(c);
  EXPECT_EQ(arena.in_use(), 2u);  // the slot holds [a c]
  arena.assign(&slot, 0);
  EXPECT_EQ(arena.in_use(), 0u);
  // Freed segments are reused.
  PathArena::Ref d = arena.extend(0, 4, 2, 40);
  EXPECT_LE(d, 3u);
  arena.release(d);
  EXPECT_EQ(arena.in_use(), 0u);
}

}  // namespace
}  // namespace tasklens::analysis
