// The bundled examples recorded by the build tree's `tasklens run` with 2 and 4 threads: the
// trace must hold exactly what each program says it did (its printed tasks=, deps=, ...), every
// explicit task must be created, started and completed once, with parents forming a tree rooted
// at implicit tasks, thread timestamps must never decrease, and `tasklens check` must pass.
#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "integration/recorder_runs.h"
#include "integration/trace_facts.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

using format::Kind;

struct ExampleCase {
  std::string name;
  std::vector<std::string> args;
  // Example-specific exact facts.
  std::function<void(const Recorded&, int threads)> facts;
  int fixed_threads = 0;  // the program sets its team size itself
};

void PrintTo(const ExampleCase& c, std::ostream* os) { *os << c.name; }

const uint16_t kTaskwait = uint16_t(format::SyncKind::kTaskwait);
const uint16_t kTaskgroup = uint16_t(format::SyncKind::kTaskgroup);

std::vector<ExampleCase> cases() {
  return {
      {"fib",
       {"15"},
       [](const Recorded& r, int t) {
         tasks_as_printed(r, t);
         EXPECT_EQ(r.printed("tasks"), 1972);
         // One taskwait per call that creates tasks (two tasks each).
         EXPECT_EQ(r.facts.count(Kind::kSyncRegion, 1, kTaskwait), 1972u / 2);
         EXPECT_GT(r.facts.suspensions, 0u);
       }},
      {"nqueens", {"6"}, tasks_as_printed},
      {"dep_chain",
       {"20", "10"},
       [](const Recorded& r, int t) {
         tasks_as_printed(r, t);
         EXPECT_EQ(r.facts.dependence_records, 20u);  // one depend(inout:) item per task
         EXPECT_EQ(r.facts.rebuilt_edges, uint64_t(r.printed("deps")));
         EXPECT_EQ(r.printed("deps"), 19);
         // Every task with dependences says so at creation.
         EXPECT_EQ(r.facts.count(Kind::kTaskCreate, 1), 20u);
       }},
      {"wavefront",
       {"4", "10"},
       [](const Recorded& r, int t) {
         tasks_as_printed(r, t);
         EXPECT_EQ(r.facts.dependence_records, 16u * 3);  // in, in, out per block
         EXPECT_EQ(r.facts.rebuilt_edges, uint64_t(r.printed("deps")));
         EXPECT_EQ(r.printed("deps"), 24);
       }},
      {"untied",
       {"8"},
       [](const Recorded& r, int t) {
         tasks_as_printed(r, t);
         uint64_t untied = 0;
         for (const auto& [id, task] : r.facts.tasks) {
           untied += (task.flags & format::task_flag::kUntied) != 0;
         }
         EXPECT_EQ(untied, 8u);
         // Every untied task is suspended at least at its child's creation and its taskwait.
         EXPECT_GE(r.facts.suspensions, 8u * 2);
       }},
      {"taskloop",
       {"1000", "10"},
       [](const Recorded& r, int) {
         // The number of tasks is libomp's choice; at least one per 2G-1 iterations.
         EXPECT_GE(r.facts.explicit_created, 1000u / 19);
         EXPECT_EQ(r.facts.explicit_completed(), r.facts.explicit_created);
         EXPECT_EQ(r.facts.count(Kind::kWork, 1, uint16_t(format::WorkType::kTaskloop)), 1u);
       }},
      {"taskgroup",
       {"10"},
       [](const Recorded& r, int t) {
         tasks_as_printed(r, t);
         EXPECT_EQ(r.facts.count(Kind::kSyncRegion, 1, kTaskgroup), 1u);
       }},
      {"imbalance", {"1000", "100"}, tasks_as_printed},
      {"cancel",
       {"8"},
       [](const Recorded& r, int t) {
         tasks_as_printed(r, t);
         EXPECT_EQ(r.printed("started"), 8);
       }},
      {"skewed_loop",
       {"20"},
       [](const Recorded& r, int) {
         EXPECT_EQ(r.facts.explicit_created, 0u);
         EXPECT_EQ(r.facts.count(Kind::kWork, 1, uint16_t(format::WorkType::kLoop)), 2u);
       },
       2},
      {"critical",
       {"1000"},
       [](const Recorded& r, int) {
         uint16_t critical = uint16_t(format::MutexKind::kCritical);
         EXPECT_EQ(r.facts.count(Kind::kMutexAcquired, -1, critical),
                   uint64_t(r.printed("entries")));
         EXPECT_EQ(r.facts.count(Kind::kMutexReleased, -1, critical),
                   uint64_t(r.printed("entries")));
       }},
      {"single",
       {"5"},
       [](const Recorded& r, int) {
         EXPECT_EQ(r.facts.count(Kind::kWork, 1, uint16_t(format::WorkType::kSingleExecutor)),
                   1u);
       }},
      {"fork_join",
       {"100"},
       [](const Recorded& r, int t) {
         EXPECT_EQ(r.facts.count(Kind::kParallelBegin), 100u);
         EXPECT_EQ(r.facts.count(Kind::kParallelEnd), 100u);
         // The initial task and one implicit task per thread per region.
         EXPECT_EQ(r.facts.count(Kind::kImplicitTask, 1), uint64_t(r.printed("implicit_tasks")) + 1);
       }},
      {"nested",
       {"4", "8"},
       [](const Recorded& r, int t) {
         tasks_as_printed(r, t);
         EXPECT_EQ(r.facts.count(Kind::kParallelBegin), uint64_t(r.printed("regions")));
       },
       2},
      {"detach",
       {"8"},
       [](const Recorded& r, int t) {
         tasks_as_printed(r, t);
         // A detached task either ends its body detached and is fulfilled later, or is fulfilled
         // early and then completes.
         uint64_t detached = r.facts.count(Kind::kTaskSchedule, uint8_t(format::TaskStatus::kDetach));
         uint64_t late = r.facts.count(Kind::kTaskSchedule, uint8_t(format::TaskStatus::kLateFulfill));
         uint64_t early =
             r.facts.count(Kind::kTaskSchedule, uint8_t(format::TaskStatus::kEarlyFulfill));
         EXPECT_EQ(detached, late);
         EXPECT_EQ(detached + early, uint64_t(r.printed("detached")));
       }},
  };
}

