// Golden tests of the DOT export on the hand-made traces, each graph laid out by Graphviz: one
// node per task, one per construct above the thresholds of `--graph auto`, `taskwait depend`.
#include <gtest/gtest.h>

#include <string>

#include "analysis/two_thread_team.h"
#include "export/export.h"
#include "export/export_checks.h"
#include "export/export_to.h"
#include "export/golden_traces.h"
#include "support/recording.h"
#include "support/test_paths.h"

namespace tasklens::testing {
namespace {

TEST(DotGolden, TaskGraphWithCreationDependenceAndTaskwaitJoin) {
  TraceBuilder t;
  std::string dir = taskwait_with_child_trace(t);
  export_to(dir, *exports::find_export_format("dot"), dir + "/g.dot");
  std::string dot = read_file(dir + "/g.dot");
  EXPECT_NE(dot.find("digraph tasks"), std::string::npos);
  // implicit task -> A (creation), A -> C (creation), C -> taskwait (join), A -> taskwait.
  EXPECT_NE(dot.find("T0#2\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("task 0x2100\\nT0#4\\n10 ns"), std::string::npos) << dot;
  EXPECT_EQ(run_command({dot_bin(), "-Tsvg", "-o", dir + "/g.svg", dir + "/g.dot"}).status, 0);
  size_t joins = 0, creations = 0;
  for (size_t at = 0; (at = dot.find("style=dashed", at)) != std::string::npos; ++at) ++joins;
  for (size_t at = 0; (at = dot.find("color=\"gray40\"", at)) != std::string::npos; ++at)
    ++creations;
  EXPECT_EQ(joins, 1u);
  EXPECT_EQ(creations, 2u);
}

TEST(DotGolden, CollapsesPerConstructAboveTheThreshold) {
  TraceBuilder t;
  std::string dir = taskwait_with_child_trace(t);
  exports::ExportOptions o;
  o.max_graph_tasks = 1;
  auto s = export_to(dir, *exports::find_export_format("dot"), dir + "/c.dot", o);
  std::string dot = read_file(dir + "/c.dot");
  EXPECT_NE(dot.find("digraph task_constructs"), std::string::npos) << dot;
  EXPECT_NE(dot.find("task 0x2000\\n1 task\\n"), std::string::npos) << dot;
  EXPECT_NE(dot.find("1 joined"), std::string::npos) << dot;
  EXPECT_NE(dot.find("label=\"1 taskwait\""), std::string::npos) << dot;  // singular at 1
  EXPECT_EQ(run_command({dot_bin(), "-Tsvg", "-o", dir + "/c.svg", dir + "/c.dot"}).status, 0);
  o.graph = exports::GraphDetail::kTasks;  // forced: every task despite the threshold
  export_to(dir, *exports::find_export_format("dot"), dir + "/d.dot", o);
  EXPECT_NE(read_file(dir + "/d.dot").find("digraph tasks"), std::string::npos);
}

// `taskwait depend(in: A)`: libomp's task for it is drawn as the creator's taskwait, joined by
// the task it names through its dependence edge, not as a second task.
TEST(DotGolden, TaskwaitDependIsATaskwaitNotATask) {
  TraceBuilder t;
  analysis::taskwait_depend_on_other_thread(t);
  std::string dir = t.write();
  export_to(dir, *exports::find_export_format("dot"), dir + "/g.dot");
  std::string dot = read_file(dir + "/g.dot");
  EXPECT_NE(dot.find("task graph (1 task;"), std::string::npos) << dot;
  EXPECT_NE(dot.find("shape=octagon"), std::string::npos) << dot;  // the taskwait
  EXPECT_EQ(dot.find("T0#11"), std::string::npos) << dot;          // no task node for it
  EXPECT_EQ(run_command({dot_bin(), "-Tsvg", "-o", dir + "/g.svg", dir + "/g.dot"}).status, 0);
  exports::ExportOptions o;
  o.graph = exports::GraphDetail::kConstructs;
  export_to(dir, *exports::find_export_format("dot"), dir + "/c.dot", o);
  dot = read_file(dir + "/c.dot");
  EXPECT_NE(dot.find("1 taskwait\""), std::string::npos) << dot;            // the node's count
  EXPECT_NE(dot.find("label=\"1 dependence\""), std::string::npos) << dot;  // task -> taskwait
  EXPECT_NE(dot.find("label=\"1 taskwait\""), std::string::npos) << dot;    // creator -> it
  EXPECT_NE(dot.find("(1 task;"), std::string::npos) << dot;
}

// The registry: every format is found by its name, its aliases and its extensions, and no two
// formats claim the same name or extension.
// Graphviz's layout time grows steeply with dependence edges across a wide graph (KaStORS
// sparselu's 1,000 tasks and 1,001 dependences did not lay out in 5 minutes): `--graph auto` draws
// constructs above --max-graph-dependences, whatever the task count.
TEST(DotGolden, CollapsesPerConstructAboveTheDependenceThreshold) {
  TraceBuilder t;
  std::string dir = dependence_trace(t);
  exports::ExportOptions o;
  export_to(dir, *exports::find_export_format("dot"), dir + "/t.dot", o);
  EXPECT_NE(read_file(dir + "/t.dot").find("digraph tasks"), std::string::npos);
  o.max_graph_dependences = 0;
  auto s = export_to(dir, *exports::find_export_format("dot"), dir + "/c.dot", o);
  std::string dot = read_file(dir + "/c.dot");
  EXPECT_NE(dot.find("digraph task_constructs"), std::string::npos) << dot;
  ASSERT_FALSE(s.notes.empty());
  EXPECT_NE(s.notes[0].find("and 1 dependence (more than 0, too many for Graphviz"),
            std::string::npos)
      << s.notes[0];
  EXPECT_EQ(run_command({dot_bin(), "-Tsvg", "-o", dir + "/c.svg", dir + "/c.dot"}).status, 0);
  o.graph = exports::GraphDetail::kTasks;  // forced: every task despite the threshold
  export_to(dir, *exports::find_export_format("dot"), dir + "/d.dot", o);
  EXPECT_NE(read_file(dir + "/d.dot").find("digraph tasks"), std::string::npos);
}

}  // namespace
}  // namespace tasklens::testing
