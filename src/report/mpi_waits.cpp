#include "report/mpi_waits.h"

#include <algorithm>
#include <map>
#include <optional>

#include "analysis/mpi_time.h"

namespace tasklens::report {
namespace {

struct Call {
  uint64_t arrive = 0, leave = 0;
};

struct RankWaits {
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

// A rank's collectives by communicator, in arrival order, on rank 0's clock (the rank's own on
// rank 0's host); a list that does not read is empty (the documents come from this report, or
// from a part file another process wrote).
std::map<uint64_t, std::vector<Call>> rank_calls(const nlohmann::json& doc,
                                                 const std::string& root_host) {
  std::map<uint64_t, std::vector<Call>> by_comm;
  const nlohmann::json* found = collectives_of(doc);
  if (!found) return by_comm;
  const nlohmann::json& c = *found;
  std::optional<analysis::MpiClockOffset> init, finalize;
  if (!analysis::mpi_same_clock(host_of(doc), root_host) && doc["mpi"].contains("clock")) {
    init = clock_sample(doc["mpi"]["clock"], "init");
    finalize = clock_sample(doc["mpi"]["clock"], "finalize");
  }
  auto on_root = [&](uint64_t t) {
    double v = double(t) + analysis::mpi_clock_offset(init, finalize, t);
    return v <= 0 ? uint64_t(0) : v >= 1.8e19 ? UINT64_MAX : uint64_t(v);
  };
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
    if (w[i].wait_ns > most_wait) most_wait = w[i].wait_ns, most_waiting = run.ranks[i].rank;
    if (w[i].caused_ns > most_caused) most_caused = w[i].caused_ns, most_waited_on = run.ranks[i].rank;
    ranks.push_back(std::move(one));
  }
  nlohmann::json j = {{"collectives_matched", matched},
                      {"collective_calls_left_out", left_out},
                      {"ranks", ranks},
                      {"most_waiting_rank", nullptr},
                      {"most_waited_on_rank", nullptr}};
  if (most_waiting >= 0) j["most_waiting_rank"] = most_waiting;
  if (most_waited_on >= 0) j["most_waited_on_rank"] = most_waited_on;
  return j;
}

}  // namespace tasklens::report
