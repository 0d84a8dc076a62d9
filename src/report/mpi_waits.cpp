#include "report/mpi_waits.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <tuple>

#include "analysis/mpi_time.h"
#include "format/mpi_ops.h"

namespace tasklens::report {
namespace {

struct Call {
  uint64_t arrive = 0, leave = 0;
};

struct RankWaits {
  uint64_t late_sender_ns = 0;    // its receives waiting for a send that began later
  uint64_t late_receiver_ns = 0;  // its sends blocked until a receive that began later
  uint64_t caused_p2p_ns = 0;     // the others' late-sender and late-receiver waits on it
  std::map<size_t, uint64_t> p2p_on;  // rank index -> the point-to-point wait on it
  uint64_t wait_ns = 0;          // waiting in collectives for a later rank
  uint64_t caused_ns = 0;        // the others' waits while this rank was the last to arrive
  uint64_t arrived_last = 0;     // collectives it arrived last in (of 2 ranks or more)
  std::map<size_t, uint64_t> on;  // rank index -> the time this rank waited on it
};

// A count or time: an integer at or above 0 (parsed or built, JSON gives either kind).
bool natural(const nlohmann::json& v) {
  return v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0);
}

// A clock sample of the mpi section (`clock.init`, `clock.finalize`); none if it does not read.
std::optional<analysis::MpiClockOffset> clock_sample(const nlohmann::json& clock, const char* key) {
  if (!clock.is_object() || !clock.contains(key)) return std::nullopt;
  const nlohmann::json& c = clock[key];
  if (!c.is_object() || !c.contains("local_ns") || !c.contains("offset_ns")) return std::nullopt;
  if (!natural(c["local_ns"]) || !c["offset_ns"].is_number_integer()) return std::nullopt;
  return analysis::MpiClockOffset{c["local_ns"].get<uint64_t>(), c["offset_ns"].get<int64_t>()};
}

const nlohmann::json* collectives_of(const nlohmann::json& doc) {
  if (!doc.is_object() || !doc.contains("mpi") || !doc["mpi"].is_object()) return nullptr;
  auto it = doc["mpi"].find("collectives");
  return it != doc["mpi"].end() && it->is_object() ? &*it : nullptr;
}

std::string host_of(const nlohmann::json& doc) {
  const nlohmann::json* c = collectives_of(doc);
  return c && c->contains("host") && (*c)["host"].is_string() ? (*c)["host"].get<std::string>()
                                                               : std::string();
}

// A rank's CLOCK_MONOTONIC time on rank 0's clock: its own on rank 0's host, else moved by the
// Init and Finalize offsets of its mpi section (interpolated).
std::function<uint64_t(uint64_t)> root_clock(const nlohmann::json& doc,
                                             const std::string& root_host) {
  std::optional<analysis::MpiClockOffset> init, finalize;
  if (!analysis::mpi_same_clock(host_of(doc), root_host) && doc["mpi"].contains("clock")) {
    init = clock_sample(doc["mpi"]["clock"], "init");
    finalize = clock_sample(doc["mpi"]["clock"], "finalize");
  }
  return [init, finalize](uint64_t t) {
    double v = double(t) + analysis::mpi_clock_offset(init, finalize, t);
    return v <= 0 ? uint64_t(0) : v >= 1.8e19 ? UINT64_MAX : uint64_t(v);
  };
}

// A rank's collectives by communicator, in arrival order, on rank 0's clock (the rank's own on
// rank 0's host); a list that does not read is empty (the documents come from this report, or
// from a part file another process wrote).
std::map<uint64_t, std::vector<Call>> rank_calls(const nlohmann::json& doc,
                                                 const std::string& root_host) {
  std::map<uint64_t, std::vector<Call>> by_comm;
  const nlohmann::json* found = collectives_of(doc);
  if (!found) return by_comm;
  const nlohmann::json& c = *found;
  auto on_root = root_clock(doc, root_host);
  auto list = [&c](const char* key) -> const nlohmann::json* {
    auto it = c.find(key);
    return it != c.end() && it->is_array() ? &*it : nullptr;
  };
  const nlohmann::json *comm = list("comm"), *arrive = list("arrive_ns"), *leave = list("leave_ns");
  if (!comm || !arrive || !leave) return by_comm;
  size_t n = std::min({comm->size(), arrive->size(), leave->size()});
  for (size_t i = 0; i < n; ++i) {
    const auto &k = (*comm)[i], &a = (*arrive)[i], &l = (*leave)[i];
    if (!natural(k) || !natural(a) || !natural(l)) continue;
    uint64_t at = on_root(a.get<uint64_t>());
    by_comm[k.get<uint64_t>()].push_back({at, std::max(at, on_root(l.get<uint64_t>()))});
  }
  for (auto& [k, calls] : by_comm) {
    std::stable_sort(calls.begin(), calls.end(),
                     [](const Call& x, const Call& y) { return x.arrive < y.arrive; });
  }
  return by_comm;
}

// A blocking point-to-point call on rank 0's clock.
struct P2p {
  uint16_t op;
  uint64_t comm;
  int64_t peer;
  uint32_t tag;
  uint64_t begin, end;
};

// A rank's point-to-point calls (the mpi section's `p2p`) on rank 0's clock, and its
// MPI_COMM_WORLD handle (none: no call can be matched, peers being ranks of an unknown
// communicator).
std::vector<P2p> rank_p2p(const nlohmann::json& doc, const std::string& root_host,
                          std::optional<uint64_t>* world) {
  std::vector<P2p> out;
  if (!doc.is_object() || !doc.contains("mpi") || !doc["mpi"].is_object()) return out;
  const nlohmann::json& m = doc["mpi"];
  auto it = m.find("p2p");
  if (it == m.end() || !it->is_object()) return out;
  const nlohmann::json& p = *it;
  if (p.contains("world") && natural(p["world"])) *world = p["world"].get<uint64_t>();
  auto on_root = root_clock(doc, root_host);
  const char* keys[] = {"op", "comm", "peer", "tag", "begin_ns", "end_ns"};
  size_t n = SIZE_MAX;
  for (const char* k : keys) {
    if (!p.contains(k) || !p[k].is_array()) return out;
    n = std::min(n, p[k].size());
  }
  for (size_t i = 0; i < n; ++i) {
    const auto &op = p["op"][i], &comm = p["comm"][i], &peer = p["peer"][i], &tag = p["tag"][i],
               &b = p["begin_ns"][i], &e = p["end_ns"][i];
    if (!natural(op) || !natural(comm) || !peer.is_number_integer() || !natural(tag) ||
        !natural(b) || !natural(e)) {
      continue;
    }
    uint64_t begin = on_root(b.get<uint64_t>());
    out.push_back({op.get<uint16_t>(), comm.get<uint64_t>(), peer.get<int64_t>(),
                   tag.get<uint32_t>(), begin, std::max(begin, on_root(e.get<uint64_t>()))});
  }
  return out;
}

// Late senders and late receivers (Scalasca's patterns): the sends of rank s to rank d and the
// receives of rank d from rank s on MPI_COMM_WORLD with one tag are matched in order (MPI does
// not let messages of one sender, communicator and tag overtake each other). A receive that began
// before its send waits from its begin until the send began (or until it ended, if sooner): a late
// sender. A send still blocked when its receive began (an Ssend, or a Send too large to be sent
// eagerly) waited from its begin until the receive began: a late receiver. Returns the messages
// matched; `left_out` counts the calls that could not be (another communicator, no world handle,
// a peer that is no rank of the run, no partner).
uint64_t match_p2p(const format::MpiRun& run, const std::vector<nlohmann::json>& rank_docs,
                   const std::string& root_host, std::vector<RankWaits>& w, uint64_t* left_out) {
  size_t n = w.size();
  std::map<int64_t, size_t> index;  // rank -> its index
  for (size_t i = 0; i < n; ++i) index[run.ranks[i].rank] = i;
  // (sender index, receiver index, comm, tag) -> its sends, its receives, in begin order.
  std::map<std::tuple<size_t, size_t, uint64_t, uint32_t>, std::pair<std::vector<P2p>, std::vector<P2p>>>
      pairs;
  for (size_t i = 0; i < n; ++i) {
    std::optional<uint64_t> world;
    std::vector<P2p> calls = rank_p2p(rank_docs[i], root_host, &world);
    for (const P2p& c : calls) {
      auto peer = index.find(c.peer);
      if (!world || c.comm != *world || peer == index.end()) {
        ++*left_out;
        continue;
      }
      bool recv = c.op == uint16_t(format::MpiOp::kRecv);
      auto key = recv ? std::make_tuple(peer->second, i, c.comm, c.tag)
                      : std::make_tuple(i, peer->second, c.comm, c.tag);
      (recv ? pairs[key].second : pairs[key].first).push_back(c);
    }
  }
  uint64_t matched = 0;
  auto by_begin = [](const P2p& a, const P2p& b) { return a.begin < b.begin; };
  for (auto& [key, both] : pairs) {
    auto& [sends, recvs] = both;
    std::stable_sort(sends.begin(), sends.end(), by_begin);
    std::stable_sort(recvs.begin(), recvs.end(), by_begin);
    size_t s = std::get<0>(key), d = std::get<1>(key);
    size_t k = std::min(sends.size(), recvs.size());
    *left_out += sends.size() + recvs.size() - 2 * k;
    for (size_t m = 0; m < k; ++m) {
      const P2p &send = sends[m], &recv = recvs[m];
      if (recv.begin < send.begin) {
        uint64_t ns = std::min(send.begin, recv.end) - recv.begin;
        w[d].late_sender_ns += ns;
        w[d].p2p_on[s] += ns;
        w[s].caused_p2p_ns += ns;
      } else if (send.begin < recv.begin && send.end > recv.begin) {
        uint64_t ns = recv.begin - send.begin;
        w[s].late_receiver_ns += ns;
        w[s].p2p_on[d] += ns;
        w[d].caused_p2p_ns += ns;
      }
      ++matched;
    }
  }
  return matched;
}

}  // namespace

