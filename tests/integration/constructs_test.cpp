// One construct, one row, on a real program (construct_programs/copies.c): a loop of 8 tasks
// the compiler unrolls and a task in a function inlined at 3 places. With -g the report, the
// graph, the overheads and the exports show 2 task constructs, each listing its copies; without
// -g every copy is its own row named function+offset; stripped, the report says so once. The
// program rewrites its options in place like BOTS ("-r" becomes "-*"): the header shows them
// as given.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

using nlohmann::json;

std::string program(const std::string& name) {
  return std::string(TASKLENS_CONSTRUCT_PROGRAMS_DIR) + "/" + name;
}

struct Recorded {
  std::string dir;
  json report;  // --profile --graph --overheads
};

Recorded record(const std::string& name, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {program(name)};
  argv.insert(argv.end(), args.begin(), args.end());
  Recording rec = record_run(argv, 2);
  EXPECT_EQ(rec.run.status, 0) << rec.run.err;
  EXPECT_NE(rec.run.out.find(" OK"), std::string::npos) << rec.run.out;
  JsonReport rep = report_json(rec.dir, {"--profile", "--graph", "--overheads"});
  EXPECT_EQ(rep.command.status, 0) << rep.command.err;
  EXPECT_FALSE(rep.doc.is_discarded()) << rep.command.out.substr(0, 200);
  return {rec.dir, rep.doc};
}

// The task constructs of the overheads section, over all regions.
std::vector<json> overhead_tasks(const json& report) {
  std::vector<json> out;
  for (const json& r : report["overheads"]["regions"]) {
    for (const json& c : r["constructs"]) {
      if (c["kind"] == "task") out.push_back(c);
    }
  }
  return out;
}

TEST(Constructs, CopiesOfATaskConstructAreOneRowEverywhere) {
  Recorded run = record("copies", {"-r", "2", "-c", "-f", "-x"});
  const json& tasks = run.report["tasks"];

  // What the compiler made: one code address per copy (the report without symbols).
  JsonReport raw = report_json(run.dir, {"--profile", "--no-symbols"});
  ASSERT_EQ(raw.command.status, 0);
  size_t copies = raw.doc["tasks"].size();
  ASSERT_GT(copies, 2u) << "the compiler copied no task construct: nothing to check";

  // With symbols: the loop's construct (16 tasks) and the inlined one (6), each listing its
  // copies; together they hold every address.
  ASSERT_EQ(tasks.size(), 2u) << tasks.dump(1);
  std::set<std::string> all;
  uint64_t created = 0;
  for (const json& t : tasks) {
    created += t["created"].get<uint64_t>();
    ASSERT_TRUE(t.contains("codeptrs")) << t.dump();
    EXPECT_EQ(t["codeptrs"][0], t["codeptr"]);  // the first address met is also the lowest here
    for (const json& c : t["codeptrs"]) all.insert(c.get<std::string>());
    EXPECT_EQ(t["location"].get<std::string>().rfind("copies.c:", 0), 0u) << t["location"];
  }
  EXPECT_EQ(created, 22u);
  EXPECT_EQ(all.size(), copies);
  std::set<uint64_t> created_per_row;
  for (const json& t : tasks) created_per_row.insert(t["created"].get<uint64_t>());
  EXPECT_EQ(created_per_row, (std::set<uint64_t>{16, 6}));

  EXPECT_EQ(run.report["graph"]["grains"].size(), 2u);
  std::vector<json> constructs = overhead_tasks(run.report);
  ASSERT_EQ(constructs.size(), 2u);
  for (const json& c : constructs) EXPECT_TRUE(c.contains("codeptrs"));

  // The DOT export per construct: two task nodes.
  std::string dot = scratch_dir("dot") + "/copies.dot";
  CommandResult e = run_command(
      {tasklens_bin(), "export", run.dir, "--to", "dot", "--graph", "constructs", "-o", dot});
  ASSERT_EQ(e.status, 0) << e.err;
  std::string text = read_file(dot);
  size_t task_nodes = 0;
  for (size_t at = text.find("label=\"task copies.c:"); at != std::string::npos;
       at = text.find("label=\"task copies.c:", at + 1)) {
    ++task_nodes;
  }
  EXPECT_EQ(task_nodes, 2u) << text;

  // Paraver's construct values (the timeline exports share one region table): each of the two
  // names once per value table, not once per copy (8 and 3 copies would list them 8 and 3 times).
  std::string prv = scratch_dir("prv") + "/copies";
  e = run_command({tasklens_bin(), "export", run.dir, "--to", "paraver", "-o", prv});
  ASSERT_EQ(e.status, 0) << e.err;
  std::string pcf = read_file(prv + ".pcf");
  std::map<std::string, size_t> listed;  // "  task copies.c:NN" -> times listed
  for (size_t at = pcf.find("  task copies.c:"); at != std::string::npos;
       at = pcf.find("  task copies.c:", at + 1)) {
    ++listed[pcf.substr(at, pcf.find('\n', at) - at)];
  }
  ASSERT_EQ(listed.size(), 2u) << pcf;
  EXPECT_EQ(listed.begin()->second, listed.rbegin()->second) << pcf;

  // The command line as given, though main rewrote "-r", "-c", "-f" and "-x" to "-*".
  const json& args = run.report["run"]["args"];
  ASSERT_EQ(args.size(), 6u);
  EXPECT_EQ(args[1], "-r");
  EXPECT_EQ(args[3], "-c");
  EXPECT_EQ(args[4], "-f");
  EXPECT_EQ(args[5], "-x");
  CommandResult header = run_command({tasklens_bin(), "report", run.dir});
  EXPECT_NE(header.out.find("copies -r 2 -c -f -x "), std::string::npos) << header.out;
}

