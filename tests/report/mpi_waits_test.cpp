// Golden tests of who waits on whom in an MPI run's collectives (report/mpi_waits.h, docs/MPI.md):
// the ranks' report documents built by hand with their collective calls, known answers.
#include <gtest/gtest.h>

#include "report/mpi_waits.h"

namespace tasklens::report {
namespace {

struct Call {
  uint64_t comm, arrive, leave;
};

nlohmann::json rank_doc(const std::string& host, const std::vector<Call>& calls,
                        nlohmann::json clock = {{"init", nullptr}, {"finalize", nullptr}}) {
  nlohmann::json comm = nlohmann::json::array(), arrive = comm, leave = comm;
  for (const Call& c : calls) {
    comm.push_back(c.comm);
    arrive.push_back(c.arrive);
    leave.push_back(c.leave);
  }
  return {{"mpi",
           {{"clock", clock},
            {"collectives",
             {{"host", host}, {"comm", comm}, {"arrive_ns", arrive}, {"leave_ns", leave}}}}}};
}

format::MpiRun run_of(size_t n) {
  format::MpiRun run;
  for (size_t i = 0; i < n; ++i) run.ranks.push_back({int64_t(i), "rank-" + std::to_string(i)});
  return run;
}

// Three ranks on one host, two barriers: rank 2 arrives last in the first (at 1000; ranks 0 and
// 1 at 100 and 400), rank 0 in the second (at 5000; the others at 4000 and 4500, rank 1 leaving
// at 4800 before rank 0 arrived: it waits only until it left).
TEST(MpiWaits, TheLastToArriveIsWaitedOn) {
  std::vector<nlohmann::json> docs = {
      rank_doc("h", {{0, 100, 1010}, {0, 5000, 5010}}),
      rank_doc("h", {{0, 400, 1010}, {0, 4500, 4800}}),
      rank_doc("h", {{0, 1000, 1010}, {0, 4000, 5010}}),
  };
  nlohmann::json w = mpi_waits_json(run_of(3), docs);
  EXPECT_EQ(w["collectives_matched"], 2);
  EXPECT_EQ(w["collective_calls_left_out"], 0);
  const auto& r = w["ranks"];
  EXPECT_EQ(r[0]["collective_wait_ns"], 900);          // 100 -> 1000
  EXPECT_EQ(r[1]["collective_wait_ns"], 600 + 300);    // 400 -> 1000, 4500 -> 4800 (it left)
  EXPECT_EQ(r[2]["collective_wait_ns"], 1000);         // 4000 -> 5000
  EXPECT_EQ(r[0]["waited_most_on"], 2);
  EXPECT_EQ(r[1]["waited_most_on"], 2);                // 600 on rank 2, 300 on rank 0
  EXPECT_EQ(r[1]["waited_most_on_ns"], 600);
  EXPECT_EQ(r[2]["waited_most_on"], 0);
  EXPECT_EQ(r[2]["arrived_last"], 1);
  EXPECT_EQ(r[0]["arrived_last"], 1);
  EXPECT_EQ(r[2]["made_others_wait_ns"], 1500);
  EXPECT_EQ(r[0]["made_others_wait_ns"], 1300);
  EXPECT_EQ(w["most_waiting_rank"], 2);  // 1000 against 900 and 900
  EXPECT_EQ(w["most_waited_on_rank"], 2);
}

// A rank on another host: its times are put on rank 0's clock by its offsets (here +500 at both
// samples); on rank 0's host they would not be. A communicator whose ranks made different numbers
// of calls is left out.
TEST(MpiWaits, AnotherHostsTimesAreMovedByItsOffsetsAndUnequalCommunicatorsLeftOut) {
  nlohmann::json clock = {{"init", {{"local_ns", 0}, {"offset_ns", 500}}},
                          {"finalize", {{"local_ns", 10000}, {"offset_ns", 500}}}};
  std::vector<nlohmann::json> docs = {
      rank_doc("a", {{0, 1000, 2000}, {7, 10, 20}}),
      rank_doc("b", {{0, 1000, 1600}, {7, 10, 20}, {7, 30, 40}}, clock),  // arrives at 1500
  };
  nlohmann::json w = mpi_waits_json(run_of(2), docs);
  EXPECT_EQ(w["collectives_matched"], 1);
  EXPECT_EQ(w["collective_calls_left_out"], 3);
  EXPECT_EQ(w["ranks"][0]["collective_wait_ns"], 500);
  EXPECT_EQ(w["ranks"][0]["waited_most_on"], 1);
  EXPECT_EQ(w["ranks"][1]["collective_wait_ns"], 0);
  // The same rank on rank 0's host: its own clock, it arrives first.
  docs[1] = rank_doc("a", {{0, 1000, 1600}, {7, 10, 20}, {7, 30, 40}}, clock);
  w = mpi_waits_json(run_of(2), docs);
  EXPECT_EQ(w["ranks"][0]["collective_wait_ns"], 0);
}

// A blocking point-to-point call as the mpi section's `p2p` lists it (op: format::MpiOp).
struct P2p {
  uint16_t op;
  uint64_t comm;
  int64_t peer;
  uint32_t tag;  // + 1
  uint64_t begin, end;
};

nlohmann::json with_p2p(nlohmann::json doc, nlohmann::json world, const std::vector<P2p>& calls) {
  nlohmann::json op = nlohmann::json::array(), comm = op, peer = op, tag = op, begin = op, end = op;
  for (const P2p& c : calls) {
    op.push_back(c.op);
    comm.push_back(c.comm);
    peer.push_back(c.peer);
    tag.push_back(c.tag);
    begin.push_back(c.begin);
    end.push_back(c.end);
  }
  doc["mpi"]["p2p"] = {{"world", world}, {"op", op},       {"comm", comm},
                       {"peer", peer},   {"tag", tag},     {"begin_ns", begin},
                       {"end_ns", end}};
  return doc;
}

constexpr uint16_t kSend = 3, kRecv = 4, kSsend = 18;

// Two ranks on one host, MPI_COMM_WORLD's handle 0:
//  - rank 1 sends tag 7 at 1000; rank 0's receive began at 100: a late sender, 900 ns;
//  - rank 0's Ssend (tag 99) at 2000 blocks until 2600; rank 1's receive began at 2500: a late
//    receiver, 500 ns;
//  - two sends of tag 8 from rank 1 (3000 and 3100, eager: each over at once) and two receives
//    at 2950 and 3200, matched in order: the first waits 50 ns, the second nothing;
//  - a Send on communicator 5 and a receive from rank 7 (no rank of the run) are left out.
TEST(MpiWaits, LateSendersAndLateReceiversAreMatchedInOrder) {
  std::vector<nlohmann::json> docs = {
      with_p2p(rank_doc("h", {}), 0,
               {{kRecv, 0, 1, 8, 100, 1020},
                {kSsend, 0, 1, 100, 2000, 2600},
                {kRecv, 0, 1, 9, 2950, 3005},
                {kRecv, 0, 1, 9, 3200, 3210},
                {kRecv, 0, 7, 9, 4000, 4010}}),
      with_p2p(rank_doc("h", {}), 0,
               {{kSend, 0, 0, 8, 1000, 1010},
                {kRecv, 0, 0, 100, 2500, 2610},
                {kSend, 0, 0, 9, 3000, 3001},
                {kSend, 0, 0, 9, 3100, 3101},
                {kSend, 5, 0, 9, 5000, 5001}}),
  };
  nlohmann::json w = mpi_waits_json(run_of(2), docs);
  EXPECT_EQ(w["messages_matched"], 4);
  EXPECT_EQ(w["p2p_calls_left_out"], 2);
  const auto& r = w["ranks"];
  EXPECT_EQ(r[0]["late_sender_wait_ns"], 900 + 50);
  EXPECT_EQ(r[0]["late_receiver_wait_ns"], 500);
  EXPECT_EQ(r[0]["p2p_waited_most_on"], 1);
  EXPECT_EQ(r[0]["p2p_waited_most_on_ns"], 1450);
  EXPECT_EQ(r[0]["made_others_wait_p2p_ns"], 0);
  EXPECT_EQ(r[1]["late_sender_wait_ns"], 0);
  EXPECT_EQ(r[1]["late_receiver_wait_ns"], 0);
  EXPECT_TRUE(r[1]["p2p_waited_most_on"].is_null());
  EXPECT_EQ(r[1]["made_others_wait_p2p_ns"], 1450);
  // The collective keys are untouched.
  EXPECT_EQ(r[0]["collective_wait_ns"], 0);
  EXPECT_EQ(w["collectives_matched"], 0);
  // Without MPI_COMM_WORLD's handle a rank's peers are of an unknown communicator: left out.
  docs[1]["mpi"]["p2p"]["world"] = nullptr;
  w = mpi_waits_json(run_of(2), docs);
  EXPECT_EQ(w["messages_matched"], 0);
  EXPECT_EQ(w["p2p_calls_left_out"], 10);
  EXPECT_EQ(w["ranks"][0]["late_sender_wait_ns"], 0);
}

// Documents without the calls, or with calls that do not read, match nothing and do not crash.
TEST(MpiWaits, DamagedOrMissingCallsMatchNothing) {
  std::vector<nlohmann::json> docs = {
      nlohmann::json::object(),
      {{"mpi", {{"collectives", {{"comm", "x"}, {"arrive_ns", {1, 2}}, {"leave_ns", nullptr}}}}}},
      {{"mpi", {{"clock", 3}, {"collectives", {{"host", 4}, {"comm", {-1, 0}},
                                               {"arrive_ns", {1.5, 2}}, {"leave_ns", {1}}}}}}},
  };
  docs[2]["mpi"]["p2p"] = {{"world", "x"}, {"op", {3}}, {"comm", 1}, {"peer", {-5}}};
  nlohmann::json w = mpi_waits_json(run_of(3), docs);
  EXPECT_EQ(w["collectives_matched"], 0);
  EXPECT_EQ(w["messages_matched"], 0);
  EXPECT_TRUE(w["most_waiting_rank"].is_null());
  EXPECT_EQ(mpi_waits_json(run_of(3), {})["ranks"].size(), 0u);
}

}  // namespace
}  // namespace tasklens::report
