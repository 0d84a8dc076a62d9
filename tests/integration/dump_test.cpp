// `tasklens dump --json` on a real recording: one JSON object per line, in time order, with the
// fields of docs/FORMAT.md, and the same events the reader sees.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "integration/trace_facts.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

bool is_hex(const nlohmann::json& v) {
  return v.is_string() && v.get<std::string>().rfind("0x", 0) == 0;
}

TEST(DumpJson, LinesCarryTheDocumentedFields) {
  Recording rec = record_run({example("dep_chain"), "20", "10"}, 2);
  const std::string& dir = rec.dir;
  ASSERT_EQ(rec.run.status, 0) << rec.run.err;
  TraceFacts facts = read_trace(dir);
  ASSERT_TRUE(facts.error.empty()) << facts.error;

  CommandResult dump = run_command({tasklens_bin(), "dump", "--json", dir});
  ASSERT_EQ(dump.status, 0) << dump.err;
  EXPECT_EQ(dump.err, "");
  std::istringstream lines(dump.out);
  std::string line;
  uint64_t last_t = 0, n = 0, creates = 0, dependences = 0, dep_items = 0, edges = 0;
  std::set<uint64_t> created;
  std::set<std::string> kinds;
  while (std::getline(lines, line)) {
    SCOPED_TRACE(line);
    auto j = nlohmann::json::parse(line, nullptr, false);
    ASSERT_TRUE(j.is_object());
    ++n;
    ASSERT_TRUE(j["t"].is_number_unsigned());
    ASSERT_TRUE(j["thread"].is_number_unsigned());
    ASSERT_TRUE(j["kind"].is_string());
    EXPECT_GE(j["t"].get<uint64_t>(), last_t);
    last_t = j["t"].get<uint64_t>();
    EXPECT_LT(j["thread"].get<uint32_t>(), 2u);  // two OpenMP threads
    std::string kind = j["kind"];
    kinds.insert(kind);
    if (kind == "task_create") {
      ++creates;
      ASSERT_TRUE(j["task"].is_number_unsigned());
      ASSERT_TRUE(j["parent"].is_number_unsigned());
      EXPECT_TRUE(is_hex(j["codeptr"]));
      EXPECT_EQ(j["has_deps"], 1);
      EXPECT_EQ(j["flag_names"], "explicit");
      EXPECT_TRUE(created.insert(j["task"].get<uint64_t>()).second);
      // Symbolized from the example's debug info.
      EXPECT_EQ(j.value("source", std::string()).rfind("dep_chain.c:", 0), 0u);
    } else if (kind == "dependences") {
      ++dependences;
      ASSERT_TRUE(j["task"].is_number_unsigned());
      EXPECT_EQ(created.count(j["task"].get<uint64_t>()), 1u);  // after its creation
      ASSERT_TRUE(j["deps"].is_array());
      for (const auto& d : j["deps"]) {
        ++dep_items;
        EXPECT_TRUE(is_hex(d["address"]));
        EXPECT_EQ(d["type"], "inout");  // depend(inout: x)
      }
    } else if (kind == "task_dependence") {
      ++edges;
      EXPECT_TRUE(j["dep_task"].is_number_unsigned());
      EXPECT_TRUE(j["task"].is_number_unsigned());
    } else if (kind == "parallel_begin") {
      EXPECT_TRUE(j["region"].is_number_unsigned());
      EXPECT_TRUE(j["task"].is_number_unsigned());
      EXPECT_TRUE(is_hex(j["codeptr"]));
      EXPECT_EQ(j["requested"], 2);
    } else if (kind == "task_schedule") {
      EXPECT_TRUE(j["prior"].is_number_unsigned());
      EXPECT_TRUE(j["next"].is_number_unsigned());
      EXPECT_TRUE(j["status"].is_string());
    } else if (kind == "implicit_task" || kind == "sync_region" || kind == "work") {
      EXPECT_TRUE(j["endpoint"].is_string());
      EXPECT_TRUE(j["region"].is_number_unsigned());
    }
  }
  EXPECT_EQ(creates, 20u);
  EXPECT_EQ(dependences, 20u);  // one "dependences" line per task...
  EXPECT_EQ(dep_items, facts.dependence_records);  // ...listing every dependence record
  EXPECT_EQ(edges, facts.count(format::Kind::kTaskDependence));
  // Every event but the per-item dependence records is one line.
  EXPECT_EQ(n, facts.events - facts.dependence_records + dependences);
  for (const char* k : {"thread_begin", "implicit_task", "parallel_begin", "work", "task_create",
                        "dependences", "task_schedule", "sync_region", "sync_region_wait",
                        "parallel_end", "thread_end"}) {
    EXPECT_EQ(kinds.count(k), 1u) << k;
  }
}

}  // namespace
}  // namespace tasklens::testing
