// The construct table: every row in its enum's place, the classes the analyses rely on, and the
// OMPT kind -> construct mappings (including the kinds that are no construct).
#include "format/constructs.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "format/event.h"
#include "format/kinds.h"

namespace tasklens::format {
namespace {

TEST(Constructs, NamesAreUniqueAndKnown) {
  std::set<std::string> names;
  for (const ConstructInfo& c : kConstructs) names.insert(c.name);
  EXPECT_EQ(names.size(), kConstructCount);
  EXPECT_STREQ(construct_name(Construct::kImplicitBarrier), "implicit barrier");
  EXPECT_STREQ(construct_name(Construct::kNestedParallel), "nested parallel");
  EXPECT_STREQ(construct_name(Construct::kUser), "user region");
  EXPECT_STREQ(construct_name(Construct::kCount), "?");
}

TEST(Constructs, Classes) {
  EXPECT_TRUE(is_task(Construct::kInitialTask));
  EXPECT_TRUE(is_task(Construct::kUntiedTask));
  EXPECT_FALSE(is_task(Construct::kTaskwait));
  EXPECT_FALSE(is_task(Construct::kCount));
  EXPECT_EQ(construct_class(Construct::kTaskloop), ConstructClass::kWork);
  EXPECT_EQ(construct_class(Construct::kTaskgroup), ConstructClass::kSync);
  EXPECT_EQ(construct_class(Construct::kAtomic), ConstructClass::kMutex);
}

TEST(Constructs, FromOmptKinds) {
  EXPECT_EQ(sync_construct(uint16_t(SyncKind::kBarrierExplicit)), Construct::kBarrier);
  EXPECT_EQ(sync_construct(uint16_t(SyncKind::kBarrierImplicitParallel)),
            Construct::kImplicitBarrier);
  EXPECT_EQ(sync_construct(uint16_t(SyncKind::kTaskgroup)), Construct::kTaskgroup);
  EXPECT_EQ(sync_construct(0), Construct::kCount);
  EXPECT_EQ(work_construct(uint16_t(WorkType::kSingleOther)), Construct::kSingle);
  EXPECT_EQ(work_construct(99), Construct::kCount);
  EXPECT_EQ(mutex_construct(uint16_t(MutexKind::kNestLock)), Construct::kLock);
  EXPECT_EQ(mutex_construct(uint16_t(MutexKind::kTestLock)), Construct::kCount);
  EXPECT_EQ(mutex_construct(uint16_t(MutexKind::kOrdered)), Construct::kOrdered);
}

// The OMPT kinds' classes that the replay, the analyses and profile mode share. Profile mode once
// kept its own copy with taskgroup (6) and reduction (7) for the 5.1 implicit barriers (8, 9).
TEST(Constructs, OmptKindClasses) {
  for (SyncKind k : {SyncKind::kBarrierImplicit, SyncKind::kBarrierImplicitWorkshare,
                     SyncKind::kBarrierImplicitParallel}) {
    EXPECT_TRUE(is_implicit_barrier(uint16_t(k))) << int(k);
  }
  for (SyncKind k : {SyncKind::kBarrierExplicit, SyncKind::kTaskgroup, SyncKind::kReduction,
                     SyncKind::kTaskwait, SyncKind::kBarrierTeams}) {
    EXPECT_FALSE(is_implicit_barrier(uint16_t(k))) << int(k);
  }
  EXPECT_TRUE(is_workshare_barrier(uint16_t(SyncKind::kBarrierImplicit)));  // libomp 14's both
  EXPECT_TRUE(is_workshare_barrier(uint16_t(SyncKind::kBarrierImplicitWorkshare)));
  EXPECT_FALSE(is_workshare_barrier(uint16_t(SyncKind::kBarrierImplicitParallel)));
  EXPECT_FALSE(is_workshare_barrier(uint16_t(SyncKind::kTaskgroup)));
  for (WorkType w : {WorkType::kLoop, WorkType::kSections, WorkType::kSingleExecutor,
                     WorkType::kSingleOther, WorkType::kWorkshare, WorkType::kScope}) {
    EXPECT_TRUE(is_worksharing(uint16_t(w))) << int(w);
  }
  EXPECT_FALSE(is_worksharing(uint16_t(WorkType::kTaskloop)));
  EXPECT_FALSE(is_worksharing(uint16_t(WorkType::kDistribute)));
}

}  // namespace
}  // namespace tasklens::format
