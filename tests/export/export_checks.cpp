// The independent readers of the exports (Paraver syntax, Perfetto JSON, otf2-print; the
// Perfetto protobuf reader is perfetto_proto_check.cpp).
#include "export/export_checks.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "support/test_paths.h"

namespace tasklens::testing {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t i = 0;
  while (true) {
    size_t j = s.find(sep, i);
    out.push_back(s.substr(i, j == std::string::npos ? std::string::npos : j - i));
    if (j == std::string::npos) return out;
    i = j + 1;
  }
}

bool to_u64(const std::string& s, uint64_t* v) {
  if (s.empty() || s.size() > 20) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  *v = std::stoull(s);
  return true;
}

bool to_i64(const std::string& s, int64_t* v) {
  if (s.empty()) return false;
  uint64_t u;
  if (s[0] == '-') {
    if (!to_u64(s.substr(1), &u)) return false;
    *v = -int64_t(u);
    return true;
  }
  if (!to_u64(s, &u)) return false;
  *v = int64_t(u);
  return true;
}

std::vector<std::string> read_lines(const std::string& path, bool* ok) {
  std::ifstream in(path);
  *ok = bool(in);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// The .pcf: STATES and EVENT_TYPE blocks (with their VALUES).
struct Pcf {
  std::set<int64_t> states;
  std::map<uint64_t, std::set<int64_t>> values;  // event type -> named values
  std::set<uint64_t> numeric;  // types without a VALUES block: any value (e.g. counters)
};

void parse_pcf(const std::vector<std::string>& lines, Pcf* pcf, std::vector<std::string>* bad) {
  enum { kNone, kStates, kColors, kTypes, kValues } section = kNone;
  std::vector<uint64_t> current;  // the types the next VALUES block names
  for (const std::string& raw : lines) {
    std::string line = raw;
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    if (line.empty()) {
      if (section != kTypes) section = kNone;
      continue;
    }
    if (line == "STATES") {
      section = kStates;
      continue;
    }
    if (line == "STATES_COLOR") {
      section = kColors;
      continue;
    }
    if (line == "EVENT_TYPE") {
      section = kTypes;
      current.clear();
      continue;
    }
    if (line == "VALUES") {
      section = kValues;
      for (uint64_t t : current) pcf->numeric.erase(t);
      continue;
    }
    std::istringstream in(line);
    if (section == kStates) {
      int64_t v;
      std::string name;
      if (!(in >> v) || !(in >> name))
        bad->push_back(".pcf: bad state line: " + line);
      else
        pcf->states.insert(v);
    } else if (section == kTypes) {
      uint64_t gradient, type;
      std::string name;
      if (!(in >> gradient >> type) || !(in >> name)) {
        bad->push_back(".pcf: bad EVENT_TYPE line: " + line);
      } else {
        current.push_back(type);
        pcf->values[type];
        pcf->numeric.insert(type);
      }
    } else if (section == kValues) {
      int64_t v;
      std::string name;
      if (!(in >> v) || !(in >> name)) {
        bad->push_back(".pcf: bad value line: " + line);
      } else {
        for (uint64_t t : current) pcf->values[t].insert(v);
      }
    }
  }
}

struct Object {
  uint64_t cpu, appl, task, thread;
};

}  // namespace

