// OTF2 export: the timeline written through the OTF2 library (mapping: docs/EXPORTS.md).
//
// OTF2 export through the OTF2 library (Vampir, Scalasca, the Score-P tool chain read it): one
// location per thread, a region per construct and per task construct, enter/leave nested per
// location (tasks' contexts left and re-entered around suspensions, see timeline.h), the
// ThreadTaskCreate/Switch/Complete records of OTF2 1.2+, fork/join and team records, user
// parameters, and a "ready tasks" metric. Timestamps in ns (timer resolution 1e9). MPI calls
// (docs/MPI.md) are regions of paradigm MPI; an MPI run is one archive, a process per rank.
//
// `out` is the archive: "dir/name.otf2" writes the anchor file there (name.def and name/ beside
// it); any other path is a directory that receives traces.otf2, traces.def and traces/.
#include <otf2/otf2.h>

#include <filesystem>
#include <memory>

#include "export/formats.h"
#include "export/mpi_ranks.h"
#include "export/otf2_archive.h"
#include "export/output.h"
#include "export/timeline_exporter.h"
#include "format/mpi_ops.h"

namespace tasklens::exports {
namespace fs = std::filesystem;

namespace {

OTF2_RegionRole region_role(Construct k) {
  switch (k) {
    case Construct::kInitialTask:
      return OTF2_REGION_ROLE_FUNCTION;
    case Construct::kImplicitTask:
      return OTF2_REGION_ROLE_TASK;
    case Construct::kTask:
      return OTF2_REGION_ROLE_TASK;
    case Construct::kUntiedTask:
      return OTF2_REGION_ROLE_TASK_UNTIED;
    case Construct::kParallel:
    case Construct::kNestedParallel:
      return OTF2_REGION_ROLE_PARALLEL;
    case Construct::kBarrier:
      return OTF2_REGION_ROLE_BARRIER;
    case Construct::kImplicitBarrier:
      return OTF2_REGION_ROLE_IMPLICIT_BARRIER;
    case Construct::kTaskwait:
      return OTF2_REGION_ROLE_TASK_WAIT;
    case Construct::kTaskgroup:
      return OTF2_REGION_ROLE_TASK_WAIT;
    case Construct::kReduction:
      return OTF2_REGION_ROLE_CODE;
    case Construct::kLoop:
      return OTF2_REGION_ROLE_LOOP;
    case Construct::kSections:
      return OTF2_REGION_ROLE_SECTIONS;
    case Construct::kSingle:
      return OTF2_REGION_ROLE_SINGLE;
    case Construct::kWorkshare:
      return OTF2_REGION_ROLE_WORKSHARE;
    case Construct::kDistribute:
      return OTF2_REGION_ROLE_LOOP;
    case Construct::kTaskloop:
      return OTF2_REGION_ROLE_LOOP;
    case Construct::kScope:
      return OTF2_REGION_ROLE_CODE;
    case Construct::kMasked:
      return OTF2_REGION_ROLE_MASTER;
    case Construct::kCritical:
      return OTF2_REGION_ROLE_CRITICAL;
    case Construct::kLock:
      return OTF2_REGION_ROLE_CRITICAL;
    case Construct::kOrdered:
      return OTF2_REGION_ROLE_ORDERED;
    case Construct::kAtomic:
      return OTF2_REGION_ROLE_ATOMIC;
    case Construct::kUser:
      return OTF2_REGION_ROLE_CODE;
    case Construct::kMpi:
      return OTF2_REGION_ROLE_FUNCTION;  // refined by mpi_role
    case Construct::kCount:
      break;
  }
  return OTF2_REGION_ROLE_UNKNOWN;
}

// An MPI call's role in OTF2's terms.
OTF2_RegionRole mpi_role(uint64_t op) {
  using format::MpiOp;
  switch (MpiOp(op)) {
    case MpiOp::kBarrier:
      return OTF2_REGION_ROLE_BARRIER;
    case MpiOp::kBcast:
    case MpiOp::kScatter:
    case MpiOp::kScatterv:
      return OTF2_REGION_ROLE_COLL_ONE2ALL;
    case MpiOp::kReduce:
    case MpiOp::kGather:
    case MpiOp::kGatherv:
      return OTF2_REGION_ROLE_COLL_ALL2ONE;
    case MpiOp::kAllreduce:
    case MpiOp::kAlltoall:
    case MpiOp::kAlltoallv:
    case MpiOp::kAllgather:
    case MpiOp::kAllgatherv:
    case MpiOp::kReduceScatter:
    case MpiOp::kScan:
      return OTF2_REGION_ROLE_COLL_ALL2ALL;
    case MpiOp::kSend:
    case MpiOp::kSsend:
    case MpiOp::kRecv:
    case MpiOp::kSendrecv:
    case MpiOp::kProbe:
    case MpiOp::kWait:
    case MpiOp::kWaitall:
    case MpiOp::kWaitany:
    case MpiOp::kWaitsome:
    case MpiOp::kTest:
    case MpiOp::kTestall:
      return OTF2_REGION_ROLE_POINT2POINT;
    default:
      return OTF2_REGION_ROLE_FUNCTION;  // Init, Finalize, unknown
  }
}

OTF2_Paradigm region_paradigm(Construct k) {
  return k == Construct::kUser  ? OTF2_PARADIGM_USER
         : k == Construct::kMpi ? OTF2_PARADIGM_MPI
                                : OTF2_PARADIGM_OPENMP;
}

// A task in OTF2's terms: (creating thread, thread-private generation number). tasklens ids are
// exactly that pair (the recording thread and its counter), so they map one to one.
uint32_t creating_thread(uint64_t id) {
  return format::id_thread(id);
}
uint32_t generation(uint64_t id) {
  return uint32_t(format::id_counter(id));
}

// Where one experiment goes in the archive: alone, or one rank of an MPI run.
struct Otf2Place {
  std::string prefix;  // "rank 1: " (empty alone)
  RankClock clock;     // its times on the run's time line (identity alone)
  int64_t rank = -1;   // an MPI run's rank whose messages are written (-1: none are)
};

class Otf2Exporter final : public TimelineExporter {
 public:
  // `archive` outlives the exporter; `owned` when the exporter closes it (one experiment).
  Otf2Exporter(const format::Experiment& x, const ExportOptions& o, symbols::Symbolizer* symbols,
               Otf2Archive* archive, std::unique_ptr<Otf2Archive> owned, Otf2Place place)
      : TimelineExporter(x, o, symbols),
        archive_(archive),
        owned_(std::move(owned)),
        place_(std::move(place)) {}

