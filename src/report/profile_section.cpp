// The profile section of `tasklens report`, as text tables and JSON.
#include "report/profile_section.h"

#include <fmt/format.h>

#include "analysis/creation_cost.h"
#include "analysis/profile.h"
#include "format/kinds.h"
#include "format/plural.h"
#include "report/text_format.h"

namespace tasklens::report {
namespace {

using analysis::NodeKind;
using analysis::NodeMetrics;
using analysis::Profile;
using analysis::ProfileNode;
using analysis::Stat;
using analysis::TaskConstruct;

std::string work_name(uint16_t type) {
  using format::WorkType;
  switch (WorkType(type)) {
    case WorkType::kSingleExecutor: return "single";
    case WorkType::kSingleOther: return "single (not executed here)";
    default: return std::string(format::work_type_name(type));
  }
}

std::string barrier_name(uint16_t kind) {
  using format::SyncKind;
  switch (SyncKind(kind)) {
    case SyncKind::kBarrierExplicit: return "barrier";
    case SyncKind::kBarrierImplicit:
    case SyncKind::kBarrierImplicitParallel: return "implicit barrier";
    case SyncKind::kBarrierImplicitWorkshare: return "implicit barrier (worksharing)";
    case SyncKind::kBarrierImplementation: return "barrier (runtime)";
    case SyncKind::kBarrierTeams: return "teams barrier";
    default: return "barrier";
  }
}

// "what where": the construct's kind and its source location.
// A task construct without a code address: a task whose creation the trace lacks, or one libomp
// created with a null code address (a few tasks GCC's GOMP_task runs at once). "Creation not
// recorded" was wrong for the second kind.
constexpr const char* kNoAddress = "(no code address)";

std::string label(const ProfileNode& n, const ReportContext& ctx) {
  auto at = [&](const std::string& what) {
    return n.code ? what + " " + ctx.symbols.short_name(n.code) : what;
  };
  switch (n.kind) {
    case NodeKind::kProgram: return "program " + ctx.experiment.program_name();
    case NodeKind::kParallel: return at("parallel");
    case NodeKind::kTask:
      return n.code ? at("task") : std::string("task ") + kNoAddress;
    case NodeKind::kStub:
      return (n.code ? at("task") : std::string("task ") + kNoAddress) + " [stub]";
    case NodeKind::kCreate: return at("create task");
    case NodeKind::kBarrier: return at(barrier_name(n.sub));
    case NodeKind::kTaskwait: return at("taskwait");
    case NodeKind::kTaskgroup: return at("taskgroup");
    case NodeKind::kReduction: return at("reduction");
    case NodeKind::kWork: return at(work_name(n.sub));
    case NodeKind::kMasked: return at("masked");
    case NodeKind::kMutexWait: return at(std::string(format::mutex_kind_name(n.sub)) + " wait");
    case NodeKind::kTaskyield: return "taskyield";
    case NodeKind::kUser: return "region " + n.name;
    case NodeKind::kParam: return fmt::format("{}={}", n.name, n.value);
    case NodeKind::kCount: break;
  }
  return "?";
}

nlohmann::json metrics_json(const NodeMetrics& m) {
  return {{"visits", m.visits},
          {"fragments", m.fragments},
          {"inclusive_ns", stat_json(m.inclusive)},
          {"exclusive_ns", stat_json(m.exclusive)}};
}

nlohmann::json node_json(const Profile& p, uint32_t index, const ReportContext& ctx) {
  const ProfileNode& n = p.nodes[index];
  nlohmann::json j = {{"kind", analysis::node_kind_name(n.kind)}, {"label", label(n, ctx)}};
  switch (n.kind) {
    case NodeKind::kUser:
      j["name"] = n.name;
      break;
    case NodeKind::kParam:
      j["name"] = n.name;
      j["value"] = n.value;
      break;
    case NodeKind::kBarrier:
    case NodeKind::kReduction:
      j["sync_kind"] = format::sync_kind_name(n.sub);
      break;
    case NodeKind::kWork:
      j["work_type"] = format::work_type_name(n.sub);
      break;
    case NodeKind::kMutexWait:
      j["mutex_kind"] = format::mutex_kind_name(n.sub);
      break;
    default:
      break;
  }
  if (n.kind != NodeKind::kUser && n.kind != NodeKind::kParam && n.code) {
    add_code_fields(j, n.code, ctx.symbols);
  }
  j["metrics"] = metrics_json(n.total);
  if (!n.counters.empty()) {
    nlohmann::json& counters = j["counters"] = nlohmann::json::object();
    for (size_t i = 0; i < n.counters.size() && i < p.counter_names.size(); ++i) {
      counters[p.counter_names[i]] = stat_json(n.counters[i]);
    }
  }
  j["threads"] = nlohmann::json::array();
  for (uint32_t t = 0; t < n.threads.size(); ++t) {
    if (n.threads[t].visits == 0) continue;
    nlohmann::json row = metrics_json(n.threads[t]);
    row["thread"] = t;
    j["threads"].push_back(row);
  }
  j["children"] = nlohmann::json::array();
  for (uint32_t c : n.children) j["children"].push_back(node_json(p, c, ctx));
  return j;
}

std::string tree_header() {
  return fmt::format("  {:>12} {:>6} {:>12} {:>10} {:>8} {:>12} {:>12}  {}\n", "inclusive", "%",
                     "exclusive", "visits", "frags", "mean incl", "max incl", "node");
}

void tree_rows(const Profile& p, uint32_t index, int level, uint64_t whole,
               const ReportContext& ctx, std::string& out) {
  const ProfileNode& n = p.nodes[index];
  const NodeMetrics& m = n.total;
  bool cut = ctx.options.depth >= 0 && level >= ctx.options.depth && !n.children.empty();
  out += fmt::format("  {:>12} {:>6} {:>12} {:>10} {:>8} {:>12} {:>12}  {}{}{}\n",
                     duration(m.inclusive.sum), percent(m.inclusive.sum, whole),
                     duration(m.exclusive.sum), count(m.visits), count(m.fragments),
                     mean_duration(m.inclusive.mean()), duration(m.inclusive.max),
                     std::string(size_t(2 * level), ' '), label(n, ctx),
                     cut ? fmt::format("  (+{} below)", n.children.size()) : "");
  if (cut) return;
  for (uint32_t c : n.children) tree_rows(p, c, level + 1, whole, ctx, out);
}

std::string construct_name(const TaskConstruct& c, const ReportContext& ctx) {
  return c.codeptr ? ctx.symbols.short_name(c.codeptr) : kNoAddress;
}

// perf_event counters per construct (`tasklens run --counters`): mean and sum per instance.
void counter_rows(const Profile& p, const ReportContext& ctx, std::string& out) {
  if (p.tasks.empty() || p.tasks.front().counters.empty()) return;
  out += "\nCounters per task instance (perf_event, summed over each instance's fragments)\n";
  out += fmt::format("  {:<28}", "construct");
  for (const auto& [name, s] : p.tasks.front().counters) {
    out += fmt::format(" {:>16} {:>12}", "mean " + name, "sum");
  }
  out += "\n";
  for (const TaskConstruct& c : p.tasks) {
    out += fmt::format("  {:<28}", construct_name(c, ctx));
    for (const auto& [name, s] : c.counters) {
      out += fmt::format(" {:>16.1f} {:>12}", s.mean(), count(s.sum));
    }
    out += "\n";
  }
}

class ProfileSection : public Section {
 public:
  explicit ProfileSection(const ReportOptions&) {}
  replay::Pass& pass() override { return pass_; }
  bool use_profile_mode(const analysis::ProfileModeData& data) override {
    loaded_ = &data.profile;
    return true;
  }
  const Profile& result() const { return loaded_ ? *loaded_ : pass_.result(); }

