// profile.json into Profile and Breakdown (format/profile_file.h has the contract).
//
// The file may be damaged or hostile: every member the recorder writes must be there with its
// type (counts unsigned), thread indices in range, the nesting bounded (format/json_in.h) and the
// call tree no deeper than kMaxProfileDepth (deeper nodes fold into their ancestor at that depth,
// as the trace's profile does). The first problem is the error: one line naming the file and the
// member ("DIR/profile.json: nodes[3].threads[0][1]: -2, not a count").
#include "analysis/profile_file.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <unordered_map>

#include "format/chunk.h"
#include "format/json_in.h"
#include "format/metadata.h"
#include "format/profile_file.h"

namespace tasklens::analysis {
namespace {

namespace pkey = format::pkey;
using nlohmann::json;

constexpr uint64_t kProfileVersion = 1;  // what profile_writer.cpp writes
// Thread indices may leave gaps (a thread whose record could not be allocated), not more than
// this many: every node holds a row per thread, so an index of 4095 in a small file would cost
// gigabytes.
constexpr uint64_t kThreadGapSlack = 64;

std::string elem(const std::string& where, size_t i) {
  return where + "[" + std::to_string(i) + "]";
}
std::string at(const std::string& where, const char* k) {
  return where.empty() ? k : where + "." + k;
}

// Reads members, keeping the first problem; after one, every read gives a default.
class Checked {
 public:
  Checked(std::string path, const format::Clock& clock) : path_(std::move(path)), clock_(clock) {}
  bool failed() const { return !error_.empty(); }
  Error error() const { return Error{error_}; }
  void fail(const std::string& where, const std::string& what) {
    if (error_.empty()) error_ = path_ + ": " + where + ": " + what;
  }

  const json* member(const json& o, const char* k, const std::string& where) {
    auto it = o.find(k);
    if (it != o.end()) return &*it;
    fail(at(where, k), "missing");
    return nullptr;
  }
  const json& object(const json& v, const std::string& where) {
    return typed(v, json::value_t::object, where);
  }
  const json& array(const json& v, const std::string& where) {
    return typed(v, json::value_t::array, where);
  }
  const json& array(const json& o, const char* k, const std::string& where) {
    const json* v = member(o, k, where);
    return v ? array(*v, at(where, k)) : kNull;
  }
  uint64_t count(const json& v, const std::string& where, uint64_t limit = UINT64_MAX) {
    if (!v.is_number_unsigned()) {
      fail(where, describe(v) + ", not a count");
      return 0;
    }
    auto n = v.get<uint64_t>();
    if (n > limit) fail(where, std::to_string(n) + ", above " + std::to_string(limit));
    return n > limit ? 0 : n;
  }
  uint64_t count(const json& o, const char* k, const std::string& where,
                 uint64_t limit = UINT64_MAX) {
    const json* v = member(o, k, where);
    return v ? count(*v, at(where, k), limit) : 0;
  }
  bool flag(const json& o, const char* k, const std::string& where) {
    const json* v = member(o, k, where);
    if (v && !v->is_boolean()) fail(at(where, k), describe(*v) + ", not true or false");
    return v && v->is_boolean() && v->get<bool>();
  }
  std::string text(const json& v, const std::string& where) {
    if (v.is_string()) return v.get<std::string>();
    fail(where, describe(v) + ", not a string");
    return {};
  }
  int64_t integer(const json& v, const std::string& where) {
    if (v.is_number_integer()) return v.get<int64_t>();
    fail(where, describe(v) + ", not an integer");
    return 0;
  }
  // A code address or node key as the recorder writes it: "0x1a2b".
  uint64_t address(const json& o, const char* k, const std::string& where) {
    const json* v = member(o, k, where);
    if (!v) return 0;
    std::string s = text(*v, at(where, k));
    char* end = nullptr;
    uint64_t a = s.size() > 2 && s.size() <= 18 && s[0] == '0' && s[1] == 'x'
                     ? std::strtoull(s.c_str() + 2, &end, 16)
                     : 0;
    if (!end || *end || s[2] == '-' || s[2] == '+' || s[2] == ' ') {
      fail(at(where, k), describe(*v) + ", not a hex address");
      return 0;
    }
    return a;
  }
  // [count, sum, min, max]; the times in ticks turned into ns when `ticks`.
  Stat stat(const json& v, const std::string& where, bool ticks = true) {
    Stat s;
    const json& a = array(v, where);
    if (!a.is_array()) return s;
    if (a.size() != 4) {
      fail(where, std::to_string(a.size()) + " numbers, not 4 (count, sum, min, max)");
      return s;
    }
    uint64_t n[4];
    for (size_t i = 0; i < 4; ++i) n[i] = count(a[i], elem(where, i));
    s.count = n[0];
    s.sum = ticks ? ns(n[1]) : n[1];
    s.min = ticks ? ns(n[2]) : n[2];
    s.max = ticks ? ns(n[3]) : n[3];
    return s;
  }
  Stat stat(const json& o, const char* k, const std::string& where, bool ticks = true) {
    const json* v = member(o, k, where);
    return v ? stat(*v, at(where, k), ticks) : Stat{};
  }
  uint64_t ns(uint64_t ticks) const { return clock_.duration_ns(ticks); }
  const format::Clock& clock() const { return clock_; }

