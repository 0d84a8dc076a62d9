// For the profile's golden tests: replay a hand-made trace through ProfilePass, and print its
// trees one line per node, depth-first in the profile's order (hottest first):
// "kind code v=visits f=fragments i=inclusive e=exclusive" (sums over threads).
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "analysis/profile.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {

// The code addresses of the golden traces' constructs.
constexpr uint64_t kParallelCode = 0x1000;
constexpr uint64_t kTaskA = 0x2000;  // task constructs
constexpr uint64_t kTaskB = 0x2100;
constexpr uint64_t kBarrierCode = 0x3000;
constexpr uint64_t kTaskwaitCode = 0x3100;

// The task construct at `code` in `p` (a test failure and the first one when there is none).
inline const TaskConstruct& construct(const Profile& p, uint64_t code) {
  for (const auto& c : p.tasks) {
    if (c.codeptr == code) return c;
  }
  ADD_FAILURE() << "no task construct " << code;
  return p.tasks.front();
}

inline Profile profile_of(testing::TraceBuilder& t) {
  ProfilePass pass;
  testing::replay_experiment(t.write(), {&pass});
  return pass.result();
}

inline void dump_node(const Profile& p, uint32_t i, int level, std::string& out) {
  const ProfileNode& n = p.nodes[i];
  out += std::string(size_t(2 * level), ' ') + node_kind_name(n.kind);
  if (n.kind == NodeKind::kParam) {
    out += " " + n.name + "=" + std::to_string(n.value);
  } else if (n.kind == NodeKind::kUser) {
    out += " " + n.name;
  } else if (n.code) {
    char hex[32];
    std::snprintf(hex, sizeof hex, " %#llx", (unsigned long long)n.code);
    out += hex;
  }
  out += " v=" + std::to_string(n.total.visits) + " f=" + std::to_string(n.total.fragments) +
         " i=" + std::to_string(n.total.inclusive.sum) +
         " e=" + std::to_string(n.total.exclusive.sum) + "\n";
  for (uint32_t c : n.children) dump_node(p, c, level + 1, out);
}

inline std::string dump(const Profile& p) {
  std::string out;
  for (uint32_t r : p.roots) dump_node(p, r, 0, out);
  out += "--\n";
  for (uint32_t r : p.task_roots) dump_node(p, r, 0, out);
  return out;
}

}  // namespace tasklens::analysis