std::vector<std::string> check_paraver(const std::string& base, ParaverFacts* facts) {
  std::vector<std::string> bad;
  ParaverFacts local;
  ParaverFacts& f = facts ? *facts : local;
  bool ok;
  std::vector<std::string> prv = read_lines(base + ".prv", &ok);
  if (!ok || prv.empty()) return {base + ".prv: missing or empty"};
  std::vector<std::string> pcf_lines = read_lines(base + ".pcf", &ok);
  if (!ok) return {base + ".pcf: missing"};
  std::vector<std::string> row = read_lines(base + ".row", &ok);
  if (!ok) return {base + ".row: missing"};

  // Header: #Paraver (dd/mm/yy at hh:mm):ftime_ns:nNodes(cpus,...):nAppl:appl(...)[:appl(...)]
  static const std::regex header(
      R"(#Paraver \((\d\d/\d\d/\d\d at \d\d:\d\d)\):(\d+)_ns:(\d+)\(([\d,]+)\):(\d+):(.*))");
  std::smatch m;
  if (!std::regex_match(prv[0], m, header)) return {"bad .prv header: " + prv[0]};
  f.end_ns = std::stoull(m[2]);
  uint64_t nodes = std::stoull(m[3]);
  std::vector<std::string> cpus = split(m[4], ',');
  if (cpus.size() != nodes) bad.push_back("header: CPU list does not match the node count");
  for (const auto& c : cpus) f.cpus += uint32_t(std::stoul(c));
  uint64_t nappl = std::stoull(m[5]);
  // Applications: "ntasks(nthreads:node[,nthreads:node...])" separated by ':'.
  static const std::regex appl(R"((\d+)\(([\d:,]+)\))");
  std::string apps = m[6];
  std::vector<std::vector<uint64_t>> threads;  // [appl][task] -> threads
  for (auto it = std::sregex_iterator(apps.begin(), apps.end(), appl); it != std::sregex_iterator();
       ++it) {
    std::vector<uint64_t> tasks;
    for (const auto& t : split((*it)[2], ',')) {
      auto parts = split(t, ':');
      uint64_t n, node;
      if (parts.size() != 2 || !to_u64(parts[0], &n) || !to_u64(parts[1], &node) || node == 0 ||
          node > nodes) {
        bad.push_back("header: bad task description " + t);
        continue;
      }
      tasks.push_back(n);
    }
    if (tasks.size() != std::stoull((*it)[1])) bad.push_back("header: task count mismatch");
    threads.push_back(tasks);
    f.threads_per_appl.push_back(uint32_t(tasks.empty() ? 0 : tasks[0]));
  }
  if (threads.size() != nappl) bad.push_back("header: application count mismatch: " + apps);

  Pcf pcf;
  parse_pcf(pcf_lines, &pcf, &bad);
  if (pcf.states.empty()) bad.push_back(".pcf: no STATES");

  auto object = [&](const std::vector<std::string>& v, size_t at, Object* o) {
    if (!to_u64(v[at], &o->cpu) || !to_u64(v[at + 1], &o->appl) || !to_u64(v[at + 2], &o->task) ||
        !to_u64(v[at + 3], &o->thread)) {
      return false;
    }
    if (o->cpu > f.cpus || o->appl < 1 || o->appl > threads.size()) return false;
    const auto& tasks = threads[o->appl - 1];
    if (o->task < 1 || o->task > tasks.size()) return false;
    return o->thread >= 1 && o->thread <= tasks[o->task - 1];
  };

  uint64_t last = 0;
  std::set<std::array<uint64_t, 4>> event_objects;  // objects with an event line at objects_time
  uint64_t objects_time = 0;
  size_t reported = 0;
  auto fail = [&](size_t line, const std::string& why) {
    if (reported++ < 20)
      bad.push_back(fmt::format(".prv line {}: {}: {}", line + 1, why, prv[line]));
  };
  for (size_t i = 1; i < prv.size(); ++i) {
    const std::string& line = prv[i];
    if (line.empty()) {
      fail(i, "empty line");
      continue;
    }
    if (line[0] == '#' || line[0] == 'c') continue;  // comments, communicator lines
    f.lines.push_back(line);
    std::vector<std::string> v = split(line, ':');
    Object o, o2;
    uint64_t t0 = 0, t1 = 0;
    if (v[0] == "1") {
      int64_t state;
      if (v.size() != 8 || !object(v, 1, &o) || !to_u64(v[5], &t0) || !to_u64(v[6], &t1) ||
          !to_i64(v[7], &state)) {
        fail(i, "malformed state record");
        continue;
      }
      if (t1 < t0) fail(i, "state ends before it begins");
      if (!pcf.states.count(state)) fail(i, "state value not named in the .pcf");
      ++f.states;
      f.state_time[uint64_t(state)] += t1 - t0;
    } else if (v[0] == "2") {
      if (v.size() < 8 || v.size() % 2 != 0 || !object(v, 1, &o) || !to_u64(v[5], &t0)) {
        fail(i, "malformed event record");
        continue;
      }
      t1 = t0;
      if (t0 != objects_time) event_objects.clear();
      objects_time = t0;
      if (!event_objects.insert({o.cpu, o.appl, o.task, o.thread}).second) ++f.split_event_lines;
      for (size_t k = 6; k + 1 < v.size(); k += 2) {
        uint64_t type;
        int64_t value;
        if (!to_u64(v[k], &type) || !to_i64(v[k + 1], &value)) {
          fail(i, "malformed type:value");
          break;
        }
        auto named = pcf.values.find(type);
        if (named == pcf.values.end())
          fail(i, fmt::format("event type {} not in the .pcf", type));
        else if (!pcf.numeric.count(type) && !named->second.count(value)) {
          fail(i, fmt::format("value {} of type {} not named in the .pcf", value, type));
        }
        ++f.events;
        ++f.event_types[type];
      }
    } else if (v[0] == "3") {
      uint64_t ps, pr, size, tag;
      if (v.size() != 15 || !object(v, 1, &o) || !to_u64(v[5], &t0) || !to_u64(v[6], &ps) ||
          !object(v, 7, &o2) || !to_u64(v[11], &t1) || !to_u64(v[12], &pr) ||
          !to_u64(v[13], &size) || !to_u64(v[14], &tag)) {
        fail(i, "malformed communication record");
        continue;
      }
      if (ps < t0 || pr < t1) fail(i, "physical time before logical time");
      if (t1 < t0) fail(i, "received before sent");
      ++f.comms;
      ++f.comm_tags[tag];
    } else {
      fail(i, "unknown record type");
      continue;
    }
    if (t0 < last) fail(i, "not sorted by time");
    last = std::max(last, t0);
    if (t1 > f.end_ns) fail(i, "after the trace's end time");
  }

  // .row: LEVEL <name> SIZE <n> followed by n names.
  std::map<std::string, uint64_t> levels;
  for (size_t i = 0; i < row.size(); ++i) {
    static const std::regex level(R"(LEVEL (\w+) SIZE (\d+))");
    std::smatch lm;
    if (!std::regex_match(row[i], lm, level)) continue;
    uint64_t n = std::stoull(lm[2]);
    levels[lm[1]] = n;
    for (uint64_t k = 1; k <= n; ++k) {
      if (i + k >= row.size() || row[i + k].empty() || row[i + k].rfind("LEVEL", 0) == 0) {
        bad.push_back(fmt::format(".row: level {} names fewer than {} objects", lm[1].str(), n));
        break;
      }
    }
  }
  uint64_t all_threads = 0;
  for (const auto& tasks : threads) {
    for (uint64_t n : tasks) all_threads += n;
  }
  if (levels["THREAD"] != all_threads) {
    bad.push_back(
        fmt::format(".row: {} thread names for {} threads", levels["THREAD"], all_threads));
  }
  if (levels["CPU"] != f.cpus) bad.push_back(".row: CPU level does not match the header");
  return bad;
}