  void text(const ReportContext& ctx, std::string& out) override {
    const Profile& p = result();
    out += fmt::format(
        "Call-path profile (Score-P, Lorenz et al.): time summed over threads, % of all threads' "
        "time ({}),\nhottest paths first; [stub] = tasks of that construct ran at this point of "
        "the implicit task\n",
        duration(p.total_time_ns));
    out += tree_header();
    for (uint32_t r : p.roots) tree_rows(p, r, 0, p.total_time_ns, ctx, out);
    if (p.tasks.empty()) {
      out += "\nNo explicit tasks.\n";
      return;
    }
    out += "\nTask trees (one per task construct; an instance's time stops while it is "
           "suspended)\n";
    out += tree_header();
    for (uint32_t r : p.task_roots) tree_rows(p, r, 0, p.total_time_ns, ctx, out);

    out += "\nTask constructs (Score-P, Lorenz et al., Table I; creation = task_create to the creator's next "
           "event)\n";
    out += fmt::format("  {:<28} {:>10} {:>11} {:>11} {:>11} {:>12} {:>11} {:>11} {:>6}\n",
                       "construct", "instances", "mean time", "min time", "max time", "total",
                       "creation", "to start", "max/th");
    for (const TaskConstruct& c : p.tasks) {
      out += fmt::format("  {:<28} {:>10} {:>11} {:>11} {:>11} {:>12} {:>11} {:>11} {:>6}\n",
                         construct_name(c, ctx), count(c.instances),
                         mean_duration(c.time.mean()), duration(c.time.min),
                         duration(c.time.max), duration(c.time.sum),
                         mean_duration(c.creation.mean()),
                         mean_duration(c.start_delay.mean()),
                         c.max_active_per_thread);
      if (c.unfinished || c.discarded || c.migrations) {
        out += fmt::format("  {:<28} {} unfinished at the end, {} discarded (cancelled), {} "
                           "migrations\n",
                           "", c.unfinished, c.discarded, c.migrations);
      }
    }
    counter_rows(p, ctx, out);
    for (const TaskConstruct& c : p.tasks) {
      for (const auto& split : c.params) {
        out += fmt::format("\nTask {} by {} (Score-P, Lorenz et al., Table IV)\n",
                           construct_name(c, ctx), split.name);
        out += fmt::format("  {:>14} {:>12} {:>12} {:>12}\n", split.name, "mean time", "sum",
                           "instances");
        for (const auto& v : split.values) {
          out += fmt::format("  {:>14} {:>12} {:>12} {:>12}\n", v.value,
                             mean_duration(v.time.mean()), duration(v.time.sum),
                             count(v.time.count));
        }
        if (split.set_again) {
          out += fmt::format("  {} set {} more than once: each counts under its first value\n",
                             format::plural(split.set_again, "instance", "", count(split.set_again)),
                             split.name);
        }
      }
    }
    out += "\nMost task instances active at once on one thread (Score-P, Lorenz et al., Table II):";
    for (uint32_t t = 0; t < p.max_active_per_thread.size(); ++t) {
      out += fmt::format(" T{} {}", t, p.max_active_per_thread[t]);
    }
    out += "\n";
    if (p.unmatched_ends) {
      out += fmt::format("  note: {} end events had no open region (damaged trace?)\n",
                         p.unmatched_ends);
    }
    if (p.bad_counter_samples) {
      out += fmt::format(
          "  note: {} counter samples were damaged or could not be read: the counters' sums per "
          "task miss what they measured\n",
          p.bad_counter_samples);
    }
  }

