// DOT export: the task graph (creation, dependence, join and taskwait edges) for Graphviz.
//
// The task graph as Graphviz DOT. Small graphs: one node per task (its construct, id and running
// time), creation edges (parent -> child), dependence edges (predecessor -> successor) and one
// join node per taskwait (children created since the previous taskwait -> taskwait). Large
// graphs: one node per task construct and per taskwait construct, weighted by instances and
// running time, with the same edges counted. ExportOptions::graph chooses; kAuto switches to the
// collapsed graph above ExportOptions::max_graph_tasks tasks (memory stays bounded either way).
#include "export/formats.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "export/output.h"
#include "export/recent.h"
#include "export/timeline_exporter.h"
#include "format/event_views.h"
#include "format/constructs.h"
#include "format/plural.h"

namespace tasklens::exports {

using format::Construct;
using format::Kind;
using replay::TaskState;

namespace {

enum class EdgeKind : uint8_t { kCreate, kDepend, kJoin, kWaits };

constexpr const char* kPalette[] = {"#a6cee3", "#b2df8a", "#fb9a99", "#fdbf6f", "#cab2d6",
                                    "#ffff99", "#8dd3c7", "#bebada", "#fccde5", "#d9d9d9"};

const char* edge_style(EdgeKind k) {
  switch (k) {
    case EdgeKind::kCreate: return "color=\"gray40\"";
    case EdgeKind::kDepend: return "color=\"red3\", penwidth=2";
    case EdgeKind::kJoin: return "color=\"blue3\", style=dashed";
    case EdgeKind::kWaits: return "color=\"gray60\", style=dotted, arrowhead=none";
  }
  return "";
}

// "3 created", "1 dependence", "2 taskwaits": an edge's count and what it counts.
std::string edge_words(EdgeKind k, uint64_t n) {
  switch (k) {
    case EdgeKind::kCreate: return std::to_string(n) + " created";
    case EdgeKind::kDepend: return format::plural(n, "dependence");
    case EdgeKind::kJoin: return std::to_string(n) + " joined";
    case EdgeKind::kWaits: return format::plural(n, "taskwait");
  }
  return std::to_string(n);
}

using format::dot_quote;

class DotExporter final : public Exporter, public replay::Pass {
 public:
  DotExporter(const format::Experiment& x, const ExportOptions& o, symbols::Symbolizer* symbols,
              std::string path)
      : x_(x), options_(o), symbols_(symbols), filter_(make_filter(o)), path_(std::move(path)),
        detailed_(o.graph != GraphDetail::kConstructs) {}

  Result<bool> open() { return out_.open(path_); }
  replay::Pass& pass() override { return *this; }
  bool uses_before() const override { return false; }
  void after(const replay::Record& r, const replay::TaskModel& m) override;
  Result<ExportSummary> finish(const replay::ReplayStats& stats) override;

 private:
  struct Node {
    uint64_t id;
    uint32_t construct;
    Construct kind;
    uint64_t run_ns = 0;
  };
  struct Edge {
    uint32_t from, to;  // node indices
    EdgeKind kind;
  };
  struct Group {  // the nodes of one construct (its instances)
    std::string name;
    Construct kind;  // kTask, kImplicitTask (code 0: the initial task) or kTaskwait
    uint64_t instances = 0;
    uint64_t run_ns = 0;
  };
  struct Live {
    uint32_t construct = 0;
    bool shown = false;
    bool counted = false;  // counted as an instance of its construct
    uint32_t node = 0;  // index + 1 in nodes_, 0: none (yet)
    uint64_t running_since = 0;
    uint64_t run_ns = 0;
    std::vector<uint32_t> kid_nodes;                           // since the last taskwait
    std::vector<std::pair<uint32_t, uint64_t>> kid_constructs;  // (construct, count), ditto
  };
  struct Done {  // a completed task, for dependences learned later
    uint32_t construct;
    uint32_t node;
    bool shown;
  };

  uint32_t construct(Construct kind, uint64_t code);
  uint32_t node_of(uint64_t id, Live& t);  // the task's node, made on first need
  void edge(uint32_t from_node, uint32_t to_node, uint32_t from_construct, uint32_t to_construct,
            EdgeKind kind);
  void on_create(uint64_t id, uint64_t parent, uint32_t construct, bool shown);
  void on_taskwait(uint64_t task, uint64_t code);
  void on_taskwait_depend(uint64_t id, uint64_t creator, uint64_t code, bool shown);
  void drop_details();
  void write_tasks();
  void write_constructs();