std::vector<std::string> check_perfetto(const std::string& path, PerfettoFacts* facts) {
  PerfettoFacts local;
  PerfettoFacts& f = facts ? *facts : local;
  std::ifstream in(path);
  if (!in) return {path + ": missing"};
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded()) return {path + ": not valid JSON"};
  if (!doc.contains("traceEvents") || !doc["traceEvents"].is_array()) {
    return {path + ": no traceEvents array"};
  }
  std::vector<std::string> bad;
  struct Open {
    std::string name;
    double ts;
    std::string args;
  };
  std::map<int64_t, std::string> process_names;
  std::map<std::pair<int64_t, int64_t>, std::string> thread_names;
  auto track_name = [&](std::pair<int64_t, int64_t> t) {
    return process_names[t.first] + " / " + thread_names[t];
  };
  auto ns = [](double us) { return uint64_t(std::llround(us * 1000)); };
  std::map<std::pair<std::string, uint64_t>, PerfettoFlow> flow_ends;
  std::map<std::pair<int64_t, int64_t>, std::vector<Open>> stacks;
  std::map<std::pair<int64_t, int64_t>, double> last_ts;
  std::map<std::pair<std::string, uint64_t>, std::pair<int, int>> flows;  // (cat,id) -> (s, f)
  std::map<std::pair<std::string, uint64_t>, double> flow_start;
  for (const auto& e : doc["traceEvents"]) {
    ++f.events;
    if (bad.size() > 20) break;
    if (!e.contains("ph") || !e["ph"].is_string() || !e.contains("pid")) {
      bad.push_back("event without ph/pid: " + e.dump());
      continue;
    }
    std::string ph = e["ph"];
    if (ph == "M") {
      std::string what = e.value("name", std::string());
      if (what == "process_name") process_names[e["pid"]] = e["args"]["name"];
      if (what == "thread_name") {
        thread_names[{e["pid"].get<int64_t>(), e.value("tid", int64_t(0))}] = e["args"]["name"];
      }
      continue;
    }
    if (!e.contains("ts") || !e["ts"].is_number()) {
      bad.push_back("event without ts: " + e.dump());
      continue;
    }
    double ts = e["ts"];
    auto track = std::make_pair(e["pid"].get<int64_t>(), e.value("tid", int64_t(0)));
    if (ph == "B" || ph == "E") {
      if (last_ts.count(track) && ts < last_ts[track]) {
        bad.push_back("B/E time goes back on its track: " + e.dump());
      }
      last_ts[track] = ts;
      auto& s = stacks[track];
      if (ph == "B") {
        if (!e.contains("name")) bad.push_back("B without name: " + e.dump());
        std::string args;
        if (e.contains("args") && e["args"].contains("task")) {
          args = "task=" + e["args"]["task"].get<std::string>() +
                 " parent=" + e["args"]["parent"].get<std::string>();
        }
        s.push_back(Open{e.value("name", std::string()), ts, args});
        f.tracks.insert(track);
      } else if (s.empty()) {
        bad.push_back("E without B: " + e.dump());
      } else {
        ++f.slices;
        ++f.slice_names[s.back().name];
        f.slice_list.push_back(PerfettoSlice{track_name(track), s.back().name, ns(s.back().ts),
                                             ns(ts), s.back().args});
        s.pop_back();
      }
    } else if (ph == "s" || ph == "f") {
      if (!e.contains("id") || !e.contains("cat")) {
        bad.push_back("flow without id/cat: " + e.dump());
        continue;
      }
      auto key = std::make_pair(e["cat"].get<std::string>(), e["id"].get<uint64_t>());
      auto& p = flows[key];
      PerfettoFlow& fl = flow_ends[key];
      fl.kind = key.first;
      if (ph == "s") {
        ++p.first;
        flow_start[key] = ts;
        fl.from_track = track_name(track);
        fl.from_ns = ns(ts);
      } else {
        fl.to_track = track_name(track);
        fl.to_ns = ns(ts);
        ++p.second;
        if (flow_start.count(key) && ts < flow_start[key]) {
          bad.push_back("flow ends before it starts: " + e.dump());
        }
      }
    } else if (ph == "C") {
      ++f.counters;
      if (!e.contains("args") || !e["args"].is_object()) bad.push_back("counter without args");
    } else if (ph != "i" && ph != "X") {
      bad.push_back("unexpected phase " + ph);
    }
  }
  for (const auto& [track, s] : stacks) {
    if (!s.empty()) {
      bad.push_back(fmt::format("{} slices never closed on track {}/{} (innermost: {})", s.size(),
                                track.first, track.second, s.back().name));
    }
  }
  for (const auto& [key, p] : flows) {
    // A creation arrow starts at the creation: a task that did not start in the window has none
    // of its end.
    if (key.first == "create" && p.first == 1 && p.second == 0) {
      ++f.unended_creations;
      continue;
    }
    if (p.first != 1 || p.second != 1) {
      bad.push_back(
          fmt::format("flow {}/{}: {} starts, {} ends", key.first, key.second, p.first, p.second));
    } else {
      ++f.flows[key.first];
      f.flow_list.push_back(flow_ends[key]);
    }
  }
  std::sort(f.slice_list.begin(), f.slice_list.end());
  std::sort(f.flow_list.begin(), f.flow_list.end());
  f.bytes = std::filesystem::file_size(path);
  return bad;
}

