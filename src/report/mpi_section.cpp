#include "report/mpi_section.h"

#include <fmt/format.h>

#include "format/mpi_ops.h"
#include "report/text_format.h"

namespace tasklens::report {
namespace {

class MpiSection : public Section {
 public:
  replay::Pass& pass() override { return pass_; }
  const analysis::MpiTime& result() const { return pass_.result(); }

  void text(const ReportContext& ctx, std::string& out) override {
    const analysis::MpiTime& m = pass_.result();
    const auto& mpi = ctx.experiment.metadata.mpi;
    out += "MPI";
    if (mpi) out += fmt::format(" (rank {} of {})", mpi->rank, mpi->size);
    out += fmt::format(": {} in {} calls, {} bytes; Init/Finalize {}\n", duration(m.mpi_ns),
                       count(m.calls), count(m.bytes), duration(m.setup_ns));
    for (const auto& [op, t] : m.by_op) {
      out += fmt::format("  {:<16} {:>8} calls {:>12} {:>14} bytes\n",
                         std::string(format::mpi_op_name(op)), count(t.calls), duration(t.ns),
                         count(t.bytes));
    }
    if (m.init_clock) {
      out += fmt::format("  clock offset to rank 0: {} ns at Init", m.init_clock->offset_ns);
      if (m.finalize_clock) out += fmt::format(", {} ns at Finalize", m.finalize_clock->offset_ns);
      out += "\n";
    }
  }

  nlohmann::json json(const ReportContext& ctx) override {
    const analysis::MpiTime& m = pass_.result();
    nlohmann::json j = {{"mpi_ns", m.mpi_ns},
                        {"setup_ns", m.setup_ns},
                        {"mpi_preempted_ns", m.mpi_preempted_ns},
                        {"setup_preempted_ns", m.setup_preempted_ns},
                        {"calls", m.calls},
                        {"bytes", m.bytes}};
    if (const auto& mpi = ctx.experiment.metadata.mpi) {
      j["rank"] = mpi->rank;
      j["size"] = mpi->size;
    }
    j["by_op"] = nlohmann::json::array();
    for (const auto& [op, t] : m.by_op) {
      j["by_op"].push_back({{"op", format::mpi_op_name(op)},
                            {"calls", t.calls},
                            {"ns", t.ns},
                            {"bytes", t.bytes}});
    }
    j["threads"] = nlohmann::json::array();
    for (size_t t = 0; t < m.thread_mpi_ns.size(); ++t) {
      j["threads"].push_back({{"thread", t}, {"mpi_ns", m.thread_mpi_ns[t]}});
    }
    auto clock = [](const std::optional<analysis::MpiClockOffset>& c) -> nlohmann::json {
      if (!c) return nullptr;
      return {{"local_ns", c->local_ns}, {"offset_ns", c->offset_ns}};
    };
    j["clock"] = {{"init", clock(m.init_clock)}, {"finalize", clock(m.finalize_clock)}};
    if (ctx.options.mpi_collectives) {
      // In this rank's CLOCK_MONOTONIC; the run's report puts them on rank 0's clock.
      nlohmann::json comm = nlohmann::json::array(), arrive = comm, leave = comm;
      uint64_t start = ctx.experiment.clock.start_monotonic_ns;
      for (const analysis::MpiCollectiveCall& c : m.collectives) {
        comm.push_back(c.comm);
        arrive.push_back(start + c.begin_ns);
        leave.push_back(start + c.end_ns);
      }
      j["collectives"] = {{"host", ctx.experiment.metadata.host},
                          {"comm", comm},
                          {"arrive_ns", arrive},
                          {"leave_ns", leave}};
      // The blocking point-to-point calls, for late senders and receivers (mpi_waits.cpp).
      nlohmann::json op = nlohmann::json::array(), pcomm = op, peer = op, tag = op, begin = op,
                     end = op;
      for (const analysis::MpiP2pCall& c : m.p2p) {
        op.push_back(c.op);
        pcomm.push_back(c.comm);
        peer.push_back(c.peer);
        tag.push_back(c.tag);
        begin.push_back(start + c.begin_ns);
        end.push_back(start + c.end_ns);
      }
      j["p2p"] = {{"world", m.world_comm ? nlohmann::json(*m.world_comm) : nlohmann::json()},
                  {"op", op},
                  {"comm", pcomm},
                  {"peer", peer},
                  {"tag", tag},
                  {"begin_ns", begin},
                  {"end_ns", end}};
    }
    return j;
  }

 private:
  analysis::MpiTimePass pass_;
};

}  // namespace

std::unique_ptr<Section> make_mpi_section(const ReportOptions&) {
  return std::make_unique<MpiSection>();
}

const analysis::MpiTime* mpi_time_of(const Section& section) {
  auto* s = dynamic_cast<const MpiSection*>(&section);
  return s ? &s->result() : nullptr;
}

}  // namespace tasklens::report
