// tasklens dump: every event of an experiment in time order, as text or JSON lines.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <map>

#include "cli/commands.h"
#include "cli/event_format.h"
#include "format/event_views.h"
#include "format/experiment.h"
#include "format/kinds.h"
#include "format/text.h"
#include "replay/merged_stream.h"

namespace tasklens::cli {
namespace {

struct DumpOptions {
  std::string dir;
  bool json = false;
  bool no_symbols = false;
};

// Dependence records arrive one per dependence; dump shows one "dependences" line per task.
struct PendingDeps {
  format::Event first;
  nlohmann::json deps = nlohmann::json::array();
  std::string text;
};

int dump(const DumpOptions& o) {
  auto x = format::open_experiment(o.dir);
  if (!x) {
    std::fprintf(stderr, "tasklens dump: %s\n", x.error().message.c_str());
    return 2;
  }
  auto stream = replay::MergedStream::open(*x);  // a profile-mode experiment: refused by name
  if (!stream) {
    std::fprintf(stderr, "tasklens dump: %s\n", stream.error().message.c_str());
    return 2;
  }
  symbols::Symbolizer symbols(x->metadata.objects, !o.no_symbols);
  std::map<uint32_t, PendingDeps> pending;
  std::string out;
  auto flush_out = [&] {
    std::fwrite(out.data(), 1, out.size(), stdout);
    out.clear();
  };
  replay::Record r;
  while ((*stream)->next(r)) {
    const format::Event& e = r.ev;
    if (e.kind == format::Kind::kDependence) {
      const auto d = format::ev::Dependence::of(e);
      PendingDeps& p = pending[r.thread];
      if (d.index == 0) p = PendingDeps{e, nlohmann::json::array(), {}};
      std::string type(format::dependence_type_name(d.type));
      p.deps.push_back({{"address", format::address_text(d.address)}, {"type", type}});
      p.text += fmt::format(" {}:{:#x}", type, d.address);
      if (d.index + 1 < d.ndeps) continue;
      if (o.json) {
        nlohmann::json j = {{"t", p.first.time}, {"thread", r.thread}, {"kind", "dependences"},
                            {"task", d.task}, {"deps", p.deps}};
        out += j.dump() + "\n";
      } else {
        out += fmt::format("{:>15} T{:<3} {:<16} task={} deps={}\n", p.first.time, r.thread,
                           "dependences", id_text(d.task), p.deps.size()) ;
        out.insert(out.size() - 1, p.text);
      }
      pending.erase(r.thread);
    } else if (o.json) {
      out += event_json(e, r.thread, symbols).dump() + "\n";
    } else {
      out += event_text(e, r.thread, symbols) + "\n";
    }
    if (out.size() > (1 << 16)) flush_out();
  }
  flush_out();
  int status = x->damage.empty() ? 0 : 1;
  for (const auto& d : x->damage) std::fprintf(stderr, "tasklens dump: %s\n", d.c_str());
  for (const auto& p : (*stream)->problems()) {
    std::fprintf(stderr, "tasklens dump: %s\n", p.message.c_str());
    if (p.severity == format::Problem::Severity::kDataLost) status = 1;
  }
  return status;
}

}  // namespace

void add_dump_command(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<DumpOptions>();
  CLI::App* sub = app.add_subcommand(
      "dump", "Print every recorded event in time order (times in ns since the start of the run)");
  sub->add_option("dir", o->dir, "Experiment directory")->required();
  sub->add_flag("--json", o->json, "One JSON object per line (fields: docs/FORMAT.md)");
  sub->add_flag("--no-symbols", o->no_symbols, "Do not turn code addresses into source locations");
  sub->callback([o, exit_code] { *exit_code = dump(*o); });
}

}  // namespace tasklens::cli