std::string otf2_print_bin() {
  return TASKLENS_OTF2_PRINT;
}
std::string dot_bin() {
  return TASKLENS_DOT;
}
std::string protoc_bin() {
  return TASKLENS_PROTOC;
}

Otf2Print read_otf2(const std::string& anchor) {
  Otf2Print p;
  CommandResult r = run_command({otf2_print_bin(), anchor});
  p.status = r.status;
  p.err = r.err;
  static const std::regex region(R"re(Region: "(.*)" <\d+>)re");
  static const std::regex task(R"(Creating Thread: (\d+) .*Generation Number: (\d+))");
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    Otf2Record rec;
    std::string loc, time;
    if (!(fields >> rec.kind >> loc >> time)) continue;
    uint64_t l, t;
    if (!to_u64(loc, &l) || !to_u64(time, &t)) continue;
    rec.location = uint32_t(l);
    rec.time = t;
    std::smatch m;
    if (std::regex_search(line, m, region)) rec.region = m[1];
    if (rec.kind.rfind("THREAD_TASK", 0) == 0 && std::regex_search(line, m, task)) {
      rec.task = fmt::format("T{}#{}", m[1].str(), m[2].str());
    }
    ++p.counts[rec.kind];
    p.records.push_back(rec);
  }
  return p;
}

