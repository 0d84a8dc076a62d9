// merge_construct_copies: a profile-mode profile's copies of one task construct as one.
#include "analysis/profile_copies.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tasklens::analysis {
namespace {

bool names_a_construct(NodeKind k) {
  return k == NodeKind::kTask || k == NodeKind::kStub || k == NodeKind::kCreate;
}

void add_metrics(NodeMetrics& to, const NodeMetrics& from) {
  to.visits += from.visits;
  to.fragments += from.fragments;
  to.inclusive.merge(from.inclusive);
  to.exclusive.merge(from.exclusive);
}

void add_stats(std::vector<Stat>& to, const std::vector<Stat>& from) {
  if (to.size() < from.size()) to.resize(from.size());
  for (size_t i = 0; i < from.size(); ++i) to[i].merge(from[i]);
}

void add_node(ProfileNode& to, const ProfileNode& from) {
  add_metrics(to.total, from.total);
  if (to.threads.size() < from.threads.size()) to.threads.resize(from.threads.size());
  for (size_t i = 0; i < from.threads.size(); ++i) add_metrics(to.threads[i], from.threads[i]);
  add_stats(to.counters, from.counters);
}

void add_params(std::vector<ParamSplit>& to, const std::vector<ParamSplit>& from) {
  for (const ParamSplit& s : from) {
    ParamSplit& split = split_named(to, s.name);
    split.set_again += s.set_again;
    for (const ParamValue& v : s.values) split.value(v.value).time.merge(v.time);
  }
  sort_splits(to);
}

void add_construct(TaskConstruct& to, const TaskConstruct& from) {
  to.created += from.created;
  to.instances += from.instances;
  to.unfinished += from.unfinished;
  to.discarded += from.discarded;
  to.fragments += from.fragments;
  to.migrations += from.migrations;
  to.time.merge(from.time);
  to.creation.merge(from.creation);
  to.start_delay.merge(from.start_delay);
  // Each copy's largest count of active instances on one thread: the construct's is at least
  // the larger of them (the recorder kept no finer record).
  to.max_active_per_thread = std::max(to.max_active_per_thread, from.max_active_per_thread);
  add_params(to.params, from.params);
  for (const auto& counter : from.counters) {
    auto it = std::find_if(to.counters.begin(), to.counters.end(),
                           [&](const auto& c) { return c.first == counter.first; });
    if (it == to.counters.end()) {
      to.counters.push_back(counter);
    } else {
      it->second.merge(counter.second);
    }
  }
}

// The nodes again, parents first, siblings that became equal merged with their subtrees.
class NodeMerger {
 public:
  explicit NodeMerger(const std::vector<ProfileNode>& old)
      : old_(old), new_of_(old.size(), kNoNode) {}

  void walk(uint32_t i, uint32_t parent) {
    const ProfileNode& n = old_[i];
    auto key = std::make_tuple(parent, uint8_t(n.kind), n.sub, n.code, n.value, n.name);
    auto [it, fresh] = by_key_.emplace(key, uint32_t(nodes_.size()));
    if (fresh) {
      ProfileNode copy;
      copy.kind = n.kind;
      copy.sub = n.sub;
      copy.parent = parent;
      copy.code = n.code;
      copy.value = n.value;
      copy.name = n.name;
      nodes_.push_back(std::move(copy));
      if (parent != kNoNode) nodes_[parent].children.push_back(it->second);
    }
    uint32_t to = it->second;
    new_of_[i] = to;
    add_node(nodes_[to], n);
    for (uint32_t c : n.children) walk(c, to);
  }

  std::vector<ProfileNode> take() { return std::move(nodes_); }
  uint32_t new_of(uint32_t i) const { return i == kNoNode ? kNoNode : new_of_[i]; }

 private:
  const std::vector<ProfileNode>& old_;
  std::vector<uint32_t> new_of_;
  std::vector<ProfileNode> nodes_;
  std::map<std::tuple<uint32_t, uint8_t, uint16_t, uint64_t, int64_t, std::string>, uint32_t>
      by_key_;
};

}  // namespace

void merge_construct_copies(Profile& p, replay::ConstructMap& constructs) {
  std::unordered_map<uint64_t, uint64_t> canonical;
  bool copies = false;
  auto construct_of = [&](uint64_t code) {
    if (!code) return code;
    auto [it, fresh] = canonical.emplace(code, 0);
    if (fresh) it->second = constructs.construct(code);
    copies |= it->second != code;
    return it->second;
  };
  // Learnt in the order of the rows, most time first, as the trace learns them by creation.
  for (const TaskConstruct& c : p.tasks) construct_of(c.codeptr);
  for (const ProfileNode& n : p.nodes) {
    if (names_a_construct(n.kind)) construct_of(n.code);
  }
  if (!copies) return;

  std::vector<ProfileNode> old = std::move(p.nodes);
  for (ProfileNode& n : old) {
    if (names_a_construct(n.kind)) n.code = construct_of(n.code);
  }
  NodeMerger merger(old);
  std::vector<uint32_t> roots;
  for (uint32_t i = 0; i < old.size(); ++i) {
    if (old[i].parent == kNoNode) merger.walk(i, kNoNode);
  }
  for (uint32_t r : p.roots) {
    uint32_t to = merger.new_of(r);
    if (std::find(roots.begin(), roots.end(), to) == roots.end()) roots.push_back(to);
  }
  p.nodes = merger.take();
  p.roots = std::move(roots);

  std::vector<TaskConstruct> tasks;
  std::unordered_map<uint64_t, size_t> row;
  for (TaskConstruct& c : p.tasks) {
    uint64_t code = construct_of(c.codeptr);
    uint32_t root = merger.new_of(c.root);
    auto [it, fresh] = row.emplace(code, tasks.size());
    if (fresh) {
      tasks.push_back(std::move(c));
      tasks.back().codeptr = code;
      tasks.back().root = root;
    } else {
      TaskConstruct& into = tasks[it->second];
      add_construct(into, c);
      if (into.root == kNoNode) into.root = root;
    }
  }
  p.tasks = std::move(tasks);
  sort_profile(p);
}

}  // namespace tasklens::analysis