  const format::Experiment& x_;
  ExportOptions options_;
  symbols::Symbolizer* symbols_;
  Filter filter_;
  std::string path_;
  TextOut out_;
  bool detailed_;
  replay::IdMap<Live> live_;
  RecentTasks<Done> done_;
  std::vector<Group> constructs_;
  std::map<std::pair<Construct, uint64_t>, uint32_t> construct_index_;
  std::map<std::tuple<uint32_t, uint32_t, EdgeKind>, uint64_t> construct_edges_;
  std::vector<Node> nodes_;
  std::vector<Edge> edges_;
  uint64_t tasks_ = 0;      // explicit tasks shown
  uint64_t dependences_ = 0;  // dependence edges between tasks shown
  uint64_t taskwaits_ = 0;  // taskwaits that joined children
};

uint32_t DotExporter::construct(Construct kind, uint64_t code) {
  auto [it, fresh] = construct_index_.emplace(std::pair{kind, code}, uint32_t(constructs_.size()));
  if (fresh) {
    std::string where = code ? (symbols_ ? symbols_->short_name(code) : format::address_text(code))
                             : std::string();
    std::string name = format::construct_name(
        kind == Construct::kImplicitTask && !code ? Construct::kInitialTask : kind);
    if (!where.empty()) name += " " + where;
    constructs_.push_back(Group{name, kind});
  }
  return it->second;
}

uint32_t DotExporter::node_of(uint64_t id, Live& t) {
  if (!detailed_) return 0;
  if (t.node == 0) {
    nodes_.push_back(Node{id, t.construct, constructs_[t.construct].kind});
    t.node = uint32_t(nodes_.size());
  }
  return t.node;
}

void DotExporter::edge(uint32_t from_node, uint32_t to_node, uint32_t from_construct,
                       uint32_t to_construct, EdgeKind kind) {
  ++construct_edges_[std::make_tuple(from_construct, to_construct, kind)];
  if ((kind == EdgeKind::kDepend || kind == EdgeKind::kWaits) &&
      ++dependences_ > options_.max_graph_dependences && options_.graph == GraphDetail::kAuto &&
      detailed_) {
    drop_details();
  }
  if (detailed_ && from_node && to_node) edges_.push_back(Edge{from_node - 1, to_node - 1, kind});
}

void DotExporter::drop_details() {
  detailed_ = false;
  nodes_ = {};
  edges_ = {};
  live_.for_each([](uint64_t, Live& t) {
    t.node = 0;
    t.kid_nodes = {};
  });
}

void DotExporter::on_create(uint64_t id, uint64_t parent, uint32_t c, bool shown) {
  if (id == 0) return;  // no task (a damaged trace): IdMap reserves key 0
  Live& t = live_[id];
  t = Live{};
  t.construct = c;
  t.shown = shown;
  if (!shown) return;
  t.counted = true;
  ++tasks_;
  ++constructs_[c].instances;
  if (options_.graph == GraphDetail::kAuto && detailed_ && tasks_ > options_.max_graph_tasks) {
    drop_details();
  }
  uint32_t node = 0;
  if (detailed_) node = node_of(id, *live_.find(id));
  Live* p = live_.find(parent);
  if (!p || !p->shown) return;
  if (!p->counted) {
    // An implicit task is drawn (and counted) once it creates a task shown.
    p->counted = true;
    ++constructs_[p->construct].instances;
  }
  uint32_t pnode = detailed_ ? node_of(parent, *p) : 0;
  edge(pnode, node, p->construct, c, EdgeKind::kCreate);
  if (detailed_) p->kid_nodes.push_back(node);
  auto& kids = p->kid_constructs;
  auto k = std::find_if(kids.begin(), kids.end(), [&](const auto& e) { return e.first == c; });
  if (k == kids.end()) kids.emplace_back(c, 1);
  else ++k->second;
}

void DotExporter::on_taskwait(uint64_t task, uint64_t code) {
  Live* p = live_.find(task);
  if (!p || !p->shown || p->kid_constructs.empty()) return;
  ++taskwaits_;
  uint32_t tw = construct(Construct::kTaskwait, code);
  ++constructs_[tw].instances;
  uint32_t join = 0;
  if (detailed_) {
    nodes_.push_back(Node{task, tw, Construct::kTaskwait});
    join = uint32_t(nodes_.size());
    for (uint32_t kid : p->kid_nodes) edges_.push_back(Edge{kid - 1, join - 1, EdgeKind::kJoin});
    edges_.push_back(Edge{node_of(task, *p) - 1, join - 1, EdgeKind::kWaits});
  }
  for (const auto& [c, n] : p->kid_constructs) {
    construct_edges_[std::make_tuple(c, tw, EdgeKind::kJoin)] += n;
  }
  ++construct_edges_[std::make_tuple(p->construct, tw, EdgeKind::kWaits)];
  p->kid_nodes.clear();
  p->kid_constructs.clear();
}

// The task libomp makes for `taskwait depend(...)` (format::is_taskwait_depend) never runs: it is
// drawn as its creator's taskwait, which the tasks it names join by their dependence edges (the
// model's, below), not as a task.
void DotExporter::on_taskwait_depend(uint64_t id, uint64_t creator, uint64_t code, bool shown) {
  if (id == 0) return;  // IdMap reserves key 0
  const uint32_t tw = construct(Construct::kTaskwait, code);
  Live& t = live_[id];
  t = Live{};
  t.construct = tw;
  t.shown = shown;
  if (!shown) return;
  ++taskwaits_;
  ++constructs_[tw].instances;
  const uint32_t node = detailed_ ? node_of(id, t) : 0;
  Live* p = live_.find(creator);
  if (!p || !p->shown) return;
  if (!p->counted) {
    p->counted = true;
    ++constructs_[p->construct].instances;
  }
  edge(detailed_ ? node_of(creator, *p) : 0, node, p->construct, tw, EdgeKind::kWaits);
}

void DotExporter::after(const replay::Record& r, const replay::TaskModel& m) {
  const format::Event& e = r.ev;
  const uint64_t t = e.time;
  bool shown = filter_.shows(r.thread, t);
  switch (e.kind) {
    case Kind::kImplicitTask: {
      const auto it = format::ev::ImplicitTask::of(e);
      if (it.endpoint == uint8_t(format::Endpoint::kBegin) && it.task) {
        uint64_t code = m.region_code(it.region);
        if (it.flags & format::task_flag::kInitial) code = 0;
        Live& t2 = live_[it.task];
        t2 = Live{};
        t2.construct = construct(Construct::kImplicitTask, code);
        t2.shown = shown;
      }
      break;
    }
    case Kind::kTaskCreate: {
      const auto tc = format::ev::TaskCreate::of(e);
      if (format::is_taskwait_depend(tc.flags)) {
        on_taskwait_depend(tc.task, tc.parent, m.task_code(tc.task), shown);
        break;
      }
      on_create(tc.task, tc.parent, construct(Construct::kTask, m.task_code(tc.task)), shown);
      break;
    }
    case Kind::kSyncRegion: {
      const auto s = format::ev::SyncRegion::of(e);
      if (s.sync_kind == uint16_t(format::SyncKind::kTaskwait) &&
          s.endpoint == uint8_t(format::Endpoint::kBegin)) {
        on_taskwait(format::ev::task_or(s.task, m.thread(r.thread).current), s.codeptr);
      }
      break;
    }
    default:
      break;
  }
  for (const replay::Edge& d : m.new_edges()) {
    Live* succ = live_.find(d.succ);
    if (!succ || !succ->shown) continue;
    uint32_t succ_node = succ->node;
    uint32_t succ_construct = succ->construct;
    if (Live* pred = live_.find(d.pred)) {
      if (pred->shown) edge(pred->node, succ_node, pred->construct, succ_construct, EdgeKind::kDepend);
    } else if (const Done* p = done_.find(d.pred)) {
      if (p->shown) edge(detailed_ ? p->node : 0, succ_node, p->construct, succ_construct,
                         EdgeKind::kDepend);
    }
  }
  for (const replay::Transition& tr : m.transitions()) {
    Live* task = live_.find(tr.task);
    if (!task) continue;
    if (tr.from == TaskState::kRunning) task->run_ns += t - task->running_since;
    if (tr.to == TaskState::kRunning) task->running_since = t;
    if (tr.to != TaskState::kCompleted) continue;
    if (task->shown) {
      constructs_[task->construct].run_ns += task->run_ns;
      if (detailed_ && task->node) nodes_[task->node - 1].run_ns = task->run_ns;
    }
    done_.add(tr.task, Done{task->construct, detailed_ ? task->node : 0, task->shown});
    live_.erase(tr.task);
  }
}

void DotExporter::write_tasks() {
  out_.print("digraph tasks {{\n  graph [label={}, labelloc=t, fontname=\"Helvetica\"];\n",
             dot_quote(fmt::format("{}: task graph ({}; gray: creation, red: dependence, "
                                   "blue dashed: joined by a taskwait)",
                                   x_.program_name(), format::plural(tasks_, "task"))));
  out_.write("  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n");
  out_.write("  edge [arrowsize=0.7];\n");
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    const Group& c = constructs_[n.construct];
    if (n.kind == Construct::kTaskwait) {
      out_.print("  n{} [label={}, shape=octagon, style=filled, fillcolor=\"#eeeeee\", "
                 "fontsize=8];\n",
                 i, dot_quote(c.name));
      continue;
    }
    std::string label = c.name + "\\n" + id_text(n.id);
    if (n.kind == Construct::kTask) label += "\\n" + duration_text(n.run_ns);
    out_.print("  n{} [label=\"{}\", fillcolor=\"{}\"{}];\n", i, label,
               kPalette[n.construct % std::size(kPalette)],
               n.kind == Construct::kImplicitTask ? ", shape=box3d" : "");
  }
  for (const Edge& e : edges_) {
    out_.print("  n{} -> n{} [{}];\n", e.from, e.to, edge_style(e.kind));
  }
  out_.write("}\n");
}

void DotExporter::write_constructs() {
  uint64_t total = 0;
  for (const Group& c : constructs_) {
    if (c.kind == Construct::kTask) total += c.run_ns;
  }
  out_.print("digraph task_constructs {{\n  graph [label={}, labelloc=t, fontname=\"Helvetica\"];\n",
             dot_quote(fmt::format("{}: task graph per construct ({}; edge labels count "
                                   "instances)",
                                   x_.program_name(), format::plural(tasks_, "task"))));
  out_.write("  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n");
  for (size_t i = 0; i < constructs_.size(); ++i) {
    const Group& c = constructs_[i];
    if (c.instances == 0) continue;
    if (c.kind == Construct::kTaskwait) {
      out_.print("  c{} [label=\"{}\\n{}\", shape=octagon, style=filled, "
                 "fillcolor=\"#eeeeee\"];\n",
                 i, c.name, format::plural(c.instances, "taskwait"));
      continue;
    }
    double share = total ? double(c.run_ns) / double(total) : 0;
    std::string label = fmt::format(
        "{}\\n{}", c.name,
        format::plural(c.instances, c.kind == Construct::kImplicitTask ? "instance" : "task"));
    if (c.kind == Construct::kTask) {
      label += fmt::format("\\nrunning {} ({:.1f}%)\\nmean {}", duration_text(c.run_ns),
                           100 * share, duration_text(c.run_ns / c.instances));
    }
    out_.print("  c{} [label=\"{}\", fillcolor=\"{}\", penwidth={:.1f}{}];\n", i, label,
               kPalette[i % std::size(kPalette)], 1 + 5 * share,
               c.kind == Construct::kImplicitTask ? ", shape=box3d" : "");
  }
  for (const auto& [key, n] : construct_edges_) {
    const auto& [from, to, kind] = key;
    if (!constructs_[from].instances || !constructs_[to].instances) continue;
    out_.print("  c{} -> c{} [label=\"{}\", fontsize=9, {}];\n", from, to, edge_words(kind, n),
               edge_style(kind));
  }
  out_.write("}\n");
}

Result<ExportSummary> DotExporter::finish(const replay::ReplayStats& stats) {
  ExportSummary s;
  s.unit = "nodes and edges";
  if (detailed_) {
    write_tasks();
    s.records_out = nodes_.size() + edges_.size();
    s.notes.push_back(fmt::format("one node per task: {}, {}", format::plural(tasks_, "task"),
                                  format::plural(taskwaits_, "taskwait join")));
  } else {
    write_constructs();
    uint64_t n = 0;
    for (const Group& c : constructs_) n += c.instances ? 1 : 0;
    s.records_out = n + construct_edges_.size();
    s.notes.push_back(fmt::format(
        "one node per construct: {}{}", format::plural(tasks_, "task"),
        options_.graph == GraphDetail::kAuto
            ? (tasks_ > options_.max_graph_tasks
                   ? fmt::format(" (more than {}; --graph tasks draws every task)",
                                 options_.max_graph_tasks)
                   : fmt::format(" and {} (more than {}, too many for Graphviz to lay out "
                                 "soon; --graph tasks draws every task)",
                                 format::plural(dependences_, "dependence"),
                                 options_.max_graph_dependences))
            : std::string()));
  }
  auto closed = out_.close();
  if (!closed) return closed.error();
  s.files.push_back(path_);
  return s;
}

Result<std::unique_ptr<Exporter>> make_dot_exporter(const format::Experiment& x,
                                                    const std::string& out, const ExportOptions& o,
                                                    symbols::Symbolizer* symbols) {
  return open_exporter<DotExporter>(x, o, symbols, out);
}

}  // namespace

extern const ExportFormat kDotFormat;
const ExportFormat kDotFormat = {
    "dot", {"graphviz"}, {".dot", ".gv"}, true,
    "a DOT file",
    "the task graph as Graphviz DOT",
    0,  // one node per construct beyond --max-graph-tasks
    make_dot_exporter,
    nullptr};

}  // namespace tasklens::exports