// Profile mode keys its tables by code address, so profile.json has a row per copy; the report
// folds them as the trace's task model does: the same two rows and two task trees.
TEST(Constructs, ProfileModeFoldsTheCopiesAsTheTraceDoes) {
  std::string dir = scratch_dir("copies-profile") + "/exp";
  CommandResult run =
      run_command({tasklens_bin(), "run", "-q", "-n", "2", "--mode", "profile", "-o", dir, "--",
                   program("copies"), "-r", "2", "-c", "-f", "-x"});
  ASSERT_EQ(run.status, 0) << run.err;
  JsonReport raw = report_json(dir, {"--profile", "--no-symbols"});
  ASSERT_EQ(raw.command.status, 0) << raw.command.err;
  ASSERT_GT(raw.doc["tasks"].size(), 2u) << "the compiler copied no task construct";
  JsonReport rep = report_json(dir, {"--profile"});
  ASSERT_EQ(rep.command.status, 0) << rep.command.err;
  const json& tasks = rep.doc["tasks"];
  ASSERT_EQ(tasks.size(), 2u) << tasks.dump(1);
  std::set<uint64_t> created_per_row;
  size_t addresses = 0;
  for (const json& t : tasks) {
    created_per_row.insert(t["created"].get<uint64_t>());
    EXPECT_EQ(t["instances"], t["created"]);
    ASSERT_TRUE(t.contains("codeptrs")) << t.dump();
    addresses += t["codeptrs"].size();
  }
  EXPECT_EQ(created_per_row, (std::set<uint64_t>{16, 6}));
  EXPECT_EQ(addresses, raw.doc["tasks"].size());
  EXPECT_EQ(rep.doc["profile"]["task_trees"].size(), 2u);
}

TEST(Constructs, WithoutDebugInfoEachCopyIsNamedByFunctionAndOffset) {
  Recorded run = record("copies_nog", {});
  const json& tasks = run.report["tasks"];
  ASSERT_GT(tasks.size(), 2u);
  for (const json& t : tasks) {
    std::string where = t["location"];
    EXPECT_NE(where.find("+0x"), std::string::npos) << where;
    EXPECT_EQ(where.find(":0"), std::string::npos) << where;
    EXPECT_EQ(t["codeptrs"].size(), 1u);
  }
  for (const json& w : run.report["run"]["warnings"]) {
    EXPECT_EQ(w.get<std::string>().find("no symbols"), std::string::npos) << w;
  }
}

TEST(Constructs, AStrippedProgramIsNamedOnce) {
  Recorded run = record("copies_strip", {});
  size_t notes = 0;
  for (const json& w : run.report["run"]["warnings"]) {
    notes += w.get<std::string>().find("copies_strip has no symbols") != std::string::npos;
  }
  EXPECT_EQ(notes, 1u) << run.report["run"]["warnings"].dump();
  for (const json& t : run.report["tasks"]) {
    EXPECT_EQ(t["location"].get<std::string>().rfind("copies_strip+0x", 0), 0u) << t["location"];
  }
  CommandResult text = run_command({tasklens_bin(), "report", run.dir});
  size_t first = text.out.find("has no symbols");
  ASSERT_NE(first, std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("has no symbols", first + 1), std::string::npos);
}

}  // namespace
}  // namespace tasklens::testing