  nlohmann::json json(const ReportContext& ctx) override {
    const Profile& p = result();
    nlohmann::json prof = {{"threads", p.threads},
                           {"total_time_ns", p.total_time_ns},
                           {"thread_time_ns", p.thread_time_ns},
                           {"max_active_tasks_per_thread", p.max_active_per_thread},
                           {"unmatched_ends", p.unmatched_ends},
                           {"bad_counter_samples", p.bad_counter_samples}};
    prof["trees"] = nlohmann::json::array();
    for (uint32_t r : p.roots) prof["trees"].push_back(node_json(p, r, ctx));
    prof["task_trees"] = nlohmann::json::array();
    for (uint32_t r : p.task_roots) prof["task_trees"].push_back(node_json(p, r, ctx));
    return prof;
  }

  // The `tasks` array: a top-level key of its own.
  void extra_json(const ReportContext& ctx, nlohmann::json& doc) override {
    nlohmann::json tasks = nlohmann::json::array();
    const analysis::CreationCost& creation = analysis::creation_cost(ctx.experiment);
    for (const TaskConstruct& c : result().tasks) {
      const symbols::Location& loc = ctx.symbols.resolve(c.codeptr);
      nlohmann::json j = {
          {"codeptr", format::address_text(c.codeptr)},
          {"location", construct_name(c, ctx)},
          {"function", loc.function},
          {"created", c.created},
          {"instances", c.instances},
          {"unfinished", c.unfinished},
          {"discarded", c.discarded},
          {"fragments", c.fragments},
          {"migrations", c.migrations},
          {"time_ns", stat_json(c.time)},
          {"creation_ns", stat_json(c.creation)},
          {"start_delay_ns", stat_json(c.start_delay)},
          {"creation_estimate_ns", creation.of(c.codeptr)},
          {"max_active_per_thread", c.max_active_per_thread},
      };
      add_codeptrs(j, c.codeptr, ctx.symbols);
      if (!c.counters.empty()) {
        nlohmann::json& counters = j["counters"] = nlohmann::json::object();
        for (const auto& [name, s] : c.counters) counters[name] = stat_json(s);
      }
      j["parameters"] = nlohmann::json::array();
      for (const auto& split : c.params) {
        nlohmann::json values = nlohmann::json::array();
        for (const auto& v : split.values) {
          values.push_back({{"value", v.value},
                            {"instances", v.time.count},
                            {"time_ns", stat_json(v.time)}});
        }
        j["parameters"].push_back(
            {{"name", split.name}, {"values", values}, {"set_again", split.set_again}});
      }
      tasks.push_back(j);
    }
    doc["tasks"] = tasks;
  }

 private:
  analysis::ProfilePass pass_;
  const Profile* loaded_ = nullptr;  // profile mode: the data read from profile.json
};

}  // namespace

nlohmann::json stat_json(const analysis::Stat& s) {
  return {{"sum", s.sum}, {"min", s.min}, {"max", s.max}, {"mean", s.mean()}};
}

std::unique_ptr<Section> make_profile_section(const ReportOptions& options) {
  return std::make_unique<ProfileSection>(options);
}

}  // namespace tasklens::report