 private:
  inline static const json kNull;
  const json& typed(const json& v, json::value_t type, const std::string& where) {
    if (v.type() == type) return v;
    fail(where,
         describe(v) + (type == json::value_t::array ? ", not an array" : ", not an object"));
    return kNull;
  }
  static std::string describe(const json& v) {
    if (v.is_null()) return "null";
    if (v.is_array() || v.is_object()) return std::string("an ") + v.type_name();
    std::string s = v.dump(-1, ' ', false, json::error_handler_t::replace);
    return s.size() > 40 ? s.substr(0, 37) + "..." : s;
  }

  std::string path_;
  const format::Clock& clock_;
  std::string error_;
};

NodeKind kind_named(const std::string& name) {
  for (int k = 0; k < int(NodeKind::kCount); ++k) {
    if (name == node_kind_name(NodeKind(k))) return NodeKind(k);
  }
  return NodeKind::kCount;
}

void read_threads(const json& threads, Checked& in, ProfileModeData& d) {
  const format::Clock& clock = in.clock();
  uint64_t limit = std::min<uint64_t>(format::kMaxThreads, threads.size() + kThreadGapSlack) - 1;
  for (size_t k = 0; k < threads.size(); ++k) {
    std::string where = elem(pkey::kThreads, k);
    const json& th = in.object(threads[k], where);
    if (in.failed()) return;
    d.threads = std::max(d.threads, uint32_t(in.count(th, "index", where, limit) + 1));
  }
  Profile& p = d.profile;
  Breakdown& b = d.breakdown;
  p.threads = d.threads;
  p.max_active_per_thread.assign(d.threads, 0);
  p.thread_time_ns.assign(d.threads, 0);
  std::vector<bool> seen(d.threads);
  for (size_t k = 0; k < threads.size() && !in.failed(); ++k) {
    std::string where = elem(pkey::kThreads, k);
    const json& th = threads[k];
    auto i = uint32_t(in.count(th, "index", where));
    if (seen[i]) in.fail(at(where, "index"), "thread " + std::to_string(i) + " is listed twice");
    seen[i] = true;
    p.max_active_per_thread[i] = uint32_t(in.count(th, "max_active", where, UINT32_MAX));
    p.thread_time_ns[i] = in.ns(in.count(th, "thread_time", where));
    p.total_time_ns += p.thread_time_ns[i];
    p.unmatched_ends += in.count(th, "unmatched_ends", where);
    // Failed counter reads (recorders from issue 20's second pass on; absent before: none).
    if (th.contains("bad_counter_samples")) {
      p.bad_counter_samples += in.count(th, "bad_counter_samples", where);
    }
    // The kernel's run-queue wait (recorders from 2026-11-28 on, where /proc has it).
    if (th.contains("run_delay_ns")) {
      b.run_delay_ns += in.count(th, "run_delay_ns", where);
      b.run_delay_known = true;
    }
    ThreadBreakdown tb;
    tb.thread = i;
    tb.initial = in.flag(th, "initial", where);
    uint64_t begin = clock.to_ns(in.count(th, "begin", where));
    tb.begin_ns = tb.initial ? 0 : begin;
    tb.end_ns = clock.to_ns(in.count(th, "end", where));
    tb.time.work_ns = in.ns(in.count(th, "work", where));
    tb.time.overhead_ns = in.ns(in.count(th, "overhead", where));
    tb.time.idle_ns = in.ns(in.count(th, "idle", where));
    // The initial thread before the recorder started is serial, as in a trace.
    tb.time.serial_ns = in.ns(in.count(th, "serial", where)) + (tb.initial ? begin : 0);
    b.total += tb.time;
    b.task_body_ns += tb.time.work_ns + tb.time.serial_ns;
    d.run_ns = std::max(d.run_ns, tb.end_ns);
    b.threads.push_back(tb);
  }
}

// A statistic per counter of the file's `counters` (raw values, not ticks).
std::vector<Stat> counter_stats(const json& values, size_t counters, const std::string& where,
                                Checked& in) {
  std::vector<Stat> out;
  if (values.is_array() && values.size() != counters) {
    in.fail(where, std::to_string(values.size()) + " counters, not the " +
                       std::to_string(counters) + " the file names");
  }
  for (size_t i = 0; i < counters && !in.failed(); ++i) {
    out.push_back(in.stat(values[i], elem(where, i), /*ticks=*/false));
  }
  return out;
}

ProfileNode read_node(const json& n, const std::string& where, uint32_t threads, size_t counters,
                      const format::Experiment& x, Checked& in) {
  ProfileNode node;
  std::string kind =
      in.text(n.is_object() && n.contains("kind") ? n["kind"] : json(), at(where, "kind"));
  node.kind = kind_named(kind);
  if (node.kind == NodeKind::kCount)
    in.fail(at(where, "kind"), "\"" + kind + "\", not a node kind");
  node.sub = uint16_t(in.count(n, "sub", where, UINT16_MAX));
  node.code = in.address(n, "code", where);
  // User regions and parameters: code is the name's id in experiment.json's strings.
  if (node.kind == NodeKind::kUser || node.kind == NodeKind::kParam)
    node.name = x.string(node.code);
  if (node.kind == NodeKind::kParam) {
    const json* v = in.member(n, "value", where);
    node.value = v ? in.integer(*v, at(where, "value")) : 0;
  }
  // Counters per node (absent from the files of recorders before them, and without counters).
  if (counters && n.contains("counters")) {
    node.counters =
        counter_stats(in.array(n, "counters", where), counters, at(where, "counters"), in);
  }
  node.threads.resize(threads);
  const json& rows = in.array(n, "threads", where);
  for (size_t r = 0; r < rows.size() && !in.failed(); ++r) {
    std::string rw = elem(at(where, "threads"), r);
    const json& row = in.array(rows[r], rw);
    if (!row.is_array()) break;
    if (row.size() != 5) {
      in.fail(rw, std::to_string(row.size()) +
                      " members, not 5 (thread, visits, fragments, "
                      "inclusive, exclusive)");
      break;
    }
    if (threads == 0) {
      in.fail(elem(rw, 0), "a thread, but no thread is listed");
      break;
    }
    uint64_t thread = in.count(row[0], elem(rw, 0), threads - 1);
    NodeMetrics m;
    m.visits = in.count(row[1], elem(rw, 1));
    m.fragments = in.count(row[2], elem(rw, 2));
    m.inclusive = in.stat(row[3], elem(rw, 3));
    m.exclusive = in.stat(row[4], elem(rw, 4));
    node.total.visits += m.visits;
    node.total.fragments += m.fragments;
    node.total.inclusive.merge(m.inclusive);
    node.total.exclusive.merge(m.exclusive);
    node.threads[thread] = m;
  }
  return node;
}

// Nodes deeper than kMaxProfileDepth fold into their ancestor at that depth, as in the trace's
// profile (profile.h): a visit each, their exclusive time in its own (its inclusive time holds
// theirs already). Nodes no root leads to (parents in a cycle) are damage.
bool fold_deep_nodes(std::vector<ProfileNode>& all, Checked& in) {
  std::vector<std::vector<uint32_t>> children(all.size());
  std::vector<uint32_t> queue;
  for (uint32_t i = 0; i < all.size(); ++i) {
    if (all[i].parent == kNoNode)
      queue.push_back(i);
    else
      children[all[i].parent].push_back(i);
  }
  std::vector<uint32_t> level(all.size(), 0), host(all.size(), kNoNode);
  for (uint32_t r : queue) level[r] = 1, host[r] = r;
  for (size_t q = 0; q < queue.size(); ++q) {
    uint32_t n = queue[q];
    for (uint32_t c : children[n]) {
      level[c] = level[n] + 1;
      host[c] = level[c] <= kMaxProfileDepth ? c : host[n];
      queue.push_back(c);
    }
  }
  for (uint32_t i = 0; i < all.size(); ++i) {
    if (!level[i]) {
      in.fail(elem(pkey::kNodes, i) + ".parent", "the node's ancestors form a cycle");
      return false;
    }
  }
  std::vector<uint32_t> index(all.size(), kNoNode);
  std::vector<ProfileNode> kept;
  for (uint32_t i = 0; i < all.size(); ++i) {
    if (host[i] == i) {
      index[i] = uint32_t(kept.size());
      kept.push_back(std::move(all[i]));
    }
  }
  for (uint32_t i = 0; i < all.size(); ++i) {
    if (host[i] == i) continue;
    ProfileNode& h = kept[index[host[i]]];
    auto fold = [](NodeMetrics& into, const NodeMetrics& m) {
      into.visits += m.visits;
      into.exclusive.merge(m.exclusive);
    };
    fold(h.total, all[i].total);
    for (size_t t = 0; t < all[i].threads.size(); ++t) fold(h.threads[t], all[i].threads[t]);
  }
  for (ProfileNode& n : kept) {
    if (n.parent != kNoNode) n.parent = index[n.parent];
  }
  all = std::move(kept);
  return true;
}

void read_nodes(const json& nodes, const format::Experiment& x, Checked& in, Profile& p) {
  std::unordered_map<uint64_t, uint32_t> by_key;
  std::vector<uint64_t> parents;
  std::vector<ProfileNode> all;
  for (size_t k = 0; k < nodes.size() && !in.failed(); ++k) {
    std::string where = elem(pkey::kNodes, k);
    const json& n = in.object(nodes[k], where);
    if (in.failed()) return;
    ProfileNode node = read_node(n, where, p.threads, p.counter_names.size(), x, in);
    uint64_t key = in.address(n, "key", where);
    if (!in.failed() && !by_key.emplace(key, uint32_t(all.size())).second) {
      in.fail(at(where, "key"), "a key an earlier node has");
    }
    parents.push_back(in.address(n, "parent", where));
    all.push_back(std::move(node));
  }
  if (in.failed()) return;
  // A parent the file lacks (its table was full: "overflow") leaves the node a root.
  for (uint32_t i = 0; i < all.size(); ++i) {
    auto it = parents[i] ? by_key.find(parents[i]) : by_key.end();
    if (it != by_key.end()) all[i].parent = it->second;
  }
  if (!fold_deep_nodes(all, in)) return;
  p.nodes = std::move(all);
  for (uint32_t i = 0; i < p.nodes.size(); ++i) {
    ProfileNode& n = p.nodes[i];
    if (n.parent != kNoNode) {
      p.nodes[n.parent].children.push_back(i);
    } else if (n.kind != NodeKind::kTask) {
      p.roots.push_back(i);
    }
  }
}

void read_constructs(const json& list, const std::vector<std::string>& counters, Checked& in,
                     Profile& p) {
  std::unordered_map<uint64_t, uint32_t> task_roots;
  for (uint32_t n = 0; n < p.nodes.size(); ++n) {
    const ProfileNode& node = p.nodes[n];
    if (node.kind == NodeKind::kTask && node.parent == kNoNode) task_roots[node.code] = n;
  }
  for (size_t k = 0; k < list.size() && !in.failed(); ++k) {
    std::string where = elem(pkey::kConstructs, k);
    const json& c = in.object(list[k], where);
    if (in.failed()) return;
    TaskConstruct tc;
    tc.codeptr = in.address(c, "code", where);
    tc.created = in.count(c, "created", where);
    tc.instances = in.count(c, "instances", where);
    tc.unfinished = in.count(c, "unfinished", where);
    tc.discarded = in.count(c, "discarded", where);
    tc.fragments = in.count(c, "fragments", where);
    tc.migrations = in.count(c, "migrations", where);
    tc.time = in.stat(c, "time", where);
    tc.creation = in.stat(c, "creation", where);
    tc.start_delay = in.stat(c, "start_delay", where);
    tc.max_active_per_thread = uint32_t(in.count(c, "max_active", where, UINT32_MAX));
    std::vector<Stat> values =
        counter_stats(in.array(c, "counters", where), counters.size(), at(where, "counters"), in);
    for (size_t i = 0; i < values.size(); ++i) tc.counters.emplace_back(counters[i], values[i]);
    if (auto it = task_roots.find(tc.codeptr); it != task_roots.end()) tc.root = it->second;
    p.tasks.push_back(std::move(tc));
  }
}

// The parameter splits (tasks[].parameters): per construct, by the name's text (as
// ProfilePass::param_split), values in order; absent from older files.
void read_params(const json& list, const format::Experiment& x, Checked& in, Profile& p) {
  std::unordered_map<uint64_t, size_t> by_code;
  for (size_t i = 0; i < p.tasks.size(); ++i) by_code.emplace(p.tasks[i].codeptr, i);
  for (size_t k = 0; k < list.size() && !in.failed(); ++k) {
    std::string where = elem(pkey::kParams, k);
    const json& e = in.object(list[k], where);
    if (in.failed()) return;
    uint64_t code = in.address(e, "code", where);
    std::string name = x.string(in.count(e, "name", where));
    const json* v = in.member(e, "value", where);
    int64_t value = v ? in.integer(*v, at(where, "value")) : 0;
    uint64_t again = in.count(e, "again", where);
    Stat time = in.stat(e, "time", where);
    auto c = by_code.find(code);
    if (in.failed() || c == by_code.end()) continue;
    ParamSplit& split = split_named(p.tasks[c->second].params, name);
    split.set_again += again;
    split.value(value).time.merge(time);
  }
  for (TaskConstruct& t : p.tasks) sort_splits(t.params);
}

}  // namespace

std::string why_no_profile(const format::Metadata& m) {
  // The recorder writes profile.json at the program's normal end only: a signal handler may not
  // merge the threads' tables (malloc), so its marker is experiment.json's end_reason.
  if (m.end_reason.rfind("signal", 0) == 0) {
    return "the run ended by " + m.end_reason +
           " (experiment.json's end_reason); profile mode "
           "writes its profile at a normal end only";
  }
  if (m.status == "running") {
    return "the run never ended (status \"running\": killed by SIGKILL, or still running); "
           "profile mode writes its profile at a normal end only";
  }
  return "the profile-mode run did not write it (status \"" + m.status + "\")";
}

Result<ProfileModeData> read_profile_mode(const format::Experiment& x) {
  std::string path = x.dir + "/" + format::kProfileFile;
  std::ifstream in(path);
  if (!in) return Error{path + ": missing: " + why_no_profile(x.metadata)};
  auto parsed = format::parse_json(in);
  if (!parsed) return Error{path + ": corrupt (" + parsed.error().message + ")"};
  const json& j = *parsed;
  if (!j.is_object()) return Error{path + ": corrupt (not a JSON object)"};
  Checked check(path, x.clock);
  uint64_t version = check.count(j, pkey::kVersion, "");
  if (!check.failed() && version != kProfileVersion) {
    check.fail(pkey::kVersion, std::to_string(version) +
                                   ", a version this tasklens does not read (" +
                                   std::to_string(kProfileVersion) + ")");
  }
  ProfileModeData d;
  const json& threads = check.array(j, pkey::kThreads, "");
  const json& nodes = check.array(j, pkey::kNodes, "");
  const json& constructs = check.array(j, pkey::kConstructs, "");
  const json& counters = check.array(j, pkey::kCounters, "");
  bool overflow = check.flag(j, pkey::kOverflow, "");
  if (check.failed()) return check.error();
  read_threads(threads, check, d);
  Profile& p = d.profile;
  Breakdown& b = d.breakdown;
  std::sort(b.threads.begin(), b.threads.end(),
            [](const ThreadBreakdown& a, const ThreadBreakdown& c) { return a.thread < c.thread; });
  if (x.clock.exit_ns) d.run_ns = std::max(d.run_ns, x.clock.exit_ns);
  b.run_ns = d.run_ns;
  b.recorder_start_ns = x.clock.recorder_start_ns;
  set_verdict(b);
  for (size_t i = 0; i < counters.size() && !check.failed(); ++i) {
    d.counters.push_back(check.text(counters[i], elem(pkey::kCounters, i)));
  }
  p.counter_names = d.counters;
  read_nodes(nodes, x, check, p);
  read_constructs(constructs, d.counters, check, p);
  if (j.contains(pkey::kParams)) read_params(check.array(j, pkey::kParams, ""), x, check, p);
  if (check.failed()) return check.error();
  sort_profile(p);
  d.notes.push_back(
      "profile mode: the breakdown's overhead and idleness are approximate (whether a task was "
      "ready is sampled as each wait begins), with no per-region split, time series or "
      "creation estimate; preemption is not measured");
  if (overflow) {
    d.notes.push_back(
        "profile mode: the recorder ran out of memory for its tables; some call "
        "paths or constructs are missing");
  }
  return d;
}

}  // namespace tasklens::analysis
