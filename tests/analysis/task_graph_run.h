// The task graph of a hand-made trace, for the graph's golden tests, with the check every one of
// them makes: the graph's work, forks' runtime time and left-out preempted time are the time the
// breakdown saw task bodies run.
#pragma once

#include <gtest/gtest.h>

#include "analysis/breakdown.h"
#include "analysis/task_graph.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {

inline TaskGraph run(testing::TraceBuilder& t) {
  TaskGraphPass graph;
  BreakdownPass breakdown;
  EXPECT_TRUE(testing::replay_experiment(t.write(), {&graph, &breakdown}));
  EXPECT_EQ(graph.result().work_ns + graph.result().runtime_ns + graph.result().preempted_ns,
            breakdown.result().task_body_ns);
  return graph.result();
}

}  // namespace tasklens::analysis
