// Shared by the profile's integration tests: record a program with `tasklens run`, read it back
// with `tasklens report --profile --json`, and check the invariants every profile must keep.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tasklens::testing {

struct ProfileRun {
  bool ok = false;
  std::string error;        // what failed, when !ok
  std::string program_out;  // the program's stdout
  nlohmann::json report;    // the report's JSON document
};

// Runs `argv` under `tasklens run -n threads`, then `tasklens report --profile --json`.
ProfileRun record_and_report(const std::vector<std::string>& argv, int threads);

// build/tests/integration/profile_programs/<name>
std::string profile_program(const std::string& name);

// Every node of `trees` (a JSON array of trees) whose "kind" is `kind`.
std::vector<const nlohmann::json*> find_nodes(const nlohmann::json& trees, const std::string& kind);

// Instances per value of parameter `name`, summed over the task constructs of `tasks` (the
// report's "tasks" array).
std::map<int64_t, uint64_t> parameter_split(const nlohmann::json& tasks, const std::string& name);

// Visits of the nodes of `kind` whose "name" is `name`, over `trees`.
uint64_t visits_named(const nlohmann::json& trees, const std::string& kind, const std::string& name);

// Checks (with EXPECT_*): a task construct's instances sum to its tree's inclusive time; its
// parameter values add up to it; the stub nodes of the implicit trees hold exactly the time the
// tasks ran; no exclusive time exceeds its inclusive time; per-thread metrics add up.
void expect_profile_consistent(const nlohmann::json& report);

}  // namespace tasklens::testing