  Result<bool> open() { return owned_ ? owned_->open(description(), host()) : Result<bool>(true); }
  Result<ExportSummary> finish(const replay::ReplayStats& stats) override;
  std::string description() const { return "tasklens export of " + x_.dir; }
  std::string host() const {
    return x_.metadata.host.empty() ? std::string("localhost") : x_.metadata.host;
  }

 private:
  struct Location {
    OTF2_EvtWriter* writer = nullptr;
    uint64_t events = 0;
    uint64_t last_ns = 0;  // times written never go back (a rank's clock drift could)
    uint32_t teams = 0;    // ThreadTeamBegin without End yet
    uint32_t forks = 0;    // ThreadFork without Join yet
  };

  // TimelineSink
  void begin(const TimelineInfo& info) override;
  void enter(uint32_t th, uint64_t t, uint32_t region, const TimelineTask&) override {
    if (OTF2_EvtWriter* w = writer(th)) {
      check(OTF2_EvtWriter_Enter(w, nullptr, ts(th, t), region_ref(region)));
    }
  }
  void leave(uint32_t th, uint64_t t, uint32_t region, const TimelineTask&) override {
    if (OTF2_EvtWriter* w = writer(th)) {
      check(OTF2_EvtWriter_Leave(w, nullptr, ts(th, t), region_ref(region)));
    }
  }
  void task_create(uint32_t th, uint64_t t, TimelineTask& task, const TimelineTask*) override;
  void task_switch(uint32_t th, uint64_t t, TimelineTask* task, const SwitchInfo& how) override;
  void task_end(uint32_t th, uint64_t t, TimelineTask& task) override;
  void ready_tasks(uint64_t t, uint64_t count) override;
  void fork(uint32_t th, uint64_t t, uint32_t requested) override;
  void join(uint32_t th, uint64_t t) override;
  void parameter(uint32_t th, uint64_t t, uint64_t name, int64_t value) override;
  void counter_value(uint32_t th, uint64_t t, uint32_t index, uint64_t value) override {
    OTF2_EvtWriter* w = index < counter_refs_.size() ? writer(th) : nullptr;
    if (!w) return;
    OTF2_Type type = OTF2_TYPE_UINT64;
    OTF2_MetricValue v;
    v.unsigned_int = value;
    check(OTF2_EvtWriter_Metric(w, nullptr, ts(th, t), counter_refs_[index], 1, &type, &v));
  }
  void mpi_call(uint32_t th, uint64_t t, const format::ev::MpiCall& c) override;
  void end(uint64_t t) override;

