// record_and_report and the profile invariants, shared by the profile integration tests.
#include "integration/profile_run.h"

#include <gtest/gtest.h>

#include "support/recording.h"

namespace tasklens::testing {

using nlohmann::json;

ProfileRun record_and_report(const std::vector<std::string>& argv, int threads) {
  ProfileRun r;
  Recording rec = record_run(argv, threads);
  r.program_out = rec.run.out;
  if (rec.run.status != 0) {
    r.error = "tasklens run exited " + std::to_string(rec.run.status) + ": " + rec.run.err;
    return r;
  }
  JsonReport rep = report_json(rec.dir, {"--profile"});
  if (rep.command.status != 0) {
    r.error =
        "tasklens report exited " + std::to_string(rep.command.status) + ": " + rep.command.err;
    return r;
  }
  r.report = rep.doc;
  if (r.report.is_discarded() || !r.report.contains("profile") || !r.report.contains("tasks")) {
    r.error = "the report is not JSON with profile and tasks: " + rep.command.out.substr(0, 200);
    return r;
  }
  r.ok = true;
  return r;
}

std::string profile_program(const std::string& name) {
  return std::string(TASKLENS_PROFILE_PROGRAMS_DIR) + "/" + name;
}

namespace {

void collect(const json& node, const std::string& kind, std::vector<const json*>& out) {
  if (node["kind"] == kind) out.push_back(&node);
  for (const json& c : node["children"]) collect(c, kind, out);
}

uint64_t u64(const json& j) { return j.get<uint64_t>(); }

void expect_node_sane(const json& node) {
  const json& m = node["metrics"];
  EXPECT_LE(u64(m["exclusive_ns"]["sum"]), u64(m["inclusive_ns"]["sum"])) << node["label"];
  EXPECT_LE(u64(m["inclusive_ns"]["min"]), u64(m["inclusive_ns"]["max"])) << node["label"];
  uint64_t visits = 0, incl = 0;
  for (const json& t : node["threads"]) {
    visits += u64(t["visits"]);
    incl += u64(t["inclusive_ns"]["sum"]);
  }
  EXPECT_EQ(visits, u64(m["visits"])) << node["label"];
  EXPECT_EQ(incl, u64(m["inclusive_ns"]["sum"])) << node["label"];
  for (const json& c : node["children"]) expect_node_sane(c);
}

}  // namespace

std::vector<const json*> find_nodes(const json& trees, const std::string& kind) {
  std::vector<const json*> out;
  for (const json& t : trees) collect(t, kind, out);
  return out;
}

std::map<int64_t, uint64_t> parameter_split(const json& tasks, const std::string& name) {
  std::map<int64_t, uint64_t> out;
  for (const json& task : tasks) {
    for (const json& p : task["parameters"]) {
      if (p["name"] != name) continue;
      for (const json& v : p["values"]) out[v["value"].get<int64_t>()] += u64(v["instances"]);
    }
  }
  return out;
}

uint64_t visits_named(const json& trees, const std::string& kind, const std::string& name) {
  uint64_t v = 0;
  for (const json* n : find_nodes(trees, kind)) {
    if ((*n)["name"] == name) v += u64((*n)["metrics"]["visits"]);
  }
  return v;
}

void expect_profile_consistent(const json& report) {
  const json& profile = report["profile"];
  uint64_t task_time = 0;
  for (const json& task : report["tasks"]) {
    uint64_t time = u64(task["time_ns"]["sum"]);
    task_time += time;
    const json* tree = nullptr;
    for (const json& t : profile["task_trees"]) {
      if (t["codeptr"] == task["codeptr"]) tree = &t;
    }
    ASSERT_NE(tree, nullptr) << task["location"];
    // The sum over a construct's instances is its tree's inclusive time.
    EXPECT_EQ(u64((*tree)["metrics"]["inclusive_ns"]["sum"]), time) << task["location"];
    EXPECT_EQ(u64((*tree)["metrics"]["visits"]), u64(task["instances"])) << task["location"];
    for (const json& p : task["parameters"]) {
      uint64_t instances = 0, sum = 0;
      for (const json& v : p["values"]) {
        instances += u64(v["instances"]);
        sum += u64(v["time_ns"]["sum"]);
      }
      EXPECT_LE(instances, u64(task["instances"]));
      if (instances == u64(task["instances"])) EXPECT_EQ(sum, time) << p["name"];
    }
  }
  // Every task ran inside some implicit task: the stubs hold exactly the tasks' time.
  uint64_t stubs = 0;
  for (const json* s : find_nodes(profile["trees"], "stub")) {
    stubs += u64((*s)["metrics"]["inclusive_ns"]["sum"]);
  }
  EXPECT_EQ(stubs, task_time);
  for (const json& t : profile["trees"]) expect_node_sane(t);
  for (const json& t : profile["task_trees"]) expect_node_sane(t);
}

}  // namespace tasklens::testing
