// Shared by the overheads integration tests: record an example under `tasklens run`, read the
// overheads section of `tasklens report --json`, and check its invariant.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/contention.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::testing {

// The classes of the overheads JSON, work first.
inline const std::vector<std::string>& overhead_classes() {
  static const std::vector<std::string> k = {"synchronization", "imbalance",
                                             "limited_parallelism", "thread_management",
                                             "task_management"};
  return k;
}

struct Recorded {
  std::string dir;
  std::string output;     // the program's stdout (its facts)
  nlohmann::json report;  // the "overheads" object of `tasklens report --json`
  std::string contention;  // the run's warning that other processes took its CPUs, if any
};

// The report's warning that other processes took the run's CPUs (`run.warnings`), "" if none:
// timing assertions skip when it is there (the machine was busy). Its reasons are "; "-separated;
// a reason that names the recorder's own writer thread is not the machine's: two threads fill the
// two CPUs of our VM in every run of these examples, and the writer takes a share of them (6-19 %
// in the critical test's).
inline std::string contention_warning(const nlohmann::json& doc) {
  if (doc.is_discarded() || !doc.contains("run")) return "";
  for (const auto& w : doc["run"].value("warnings", nlohmann::json::array())) {
    std::string text = w.is_string() ? w.get<std::string>() : "";
    for (size_t from = 0; from < text.size();) {
      size_t to = std::min(text.find("; ", from), text.size());
      std::string reason = text.substr(from, to - from);
      from = to + 2;
      if (reason.find(analysis::kWriterAdvice) != std::string::npos) continue;
      if (reason.rfind("preempted", 0) == 0 || reason.rfind("oversubscribed", 0) == 0) return text;
    }
  }
  return "";
}

// Runs examples/<name> with `threads` threads under the recorder (`env`: extra "NAME=value"
// entries), then the report.
inline Recorded record(const std::string& name, const std::vector<std::string>& args,
                       int threads = 2, const std::vector<std::string>& env = {}) {
  std::vector<std::string> program = {example(name)};
  program.insert(program.end(), args.begin(), args.end());
  Recording rec = record_run(program, threads, env);
  EXPECT_EQ(rec.run.status, 0) << rec.run.err;
  Recorded r;
  r.dir = rec.dir;
  r.output = rec.run.out;
  JsonReport rep = report_json(r.dir, {"--overheads"});
  EXPECT_EQ(rep.command.status, 0) << rep.command.err;
  const nlohmann::json& doc = rep.doc;
  EXPECT_FALSE(doc.is_discarded()) << rep.command.out.substr(0, 200);
  if (!doc.is_discarded() && doc.contains("overheads")) r.report = doc["overheads"];
  r.contention = contention_warning(doc);
  return r;
}

inline uint64_t ns(const nlohmann::json& j, const std::string& cls) {
  return j.value(cls + "_ns", uint64_t(0));
}

// The overhead class with the most time in `j` (a region or the program).
inline std::string largest_overhead(const nlohmann::json& j) {
  std::string best;
  uint64_t most = 0;
  for (const auto& c : overhead_classes()) {
    if (ns(j, c) > most) most = ns(j, c), best = c;
  }
  return best;
}

// Work plus the five classes plus the preempted time (off the CPU, in no class) is the
// accumulated time, to the nanosecond: for every region, for every thread of it, and for the
// program.
inline void expect_overheads_invariant(const nlohmann::json& o) {
  auto sum = [](const nlohmann::json& j) {
    uint64_t s = ns(j, "work") + ns(j, "preempted");
    for (const auto& c : overhead_classes()) s += ns(j, c);
    return s;
  };
  ASSERT_TRUE(o.is_object());
  EXPECT_EQ(o.value("unaccounted_ns", int64_t(-1)), 0);
  EXPECT_EQ(sum(o["program"]), o["program"].value("total_ns", uint64_t(0)));
  uint64_t outermost = 0;
  for (const auto& r : o["regions"]) {
    SCOPED_TRACE(r.value("location", std::string()));
    EXPECT_EQ(sum(r), r.value("total_ns", uint64_t(0)));
    uint64_t threads = 0;
    for (const auto& t : r["threads"]) threads += sum(t);
    EXPECT_EQ(threads, r.value("total_ns", uint64_t(0)));
    // Per region, no class and no construct's execT exceeds team size x wall time (a recursive
    // taskwait's instances on one thread do not overlap).
    EXPECT_LE(ns(r, "work"), r.value("total_ns", uint64_t(0)));
    for (const auto& c : overhead_classes()) EXPECT_LE(ns(r, c), r.value("total_ns", uint64_t(0)));
    for (const auto& c : r["constructs"]) {
      EXPECT_LE(c["timings"].value("exec_ns", uint64_t(0)), r.value("total_ns", uint64_t(0)))
          << c.value("kind", std::string()) << " " << c.value("location", std::string());
    }
    if (r.value("level", 1) == 1) outermost += r.value("total_ns", uint64_t(0));
  }
  EXPECT_EQ(outermost, o["program"].value("total_ns", uint64_t(0)));
}

// The first construct of `kind` in region `r`.
inline const nlohmann::json& construct(const nlohmann::json& r, const std::string& kind) {
  for (const auto& c : r["constructs"]) {
    if (c.value("kind", std::string()) == kind) return c;
  }
  static const nlohmann::json none = nlohmann::json::object();
  ADD_FAILURE() << "no " << kind << " construct";
  return none;
}

// A run the machine disturbed: the report's own contention warning (`why` gets it).
inline bool disturbed(const Recorded& r, std::string* why) {
  if (r.contention.empty()) return false;
  *why = r.contention;
  return true;
}

// Calls attempt(&why) until it returns true (it found an undisturbed run and checked it) or a
// check failed; skips the test when no run in `attempts` was undisturbed. For the assertions on
// times, which a busy machine moves (threads preempted stretch the program's own work).
template <class F>
void with_undisturbed_run(const std::string& what, F attempt, int attempts = 6) {
  std::string seen;
  for (int i = 1; i <= attempts; ++i) {
    std::string why;
    if (attempt(&why) || ::testing::Test::HasFailure()) return;
    seen += "\n  run " + std::to_string(i) + ": " + why;
  }
  GTEST_SKIP() << what << ": no undisturbed run in " << attempts
               << " (a busy machine, or libomp starting the worker late):" << seen;
}

}  // namespace tasklens::testing