std::vector<std::string> check_otf2_nesting(const Otf2Print& p) {
  std::vector<std::string> bad;
  std::map<uint32_t, std::vector<std::string>> stacks;
  std::map<uint32_t, uint64_t> last;
  for (const Otf2Record& r : p.records) {
    if (bad.size() > 20) break;
    if (last.count(r.location) && r.time < last[r.location]) {
      bad.push_back(fmt::format("time goes back on location {} at {}", r.location, r.time));
    }
    last[r.location] = r.time;
    auto& s = stacks[r.location];
    if (r.kind == "ENTER") {
      s.push_back(r.region);
    } else if (r.kind == "LEAVE") {
      if (s.empty() || s.back() != r.region) {
        bad.push_back(fmt::format("location {} at {}: leaves {} while {} is innermost", r.location,
                                  r.time, r.region, s.empty() ? "nothing" : s.back()));
      } else {
        s.pop_back();
      }
    }
  }
  for (const auto& [loc, s] : stacks) {
    if (!s.empty()) bad.push_back(fmt::format("location {}: {} regions never left", loc, s.size()));
  }
  return bad;
}

std::vector<std::string> otf2_lines(const Otf2Print& p) {
  std::vector<std::string> out;
  for (const Otf2Record& r : p.records) {
    if (r.kind == "METRIC") continue;
    std::string s = fmt::format("{} {} {}", r.kind, r.location, r.time);
    if (!r.region.empty()) s += " " + r.region;
    if (!r.task.empty()) s += " " + r.task;
    out.push_back(s);
  }
  return out;
}

ParaverFacts expect_valid_paraver(const std::string& base) {
  ParaverFacts f;
  std::vector<std::string> bad = check_paraver(base, &f);
  EXPECT_TRUE(bad.empty()) << fmt::format("{}", fmt::join(bad, "\n"));
  return f;
}

PerfettoFacts expect_valid_perfetto(const std::string& path) {
  PerfettoFacts f;
  std::vector<std::string> bad = check_perfetto(path, &f);
  EXPECT_TRUE(bad.empty()) << fmt::format("{}", fmt::join(bad, "\n"));
  return f;
}

PerfettoFacts expect_valid_perfetto_proto(const std::string& path) {
  PerfettoFacts f;
  std::vector<std::string> bad = check_perfetto_proto(path, &f);
  EXPECT_TRUE(bad.empty()) << fmt::format("{}", fmt::join(bad, "\n"));
  return f;
}

Otf2Print expect_valid_otf2(const std::string& anchor) {
  Otf2Print p = read_otf2(anchor);
  EXPECT_EQ(p.status, 0) << p.err;
  std::vector<std::string> bad = check_otf2_nesting(p);
  EXPECT_TRUE(bad.empty()) << fmt::format("{}", fmt::join(bad, "\n"));
  return p;
}

std::map<std::string, uint64_t> dumped_counts(const std::string& dir) {
  CommandResult r = run_command({tasklens_bin(), "dump", "--json", "--no-symbols", dir});
  std::map<std::string, uint64_t> counts;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) continue;
    std::string kind = j.value("kind", std::string());
    ++counts[kind];
    for (const char* field : {"status", "endpoint"}) {
      if (j.contains(field)) ++counts[kind + ":" + j[field].get<std::string>()];
    }
    if (j.contains("sync_kind") && j.contains("endpoint")) {
      ++counts[kind + ":" + j["endpoint"].get<std::string>() + ":" +
               j["sync_kind"].get<std::string>()];
    }
    if (kind == "implicit_task" && j.value("endpoint", "") == "begin") {
      ++counts["implicit_task:begin:" + j.value("flag_names", std::string())];
    }
  }
  return counts;
}

}  // namespace tasklens::testing
