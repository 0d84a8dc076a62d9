#include "report/mpi_run_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "format/json_in.h"
#include "report/mpi_waits.h"
#include "report/text_format.h"

namespace tasklens::report {
namespace {

uint64_t u64(const nlohmann::json& j, const char* key) {
  uint64_t v = 0;
  format::lenient::read(j, key, &v);
  return v;
}

// A rank's time by category, MPI apart: MPI calls run in task bodies or serial code, so their
// time (and Init/Finalize's) is taken out of work + serial; preempted stays its own.
nlohmann::json rank_breakdown(const nlohmann::json& doc) {
  const nlohmann::json& b = doc.contains("breakdown") ? doc["breakdown"] : nlohmann::json::object();
  const nlohmann::json& m = doc.contains("mpi") ? doc["mpi"] : nlohmann::json::object();
  uint64_t mpi = u64(m, "mpi_ns"), setup = u64(m, "setup_ns");
  uint64_t mpi_off = std::min(mpi, u64(m, "mpi_preempted_ns"));
  uint64_t setup_off = std::min(setup, u64(m, "setup_preempted_ns"));
  // The MPI calls' time on the CPU was work or serial in the breakdown; preempted, it was
  // preempted there and stays so (preempted_ns), counted in mpi_ns as well (mpi_preempted_ns).
  uint64_t program = u64(b, "work_ns") + u64(b, "serial_ns");
  uint64_t in_mpi = std::min(program, mpi - mpi_off + setup - setup_off);
  return {{"work_ns", program - in_mpi},
          {"overhead_ns", u64(b, "overhead_ns")},
          {"idle_ns", u64(b, "idle_ns")},
          {"mpi_ns", mpi},
          {"mpi_setup_ns", setup},
          {"preempted_ns", u64(b, "preempted_ns")},
          {"mpi_preempted_ns", mpi_off + setup_off},
          {"total_ns", u64(b, "total_ns")}};
}

constexpr const char* kKeys[] = {"work_ns",      "overhead_ns",  "idle_ns",
                                 "mpi_ns",       "mpi_setup_ns", "preempted_ns",
                                 "mpi_preempted_ns", "total_ns"};

}  // namespace

nlohmann::json mpi_run_json(const format::MpiRun& run, const std::vector<nlohmann::json>& rank_docs) {
  nlohmann::json ranks = nlohmann::json::array();
  nlohmann::json sum = nlohmann::json::object();
  for (const char* k : kKeys) sum[k] = uint64_t(0);
  uint64_t max_work = 0, total_work = 0, max_mpi = 0;
  int64_t max_work_rank = -1, max_mpi_rank = -1;
  for (size_t i = 0; i < run.ranks.size() && i < rank_docs.size(); ++i) {
    const nlohmann::json& doc = rank_docs[i];
    nlohmann::json b = rank_breakdown(doc);
    for (const char* k : kKeys) sum[k] = sum[k].get<uint64_t>() + b[k].get<uint64_t>();
    uint64_t work = b["work_ns"], mpi = b["mpi_ns"];
    total_work += work;
    if (max_work_rank < 0 || work > max_work) max_work = work, max_work_rank = run.ranks[i].rank;
    if (max_mpi_rank < 0 || mpi > max_mpi) max_mpi = mpi, max_mpi_rank = run.ranks[i].rank;
    nlohmann::json own = doc;
    // The collective calls were there for the waits below: not part of the rank's report.
    if (own.is_object() && own.contains("mpi") && own["mpi"].is_object()) {
      own["mpi"].erase("collectives");
      own["mpi"].erase("p2p");
    }
    ranks.push_back({{"rank", run.ranks[i].rank},
                     {"dir", run.ranks[i].dir},
                     {"breakdown", b},
                     {"report", std::move(own)}});
  }
  double mean_work = ranks.empty() ? 0.0 : double(total_work) / double(ranks.size());
  nlohmann::json imbalance = {
      {"load_balance", max_work ? mean_work / double(max_work) : 1.0},
      {"mean_work_ns", uint64_t(mean_work + 0.5)},
      {"max_work_ns", max_work},
      {"max_work_rank", max_work_rank},
      {"most_waiting_rank", max_mpi_rank},
      {"most_waiting_mpi_ns", max_mpi},
  };
  return {{"tasklens_report_version", 1},
          {"mpi_run", {{"dir", run.dir},
                       {"size", run.size},
                       {"ranks_recorded", ranks.size()},
                       {"args", run.args},
                       {"warnings", run.warnings}}},
          {"ranks", ranks},
          {"sum", sum},
          {"imbalance", imbalance},
          {"waits", mpi_waits_json(run, rank_docs)}};
}

std::string mpi_run_text(const nlohmann::json& doc) {
  const nlohmann::json& r = doc["mpi_run"];
  std::string args;
  for (const auto& a : r["args"]) args += (args.empty() ? "" : " ") + a.get<std::string>();
  std::string out = fmt::format("tasklens report: MPI run {} ({} of {} ranks recorded)\n",
                                args.empty() ? r["dir"].get<std::string>() : args,
                                r["ranks_recorded"].get<uint64_t>(), r["size"].get<int64_t>());
  for (const auto& w : r["warnings"]) out += "  note: " + w.get<std::string>() + "\n";
  out += fmt::format("\n  {:<6} {:>16} {:>16} {:>16} {:>16} {:>16} {:>16} {:>12}\n", "rank",
                     "work", "overhead", "idle", "MPI", "Init/Final.", "preempted", "total");
  auto row = [&out](const std::string& label, const nlohmann::json& b) {
    uint64_t total = b["total_ns"];
    std::string line = fmt::format("  {:<6}", label);
    for (const char* k :
         {"work_ns", "overhead_ns", "idle_ns", "mpi_ns", "mpi_setup_ns", "preempted_ns"}) {
      uint64_t v = b[k];
      line += fmt::format(" {:>10} {:>5}", duration(v), percent(v, total));
    }
    out += line + fmt::format(" {:>12}\n", duration(total));
  };
  for (const auto& rank : doc["ranks"]) row(std::to_string(rank["rank"].get<int64_t>()), rank["breakdown"]);
  row("all", doc["sum"]);
  const nlohmann::json& im = doc["imbalance"];
  out += fmt::format(
      "\n  load balance across ranks (mean work / max work): {:.3f}; most work: rank {} ({}); ",
      im["load_balance"].get<double>(), im["max_work_rank"].get<int64_t>(),
      duration(im["max_work_ns"].get<uint64_t>()));
  if (im["most_waiting_mpi_ns"].get<uint64_t>() == 0) {
    out += "no MPI call recorded (is libtasklens_mpi.so built? docs/MPI.md)\n";
  } else {
    out += fmt::format("most time in MPI: rank {} ({})\n", im["most_waiting_rank"].get<int64_t>(),
                       duration(im["most_waiting_mpi_ns"].get<uint64_t>()));
  }
  const nlohmann::json& w = doc["waits"];
  if (w["collectives_matched"].get<uint64_t>() > 0) {
    out += fmt::format("\n  waits in collectives ({} matched across ranks):\n",
                       w["collectives_matched"].get<uint64_t>());
    out += fmt::format("  {:<6} {:>12} {:>16} {:>12} {:>16}\n", "rank", "waited", "most on rank",
                       "last in", "others waited");
    for (const auto& one : w["ranks"]) {
      std::string on = one["waited_most_on"].is_null()
                           ? std::string("-")
                           : std::to_string(one["waited_most_on"].get<int64_t>());
      out += fmt::format("  {:<6} {:>12} {:>16} {:>12} {:>16}\n", one["rank"].get<int64_t>(),
                         duration(one["collective_wait_ns"].get<uint64_t>()), on,
                         one["arrived_last"].get<uint64_t>(),
                         duration(one["made_others_wait_ns"].get<uint64_t>()));
    }
  }
  if (w.contains("messages_matched") && w["messages_matched"].get<uint64_t>() > 0) {
    out += fmt::format("\n  waits in point-to-point calls ({} messages matched across ranks):\n",
                       w["messages_matched"].get<uint64_t>());
    out += fmt::format("  {:<6} {:>14} {:>16} {:>16} {:>16}\n", "rank", "late sender",
                       "late receiver", "most on rank", "others waited");
    for (const auto& one : w["ranks"]) {
      std::string on = one["p2p_waited_most_on"].is_null()
                           ? std::string("-")
                           : std::to_string(one["p2p_waited_most_on"].get<int64_t>());
      out += fmt::format("  {:<6} {:>14} {:>16} {:>16} {:>16}\n", one["rank"].get<int64_t>(),
                         duration(one["late_sender_wait_ns"].get<uint64_t>()),
                         duration(one["late_receiver_wait_ns"].get<uint64_t>()), on,
                         duration(one["made_others_wait_p2p_ns"].get<uint64_t>()));
    }
  }
  out += "  A rank's own sections: tasklens report DIR/rank-N (or --json here: ranks[].report)\n";
  return out;
}

}  // namespace tasklens::report
