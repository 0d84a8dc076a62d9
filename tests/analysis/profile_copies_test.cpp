// merge_construct_copies on a hand-made profile-mode profile: two copies of one task construct
// (0xA1 and its copy 0xA2, as a compiler that inlines the construct makes them) fold into one
// row and one tree, with their counts, statistics and subtrees added up.
#include "analysis/profile_copies.h"

#include <gtest/gtest.h>

#include <map>

namespace tasklens::analysis {
namespace {

class Copies final : public replay::ConstructMap {
 public:
  std::map<uint64_t, uint64_t> of;
  uint64_t construct(uint64_t codeptr) override {
    auto it = of.find(codeptr);
    return it == of.end() ? codeptr : it->second;
  }
};

Stat stat(uint64_t count, uint64_t sum, uint64_t min, uint64_t max) {
  return Stat{count, sum, min, max};
}

uint32_t add(Profile& p, NodeKind kind, uint32_t parent, uint64_t code, uint64_t visits,
             uint64_t incl) {
  ProfileNode n;
  n.kind = kind;
  n.parent = parent;
  n.code = code;
  n.total.visits = n.total.fragments = visits;
  n.total.inclusive = n.total.exclusive = stat(visits, incl, 1, incl);
  n.threads.resize(1, n.total);
  auto i = uint32_t(p.nodes.size());
  p.nodes.push_back(n);
  if (parent != kNoNode) p.nodes[parent].children.push_back(i);
  return i;
}

TaskConstruct construct(uint64_t code, uint32_t root, uint64_t instances, uint64_t time) {
  TaskConstruct c;
  c.codeptr = code;
  c.root = root;
  c.created = c.instances = instances;
  c.fragments = instances;
  c.time = stat(instances, time, 1, time);
  c.max_active_per_thread = uint32_t(instances);
  c.params = {ParamSplit{"n", {ParamValue{int64_t(instances), stat(1, 1, 1, 1)}}, 0}};
  return c;
}

// program -> parallel -> { stub 0xA1 (5 visits), stub 0xA2 (3), create 0xA2 (3) }; task trees
// 0xA1 (taskwait 4 visits) and 0xA2 (taskwait 2 visits); rows 0xA1 (8 instances) and 0xA2 (15,712).
Profile two_copies() {
  Profile p;
  p.threads = 1;
  uint32_t program = add(p, NodeKind::kProgram, kNoNode, 0, 1, 100);
  uint32_t parallel = add(p, NodeKind::kParallel, program, 0x10, 1, 90);
  add(p, NodeKind::kStub, parallel, 0xA1, 5, 20);
  add(p, NodeKind::kStub, parallel, 0xA2, 3, 30);
  add(p, NodeKind::kCreate, parallel, 0xA2, 3, 6);
  uint32_t a1 = add(p, NodeKind::kTask, kNoNode, 0xA1, 8, 20);
  add(p, NodeKind::kTaskwait, a1, 0x20, 4, 8);
  uint32_t a2 = add(p, NodeKind::kTask, kNoNode, 0xA2, 15712, 30);
  add(p, NodeKind::kTaskwait, a2, 0x20, 2, 4);
  p.roots = {program};
  p.tasks = {construct(0xA2, a2, 15712, 30), construct(0xA1, a1, 8, 20)};
  sort_profile(p);
  return p;
}

TEST(ProfileCopies, CopiesOfAConstructFoldIntoOneRowAndOneTree) {
  Profile p = two_copies();
  Copies copies;
  copies.of[0xA2] = 0xA1;
  merge_construct_copies(p, copies);

  ASSERT_EQ(p.tasks.size(), 1u);
  const TaskConstruct& c = p.tasks[0];
  EXPECT_EQ(c.codeptr, 0xA1u);
  EXPECT_EQ(c.instances, 15720u);
  EXPECT_EQ(c.created, 15720u);
  EXPECT_EQ(c.time.count, 15720u);
  EXPECT_EQ(c.time.sum, 50u);
  EXPECT_EQ(c.time.max, 30u);
  EXPECT_EQ(c.max_active_per_thread, 15712u);
  ASSERT_EQ(c.params.size(), 1u);
  EXPECT_EQ(c.params[0].values.size(), 2u);  // the values 8 and 15712

  // One task tree, its taskwait's visits added up.
  ASSERT_EQ(p.task_roots.size(), 1u);
  const ProfileNode& root = p.nodes[c.root];
  EXPECT_EQ(root.kind, NodeKind::kTask);
  EXPECT_EQ(root.total.visits, 15720u);
  ASSERT_EQ(root.children.size(), 1u);
  EXPECT_EQ(p.nodes[root.children[0]].total.visits, 6u);
  EXPECT_EQ(p.nodes[root.children[0]].threads[0].visits, 6u);

  // Under the parallel: one stub (8 visits, 50 ns) and the creation renamed.
  ASSERT_EQ(p.roots.size(), 1u);
  const ProfileNode& parallel = p.nodes[p.nodes[p.roots[0]].children.at(0)];
  ASSERT_EQ(parallel.children.size(), 2u);
  const ProfileNode& stub = p.nodes[parallel.children[0]];
  EXPECT_EQ(stub.kind, NodeKind::kStub);
  EXPECT_EQ(stub.code, 0xA1u);
  EXPECT_EQ(stub.total.visits, 8u);
  EXPECT_EQ(stub.total.inclusive.sum, 50u);
  EXPECT_EQ(p.nodes[parallel.children[1]].code, 0xA1u);
  for (uint32_t i = 0; i < p.nodes.size(); ++i) {
    for (uint32_t k : p.nodes[i].children) EXPECT_EQ(p.nodes[k].parent, i);
  }
}

TEST(ProfileCopies, AProfileWithoutCopiesIsLeftAsItIs) {
  Profile p = two_copies();
  Copies none;
  size_t nodes = p.nodes.size();
  merge_construct_copies(p, none);
  EXPECT_EQ(p.tasks.size(), 2u);
  EXPECT_EQ(p.nodes.size(), nodes);
  EXPECT_EQ(p.task_roots.size(), 2u);
}

}  // namespace
}  // namespace tasklens::analysis
