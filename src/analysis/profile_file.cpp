// profile.json into Profile and Breakdown (format/profile_file.h has the contract).
#include "analysis/profile_file.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <unordered_map>

#include "format/metadata.h"
#include "format/profile_file.h"

namespace tasklens::analysis {
namespace {

namespace pkey = format::pkey;
using nlohmann::json;

uint64_t u64(const json& j, const char* k) {
  auto it = j.find(k);
  return it != j.end() && it->is_number_unsigned() ? it->get<uint64_t>() : 0;
}

// Ticks into ns (durations).
struct Ticks {
  double ns_per_tick;
  uint64_t ns(uint64_t ticks) const { return uint64_t(std::llround(double(ticks) * ns_per_tick)); }
  Stat stat(const json& a, bool convert = true) const {
    Stat s;
    if (!a.is_array() || a.size() != 4) return s;
    auto at = [&](size_t i) { return a[i].is_number_unsigned() ? a[i].get<uint64_t>() : 0; };
    s.count = at(0);
    s.sum = convert ? ns(at(1)) : at(1);
    s.min = convert ? ns(at(2)) : at(2);
    s.max = convert ? ns(at(3)) : at(3);
    return s;
  }
};

NodeKind kind_named(const std::string& name) {
  for (int k = 0; k < int(NodeKind::kCount); ++k) {
    if (name == node_kind_name(NodeKind(k))) return NodeKind(k);
  }
  return NodeKind::kCount;
}

void read_nodes(const json& nodes, const Ticks& t, Profile& p) {
  std::unordered_map<uint64_t, uint32_t> by_key;
  std::vector<uint64_t> parents;
  for (const json& n : nodes) {
    NodeKind kind = kind_named(n.value("kind", ""));
    if (kind == NodeKind::kCount) continue;
    ProfileNode node;
    node.kind = kind;
    node.sub = uint16_t(u64(n, "sub"));
    node.code = format::hex_address(n.value("code", json()));
    node.threads.resize(p.threads);
    for (const json& row : n.value("threads", json::array())) {
      if (!row.is_array() || row.size() != 5) continue;
      uint64_t thread = row[0].is_number_unsigned() ? row[0].get<uint64_t>() : 0;
      NodeMetrics m;
      m.visits = row[1].is_number_unsigned() ? row[1].get<uint64_t>() : 0;
      m.fragments = row[2].is_number_unsigned() ? row[2].get<uint64_t>() : 0;
      m.inclusive = t.stat(row[3]);
      m.exclusive = t.stat(row[4]);
      node.total.visits += m.visits;
      node.total.fragments += m.fragments;
      node.total.inclusive.merge(m.inclusive);
      node.total.exclusive.merge(m.exclusive);
      if (thread < p.threads) node.threads[thread] = m;
    }
    by_key[format::hex_address(n.value("key", json()))] = uint32_t(p.nodes.size());
    parents.push_back(format::hex_address(n.value("parent", json())));
    p.nodes.push_back(std::move(node));
  }
  for (uint32_t i = 0; i < p.nodes.size(); ++i) {
    auto it = parents[i] ? by_key.find(parents[i]) : by_key.end();
    if (it != by_key.end()) {
      p.nodes[i].parent = it->second;
      p.nodes[it->second].children.push_back(i);
    } else if (p.nodes[i].kind != NodeKind::kTask) {
      p.roots.push_back(i);
    }
  }
}

void read_constructs(const json& list, const std::vector<std::string>& counters, const Ticks& t,
                     Profile& p) {
  for (const json& c : list) {
    TaskConstruct tc;
    tc.codeptr = format::hex_address(c.value("code", json()));
    tc.created = u64(c, "created");
    tc.instances = u64(c, "instances");
    tc.unfinished = u64(c, "unfinished");
    tc.discarded = u64(c, "discarded");
    tc.fragments = u64(c, "fragments");
    tc.migrations = u64(c, "migrations");
    tc.time = t.stat(c.value("time", json()));
    tc.creation = t.stat(c.value("creation", json()));
    tc.start_delay = t.stat(c.value("start_delay", json()));
    tc.max_active_per_thread = uint32_t(u64(c, "max_active"));
    const json& values = c.value("counters", json::array());
    for (size_t i = 0; i < counters.size() && i < values.size(); ++i) {
      tc.counters.emplace_back(counters[i], t.stat(values[i], /*convert=*/false));
    }
    for (uint32_t n = 0; n < p.nodes.size(); ++n) {
      const ProfileNode& node = p.nodes[n];
      if (node.kind == NodeKind::kTask && node.parent == kNoNode && node.code == tc.codeptr) {
        tc.root = n;
      }
    }
    p.tasks.push_back(std::move(tc));
  }
}

// As ProfilePass::end: hottest first.
void sort_profile(Profile& p) {
  auto hotter = [&p](uint32_t a, uint32_t b) {
    return p.nodes[a].total.inclusive.sum > p.nodes[b].total.inclusive.sum;
  };
  for (ProfileNode& n : p.nodes) std::stable_sort(n.children.begin(), n.children.end(), hotter);
  std::stable_sort(p.roots.begin(), p.roots.end(), hotter);
  std::stable_sort(p.tasks.begin(), p.tasks.end(), [](const TaskConstruct& a, const TaskConstruct& b) {
    return a.time.sum > b.time.sum;
  });
  p.task_roots.clear();
  for (const TaskConstruct& c : p.tasks) {
    if (c.root != kNoNode) p.task_roots.push_back(c.root);
  }
}

}  // namespace

Result<ProfileModeData> read_profile_mode(const format::Experiment& x) {
  std::string path = x.dir + "/" + format::kProfileFile;
  std::ifstream in(path);
  if (!in) return Error{path + ": missing (the profile-mode run did not end normally?)"};
  json j = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Error{path + ": corrupt (not valid JSON)"};
  ProfileModeData d;
  Ticks t{x.clock.ns_per_tick};
  const json& threads = j.value(pkey::kThreads, json::array());
  for (const json& th : threads) d.threads = std::max<uint32_t>(d.threads, uint32_t(u64(th, "index")) + 1);
  Profile& p = d.profile;
  p.threads = d.threads;
  p.max_active_per_thread.assign(d.threads, 0);
  p.thread_time_ns.assign(d.threads, 0);
  Breakdown& b = d.breakdown;
  for (const json& th : threads) {
    auto i = uint32_t(u64(th, "index"));
    p.max_active_per_thread[i] = uint32_t(u64(th, "max_active"));
    p.thread_time_ns[i] = t.ns(u64(th, "thread_time"));
    p.total_time_ns += p.thread_time_ns[i];
    p.unmatched_ends += u64(th, "unmatched_ends");
    p.bad_counter_samples += u64(th, "bad_counter_samples");
    ThreadBreakdown tb;
    tb.thread = i;
    tb.initial = th.value("initial", false);
    uint64_t begin = x.clock.to_ns(u64(th, "begin"));
    tb.begin_ns = tb.initial ? 0 : begin;
    tb.end_ns = x.clock.to_ns(u64(th, "end"));
    tb.time.work_ns = t.ns(u64(th, "work"));
    tb.time.overhead_ns = t.ns(u64(th, "overhead"));
    tb.time.idle_ns = t.ns(u64(th, "idle"));
    // The initial thread before the recorder started is serial, as in a trace.
    tb.time.serial_ns = t.ns(u64(th, "serial")) + (tb.initial ? begin : 0);
    b.total += tb.time;
    b.task_body_ns += tb.time.work_ns + tb.time.serial_ns;
    d.run_ns = std::max(d.run_ns, tb.end_ns);
    b.threads.push_back(tb);
  }
  std::sort(b.threads.begin(), b.threads.end(),
            [](const ThreadBreakdown& a, const ThreadBreakdown& c) { return a.thread < c.thread; });
  if (x.clock.exit_ns) d.run_ns = std::max(d.run_ns, x.clock.exit_ns);
  b.run_ns = d.run_ns;
  b.recorder_start_ns = x.clock.recorder_start_ns;
  set_verdict(b);
  for (const json& c : j.value(pkey::kCounters, json::array())) {
    if (c.is_string()) d.counters.push_back(c.get<std::string>());
  }
  read_nodes(j.value(pkey::kNodes, json::array()), t, p);
  read_constructs(j.value(pkey::kConstructs, json::array()), d.counters, t, p);
  sort_profile(p);
  d.notes.push_back(
      "profile mode: the breakdown's overhead and idleness are approximate (whether a task was "
      "ready is sampled at both ends of each wait), with no per-region split, time series or "
      "creation estimate; preemption is not measured");
  if (j.value(pkey::kOverflow, false)) {
    d.notes.push_back("profile mode: the recorder ran out of memory for its tables; some call "
                      "paths or constructs are missing");
  }
  return d;
}

}  // namespace tasklens::analysis