nlohmann::json mpi_waits_json(const format::MpiRun& run,
                              const std::vector<nlohmann::json>& rank_docs) {
  size_t n = std::min(run.ranks.size(), rank_docs.size());
  std::vector<std::map<uint64_t, std::vector<Call>>> calls(n);
  std::map<uint64_t, std::vector<size_t>> users;  // communicator -> the ranks that use it
  std::string root_host = n ? host_of(rank_docs[0]) : std::string();
  for (size_t i = 0; i < n; ++i) {
    calls[i] = rank_calls(rank_docs[i], root_host);
    for (const auto& [comm, list] : calls[i]) users[comm].push_back(i);
  }
  std::vector<RankWaits> w(n);
  uint64_t matched = 0, left_out = 0;
  for (const auto& use : users) {
    const uint64_t comm = use.first;
    const std::vector<size_t>& ranks = use.second;
    size_t count = calls[ranks[0]].at(comm).size();
    bool same = std::all_of(ranks.begin(), ranks.end(),
                            [&](size_t r) { return calls[r].at(comm).size() == count; });
    if (!same || ranks.size() < 2) {
      // Not every rank made as many calls: the handles differ across ranks, or a rank was cut
      // short. Which call matches which is not known: left out.
      for (size_t r : ranks) left_out += calls[r].at(comm).size();
      continue;
    }
    for (size_t k = 0; k < count; ++k) {
      size_t last = ranks[0];
      for (size_t r : ranks) {
        if (calls[r].at(comm)[k].arrive > calls[last].at(comm)[k].arrive) last = r;
      }
      uint64_t late = calls[last].at(comm)[k].arrive;
      for (size_t r : ranks) {
        const Call& c = calls[r].at(comm)[k];
        uint64_t ns = std::min(late, c.leave) - std::min(late, c.arrive);
        if (r == last || ns == 0) continue;
        w[r].wait_ns += ns;
        w[r].on[last] += ns;
        w[last].caused_ns += ns;
      }
      ++w[last].arrived_last;
      ++matched;
    }
  }
  uint64_t p2p_left_out = 0;
  uint64_t messages = match_p2p(run, rank_docs, root_host, w, &p2p_left_out);
  nlohmann::json ranks = nlohmann::json::array();
  int64_t most_waiting = -1, most_waited_on = -1;
  uint64_t most_wait = 0, most_caused = 0;
  for (size_t i = 0; i < n; ++i) {
    nlohmann::json one = {{"rank", run.ranks[i].rank},
                          {"collective_wait_ns", w[i].wait_ns},
                          {"waited_most_on", nullptr},
                          {"waited_most_on_ns", 0},
                          {"arrived_last", w[i].arrived_last},
                          {"made_others_wait_ns", w[i].caused_ns}};
    uint64_t best = 0;
    for (const auto& [r, ns] : w[i].on) {
      if (ns > best) {
        best = ns;
        one["waited_most_on"] = run.ranks[r].rank;
        one["waited_most_on_ns"] = ns;
      }
    }
    one["late_sender_wait_ns"] = w[i].late_sender_ns;
    one["late_receiver_wait_ns"] = w[i].late_receiver_ns;
    one["p2p_waited_most_on"] = nullptr;
    one["p2p_waited_most_on_ns"] = 0;
    one["made_others_wait_p2p_ns"] = w[i].caused_p2p_ns;
    best = 0;
    for (const auto& [r, ns] : w[i].p2p_on) {
      if (ns > best) {
        best = ns;
        one["p2p_waited_most_on"] = run.ranks[r].rank;
        one["p2p_waited_most_on_ns"] = ns;
      }
    }
    if (w[i].wait_ns > most_wait) most_wait = w[i].wait_ns, most_waiting = run.ranks[i].rank;
    if (w[i].caused_ns > most_caused) most_caused = w[i].caused_ns, most_waited_on = run.ranks[i].rank;
    ranks.push_back(std::move(one));
  }
  nlohmann::json j = {{"collectives_matched", matched},
                      {"collective_calls_left_out", left_out},
                      {"messages_matched", messages},
                      {"p2p_calls_left_out", p2p_left_out},
                      {"ranks", ranks},
                      {"most_waiting_rank", nullptr},
                      {"most_waited_on_rank", nullptr}};
  if (most_waiting >= 0) j["most_waiting_rank"] = most_waiting;
  if (most_waited_on >= 0) j["most_waited_on_rank"] = most_waited_on;
  return j;
}

}  // namespace tasklens::report