  OTF2_EvtWriter* writer(uint32_t th);
  uint64_t ts(uint32_t th, uint64_t t) {
    uint64_t out = std::max(place_.clock.map(t), locations_[th].last_ns);
    locations_[th].last_ns = out;
    return out;
  }
  uint32_t region_ref(uint32_t region);
  void check(OTF2_ErrorCode code) { archive_->check(code); }

  Otf2Archive* archive_;
  std::unique_ptr<Otf2Archive> owned_;
  Otf2Place place_;
  uint32_t group_ = 0;  // this experiment's location group (and team communicator)
  uint64_t first_location_ = 0;
  std::vector<Location> locations_;
  uint32_t metric_location_ = kNoThread;
  std::vector<uint32_t> region_refs_;         // region id - 1 -> archive ref + 1 (0: not yet)
  replay::IdMap<uint32_t> params_;            // user string id -> archive parameter ref + 1
  std::vector<OTF2_MetricRef> counter_refs_;  // the metadata's counter index -> metric ref
  uint64_t world_ = 0;  // MPI_COMM_WORLD's handle (MPI_Init's end says it; Open MPI's is 0)
  uint64_t sends_ = 0, receives_ = 0, other_comms_ = 0;
};

void Otf2Exporter::begin(const TimelineInfo& info) {
  locations_.assign(info.threads, Location{});
  for (uint32_t th = 0; th < info.threads; ++th) {
    if (filter_.thread(th)) {
      metric_location_ = th;
      break;
    }
  }
  Otf2GroupDef g;
  g.name =
      place_.prefix + x_.program_name() + " (pid " + std::to_string(x_.metadata.program.pid) + ")";
  g.host = host();
  g.shown.resize(info.threads);
  for (uint32_t th = 0; th < info.threads; ++th) g.shown[th] = filter_.thread(th);
  g.events.assign(info.threads, 0);
  g.rank = place_.rank;
  group_ = archive_->add_group(std::move(g));
  first_location_ = archive_->group(group_).first_location;
  const std::vector<std::string>& counters = x_.metadata.counters;
  for (uint32_t i = 0; i < counters.size() && i < format::kMaxCounters; ++i) {
    counter_refs_.push_back(archive_->counter(counters[i]));
  }
  archive_->window(place_.clock.map(info.from_ns), place_.clock.map(info.to_ns),
                   x_.metadata.start_unix_ns ? x_.metadata.start_unix_ns + info.from_ns : 0);
}

uint32_t Otf2Exporter::region_ref(uint32_t region) {
  if (region == 0 || region > regions_.size()) return OTF2_UNDEFINED_REGION;
  if (region_refs_.size() < regions_.size()) region_refs_.resize(regions_.size(), 0);
  uint32_t& ref = region_refs_[region - 1];
  if (ref == 0) {
    const Region& r = regions_.at(region);
    Otf2RegionDef d;
    d.name = r.name;
    d.canonical = r.function;
    d.description = construct_name(r.kind);
    d.file = r.file;
    d.line = r.line;
    d.role = r.kind == Construct::kMpi ? mpi_role(r.key) : region_role(r.kind);
    d.paradigm = region_paradigm(r.kind);
    if (r.kind == Construct::kMpi) archive_->uses_mpi();
    ref = archive_->region(d) + 1;
  }
  return ref - 1;
}

OTF2_EvtWriter* Otf2Exporter::writer(uint32_t th) {
  Location& l = locations_[th];
  if (!l.writer) {
    l.writer = archive_->evt_writer(first_location_ + th);
    if (!l.writer) return nullptr;
  }
  ++l.events;
  return l.writer;
}

void Otf2Exporter::task_create(uint32_t th, uint64_t t, TimelineTask& task, const TimelineTask*) {
  if (OTF2_EvtWriter* w = writer(th)) {
    check(OTF2_EvtWriter_ThreadTaskCreate(w, nullptr, ts(th, t), group_, creating_thread(task.id),
                                          generation(task.id)));
  }
}

void Otf2Exporter::task_switch(uint32_t th, uint64_t t, TimelineTask* task, const SwitchInfo& how) {
  if (!task) return;
  if (how.first && (task->flags & format::task_flag::kImplicit)) {
    // An implicit task starting: this thread joins the team of its parallel region.
    if (OTF2_EvtWriter* w = writer(th)) {
      check(OTF2_EvtWriter_ThreadTeamBegin(w, nullptr, ts(th, t), group_));
      ++locations_[th].teams;
      task->slot = 1;  // the team was begun: end it with the task
    }
  }
  if (OTF2_EvtWriter* w = writer(th)) {
    check(OTF2_EvtWriter_ThreadTaskSwitch(w, nullptr, ts(th, t), group_, creating_thread(task->id),
                                          generation(task->id)));
  }
}

void Otf2Exporter::task_end(uint32_t th, uint64_t t, TimelineTask& task) {
  if (task.is_implicit()) {
    if (task.slot == 1 && locations_[th].teams > 0) {
      if (OTF2_EvtWriter* w = writer(th)) {
        check(OTF2_EvtWriter_ThreadTeamEnd(w, nullptr, ts(th, t), group_));
        --locations_[th].teams;
      }
    }
    return;
  }
  if (OTF2_EvtWriter* w = writer(th)) {
    check(OTF2_EvtWriter_ThreadTaskComplete(w, nullptr, ts(th, t), group_, creating_thread(task.id),
                                            generation(task.id)));
  }
}

void Otf2Exporter::ready_tasks(uint64_t t, uint64_t count) {
  if (metric_location_ == kNoThread) return;
  if (OTF2_EvtWriter* w = writer(metric_location_)) {
    OTF2_Type type = OTF2_TYPE_UINT64;
    OTF2_MetricValue value;
    value.unsigned_int = count;
    check(OTF2_EvtWriter_Metric(w, nullptr, ts(metric_location_, t), Otf2Archive::kReadyMetric, 1,
                                &type, &value));
  }
}

void Otf2Exporter::fork(uint32_t th, uint64_t t, uint32_t requested) {
  if (OTF2_EvtWriter* w = writer(th)) {
    check(OTF2_EvtWriter_ThreadFork(w, nullptr, ts(th, t), OTF2_PARADIGM_OPENMP, requested));
    ++locations_[th].forks;
  }
}

void Otf2Exporter::join(uint32_t th, uint64_t t) {
  if (locations_[th].forks == 0) return;  // forked before the window
  if (OTF2_EvtWriter* w = writer(th)) {
    check(OTF2_EvtWriter_ThreadJoin(w, nullptr, ts(th, t), OTF2_PARADIGM_OPENMP));
    --locations_[th].forks;
  }
}

void Otf2Exporter::parameter(uint32_t th, uint64_t t, uint64_t name, int64_t value) {
  uint32_t& ref = params_[name ? name : ~uint64_t(0)];
  if (ref == 0) ref = archive_->parameter(x_.string(name)) + 1;
  if (OTF2_EvtWriter* w = writer(th)) {
    check(OTF2_EvtWriter_ParameterInt(w, nullptr, ts(th, t), ref - 1, value));
  }
}

// Point-to-point messages as Score-P writes them: MpiSend after the Enter of a blocking send,
// MpiRecv before the Leave of a receive, on MPI_COMM_WORLD (peers are ranks there). Messages on
// other communicators are left out (their ranks are not the run's: counted in a note).
void Otf2Exporter::mpi_call(uint32_t th, uint64_t t, const format::ev::MpiCall& c) {
  using format::MpiOp;
  if (place_.rank < 0) return;
  MpiOp op = MpiOp(c.mpi_op);
  bool begin = c.endpoint == uint8_t(format::Endpoint::kBegin);
  if (op == MpiOp::kInit && !begin) world_ = c.comm;
  bool send = begin && (op == MpiOp::kSend || op == MpiOp::kSsend);
  bool receive = !begin && op == MpiOp::kRecv;
  if ((!send && !receive) || c.peer < 0) return;
  if (c.comm != world_) {
    ++other_comms_;
    return;
  }
  uint32_t tag = c.tag ? c.tag - 1 : 0;
  if (OTF2_EvtWriter* w = writer(th)) {
    if (send) {
      check(OTF2_EvtWriter_MpiSend(w, nullptr, ts(th, t), uint32_t(c.peer), archive_->mpi_world(),
                                   tag, c.bytes));
      ++sends_;
    } else {
      check(OTF2_EvtWriter_MpiRecv(w, nullptr, ts(th, t), uint32_t(c.peer), archive_->mpi_world(),
                                   tag, c.bytes));
      ++receives_;
    }
  }
}

void Otf2Exporter::end(uint64_t t) {
  // Teams and forks still open at the end of the window are closed there.
  for (uint32_t th = 0; th < locations_.size(); ++th) {
    Location& l = locations_[th];
    while (l.teams > 0) {
      if (OTF2_EvtWriter* w = writer(th)) {
        check(OTF2_EvtWriter_ThreadTeamEnd(w, nullptr, ts(th, t), group_));
      }
      --l.teams;
    }
    while (l.forks > 0) {
      if (OTF2_EvtWriter* w = writer(th)) {
        check(OTF2_EvtWriter_ThreadJoin(w, nullptr, ts(th, t), OTF2_PARADIGM_OPENMP));
      }
      --l.forks;
    }
  }
}

Result<ExportSummary> Otf2Exporter::finish(const replay::ReplayStats& stats) {
  ExportSummary s;
  s.unit = "events";
  Otf2GroupDef& g = archive_->group(group_);
  for (uint32_t th = 0; th < locations_.size(); ++th) {
    Location& l = locations_[th];
    s.records_out += l.events;
    if (th < g.events.size()) g.events[th] = l.events;
    if (!l.writer && filter_.thread(th)) {
      // A location without events still needs its (empty) event file for the readers.
      l.writer = archive_->evt_writer(first_location_ + th);
    }
    archive_->close_evt_writer(l.writer);
    l.writer = nullptr;
  }
  g.metric_location =
      metric_location_ == kNoThread ? UINT64_MAX : first_location_ + metric_location_;
  if (owned_) {
    auto closed = owned_->close();
    if (!closed) return closed.error();
    s.files.push_back(owned_->anchor());
  }
  s.events_in = stats.events;
  if (sends_ || receives_) {
    s.notes.push_back(fmt::format("MPI messages: {} sent, {} received", sends_, receives_));
  }
  if (other_comms_) {
    s.notes.push_back(fmt::format("{} point-to-point calls on communicators other than "
                                  "MPI_COMM_WORLD: no message written",
                                  other_comms_));
  }
  add_timeline_notes(s);
  return s;
}

OutputPath otf2_path(const std::string& out) {
  if (fs::path(out).extension() != ".otf2") return OutputPath{out, "traces"};
  return split_output(out, ".otf2");
}

Result<std::unique_ptr<Exporter>> make_otf2_exporter(const format::Experiment& x,
                                                     const std::string& out, const ExportOptions& o,
                                                     symbols::Symbolizer* symbols) {
  auto archive = std::make_unique<Otf2Archive>(otf2_path(out));
  Otf2Archive* a = archive.get();
  return open_exporter<Otf2Exporter>(x, o, symbols, a, std::move(archive), Otf2Place{});
}

// An MPI run: every rank replayed in turn into one archive, a location group each.
Result<ExportSummary> export_otf2_run(const format::MpiRun& run, const std::string& out,
                                      const ExportOptions& o, const replay::Progress& progress) {
  auto ranks = open_run_ranks(run, o);
  if (!ranks) return ranks.error();
  Otf2Archive archive(otf2_path(out));
  std::string machine = ranks->empty() ? std::string("localhost") : ranks->front().x.metadata.host;
  auto opened = archive.open("tasklens export of the MPI run " + run.dir,
                             machine.empty() ? std::string("localhost") : machine);
  if (!opened) return opened.error();
  ExportSummary all;
  all.unit = "events";
  // Messages name ranks of MPI_COMM_WORLD: written when the run has every rank 0..n-1.
  bool messages = true;
  for (size_t i = 0; i < ranks->size(); ++i) messages &= (*ranks)[i].rank == int64_t(i);
  if (messages) archive.mpi_messages(uint32_t(ranks->size()));
  auto done = export_ranks(*ranks, o, progress, [&](RunRank& r, symbols::Symbolizer* symbols) {
    return std::make_unique<Otf2Exporter>(r.x, o, symbols, &archive, nullptr,
                                          Otf2Place{r.label() + ": ", r.clock,
                                                    messages ? r.rank : -1});
  }, all);
  if (!done) return done.error();
  auto closed = archive.close();
  if (!closed) return closed.error();
  all.files.push_back(archive.anchor());
  return all;
}

}  // namespace

extern const ExportFormat kOtf2Format;
const ExportFormat kOtf2Format = {"otf2",
                                  {},
                                  {".otf2"},
                                  false,
                                  "an OTF2 archive directory, or dir/name.otf2",
                                  "OTF2 for Vampir and the Score-P tools",
                                  25,  // measured 18-22
                                  make_otf2_exporter,
                                  export_otf2_run};

}  // namespace tasklens::exports