class Example : public ::testing::TestWithParam<std::tuple<ExampleCase, int>> {};

TEST_P(Example, RecordsExactlyWhatTheProgramDid) {
  const auto& [c, threads] = GetParam();
  Recorded r = record_run(example(c.name), c.args, threads);
  expect_sound(r, c.fixed_threads ? c.fixed_threads : threads);
  if (::testing::Test::HasFatalFailure()) return;
  c.facts(r, threads);
}

INSTANTIATE_TEST_SUITE_P(
    Examples, Example, ::testing::Combine(::testing::ValuesIn(cases()), ::testing::Values(2, 4)),
    [](const ::testing::TestParamInfo<Example::ParamType>& info) {
      return std::get<0>(info.param).name + "_" + std::to_string(std::get<1>(info.param)) +
             "threads";
    });

// With cancellation on, libomp discards the cancelled taskgroup's queued tasks on the thread that
// cancels, reporting task_schedule(T, cancel, current) for a T that never ran. `check` once took
// each for a switch of a task that thread did not run: 42 inconsistent events of 64 tasks, "not
// sound", in this example (the tests above run it without cancellation).
TEST(Cancellation, DiscardedTasksLeaveTheTraceSound) {
  Recorded r = record_run(example("cancel"), {"64"}, 2, {"OMP_CANCELLATION=true"});
  ASSERT_EQ(r.run.status, 0) << r.run.err;
  ASSERT_NE(r.run.out.find(" OK"), std::string::npos) << r.run.out;
  EXPECT_EQ(r.printed("cancellation"), 1) << r.run.out;
  EXPECT_GT(r.printed("discarded"), 0) << r.run.out;
  // Every task created and ended once; the started ones are those the program says ran.
  uint64_t started = 0;
  for (const auto& [id, t] : r.facts.tasks) {
    if (t.implicit) continue;
    EXPECT_EQ(t.creates, 1u);
    EXPECT_EQ(t.completions, 1u);
    started += t.starts;
  }
  EXPECT_EQ(started, uint64_t(r.printed("started"))) << r.run.out;
  EXPECT_EQ(r.facts.explicit_completed(), 64u);
  CommandResult check = run_command({tasklens_bin(), "check", r.dir});
  EXPECT_EQ(check.status, 0) << check.out;
  EXPECT_NE(check.out.find("sound: nothing lost, every task consistent"), std::string::npos)
      << check.out;
}

// GCC-built programs run on libomp through `tasklens run` and give the same facts.
TEST(GccExamples, FibIsRecordedThroughLibomp) {
  Recorded r = record_run(example("gcc/fib"), {"15"}, 2);
  expect_sound(r, 2);
  tasks_as_printed(r, 2);
  EXPECT_EQ(r.printed("tasks"), 1972);
  EXPECT_EQ(r.facts.count(Kind::kSyncRegion, 1, kTaskwait), 1972u / 2);
}

TEST(GccExamples, DepChainIsRecordedThroughLibomp) {
  Recorded r = record_run(example("gcc/dep_chain"), {"20", "10"}, 2);
  expect_sound(r, 2);
  tasks_as_printed(r, 2);
  EXPECT_EQ(r.facts.dependence_records, 20u);
  EXPECT_EQ(r.facts.rebuilt_edges, 19u);
}

// libomp reports no end of a GCC `single`; the replay ends it at its barrier, so no export has
// a region left open.
TEST(GccExamples, SingleIsClosedInEveryExport) {
  Recorded r = record_run(example("gcc/fib"), {"15"}, 2);
  expect_sound(r, 2);
  for (const char* to : {"otf2", "paraver", "perfetto", "perfetto-json", "dot"}) {
    CommandResult e = run_command({tasklens_bin(), "export", r.dir, "--to", to, "-o",
                                   scratch_dir(to) + "/out." + to});
    EXPECT_EQ(e.status, 0) << to << ": " << e.err;
    EXPECT_EQ((e.out + e.err).find("still open"), std::string::npos) << to << ": " << e.out;
  }
}

TEST(GccExamples, DetachIsRefusedWithAReason) {
  std::string dir = scratch_dir() + "/exp";
  CommandResult r =
      run_command({tasklens_bin(), "run", "-n", "2", "-o", dir, "--", example("gcc/detach"), "8"});
  EXPECT_EQ(r.status, 125);
  EXPECT_EQ(r.out, "");  // the program never ran
  EXPECT_NE(r.err.find(example("gcc/detach") + " was built by GCC (libgomp) and uses "
                                              "omp_fulfill_event"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("Rebuild it with clang -fopenmp"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tasklens::testing
