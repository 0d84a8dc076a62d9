// Perfetto export in Perfetto's own protobuf trace format (`--to perfetto`, `.pftrace`): the
// layout of perfetto_timeline.h written as TracePackets of one packet sequence, with names,
// categories and argument names interned, times delta-encoded. About 4x smaller than the JSON form
// (docs/EXPORTS.md).
//
// Field numbers, from Perfetto's public protos (github.com/google/perfetto, protos/perfetto/):
//   trace/trace.proto                       Trace { repeated TracePacket packet = 1 }
//   trace/trace_packet.proto                TracePacket { clock_snapshot = 6, timestamp = 8,
//                                           trusted_packet_sequence_id = 10, track_event = 11,
//                                           interned_data = 12, sequence_flags = 13,
//                                           timestamp_clock_id = 58, trace_packet_defaults = 59,
//                                           track_descriptor = 60 }; SequenceFlags
//                                           SEQ_INCREMENTAL_STATE_CLEARED = 1,
//                                           SEQ_NEEDS_INCREMENTAL_STATE = 2
//   trace/track_event/track_descriptor.proto TrackDescriptor { uuid = 1, name = 2, process = 3,
//                                           thread = 4, parent_uuid = 5, counter = 8 }
//   trace/track_event/process_descriptor.proto ProcessDescriptor { pid = 1,
//                                           legacy_sort_index = 3, process_name = 6 }
//   trace/track_event/thread_descriptor.proto ThreadDescriptor { pid = 1, tid = 2,
//                                           thread_name = 5 }
//   trace/track_event/counter_descriptor.proto CounterDescriptor (no field needed)
//   trace/track_event/track_event.proto     TrackEvent { category_iids = 3,
//                                           debug_annotations = 4, type = 9, name_iid = 10,
//                                           track_uuid = 11, counter_value = 30,
//                                           flow_ids_old = 36 (varint), flow_ids = 47
//                                           (fixed64) }; Type TYPE_SLICE_BEGIN = 1,
//                                           TYPE_SLICE_END = 2, TYPE_INSTANT = 3,
//                                           TYPE_COUNTER = 4; EventCategory and EventName
//                                           { iid = 1, name = 2 }
//   trace/track_event/debug_annotation.proto DebugAnnotation { name_iid = 1, int_value = 4,
//                                           string_value = 6, string_value_iid = 17 };
//                                           DebugAnnotationName { iid = 1, name = 2 }
//   trace/interned_data/interned_data.proto InternedData { event_categories = 1,
//                                           event_names = 2, debug_annotation_names = 3,
//                                           debug_annotation_string_values = 29 };
//                                           InternedString { iid = 1, str = 2 }
//   trace/clock_snapshot.proto              ClockSnapshot { clocks = 1 }; Clock { clock_id = 1,
//                                           timestamp = 2, is_incremental = 3 }; ids 1-63 are
//                                           built in (BOOTTIME = 6, the default trace clock),
//                                           64-127 the sequence's own
//   trace/trace_packet_defaults.proto       TracePacketDefaults { track_event_defaults = 11,
//                                           timestamp_clock_id = 58 }
//   trace/track_event/track_event.proto     TrackEventDefaults { extra_counter_track_uuids = 31 };
//                                           TrackEvent { extra_counter_values = 12 }
// Timestamps are delta-encoded: the first packet declares clock 64 as incremental (each packet's
// timestamp is the nanoseconds since the previous one on that clock) and equal to BOOTTIME at the
// window's start, and makes it the sequence's default clock. A packet whose time is earlier than
// the previous one (an arrow's start: a creation, a predecessor's end) gives its absolute time on
// BOOTTIME (timestamp_clock_id = 6), as Perfetto's own SDK does.
// Sequence flags: the first packet clears the sequence's incremental state; the packets that
// bring interned entries say they need it. Event packets only refer to the state and carry no
// flag (2 bytes a packet): trace processor reads SEQ_NEEDS_INCREMENTAL_STATE only to drop a
// packet when the state is invalid (after data loss, which a file written whole has not),
// and resolves iids and the incremental clock from the sequence's state either way.
// Task ids (`T1#123`, the values of the `task` and `parent` annotations) are interned too
// (string_value_iid): an id is used 2-6 times on fib (its frames, its instance, its children's),
// 11 bytes inline against 3-4 as an iid. The encoder remembers the iids of recent ids only (a
// fixed cache, recent.h): an id it forgot is interned again under a new iid.
// Flow ids are written as flow_ids_old (varints: the small ids 1, 2, ... take 3-5 bytes, not
// fixed64's 10), which trace processor reads as flow_ids when the latter is absent.
// The ready-tasks counter rides on the event packet written just before at the same instant
// (extra_counter_values, its track named once in the defaults) instead of a packet of its own:
// an event packet is closed only when the next packet starts.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <unordered_map>

#include "export/formats.h"
#include "export/mpi_ranks.h"
#include "export/output.h"
#include "export/perfetto_timeline.h"
#include "export/proto_writer.h"
#include "export/recent.h"

namespace tasklens::exports {

namespace {

namespace field {
constexpr uint32_t kTracePacket = 1;  // Trace
// TracePacket
constexpr uint32_t kClockSnapshot = 6, kTimestamp = 8, kSequenceId = 10, kTrackEvent = 11,
                   kInternedData = 12, kSequenceFlags = 13, kTimestampClockId = 58,
                   kPacketDefaults = 59, kTrackDescriptor = 60;
// ClockSnapshot, its Clock, and TracePacketDefaults (timestamp_clock_id = 58 as in TracePacket)
constexpr uint32_t kClocks = 1, kClockId = 1, kClockTimestamp = 2, kIsIncremental = 3;
constexpr uint32_t kBootTime = 6, kIncrementalClock = 64;
constexpr uint32_t kIncrementalStateCleared = 1, kNeedsIncrementalState = 2;  // sequence_flags
// TrackDescriptor
constexpr uint32_t kUuid = 1, kTrackName = 2, kProcess = 3, kThread = 4, kParentUuid = 5,
                   kCounter = 8;
constexpr uint32_t kPid = 1, kSortIndex = 3, kProcessName = 6;  // ProcessDescriptor
constexpr uint32_t kTid = 2, kThreadName = 5;                   // ThreadDescriptor (and kPid)
// TrackEvent
constexpr uint32_t kCategoryIids = 3, kDebugAnnotations = 4, kType = 9, kNameIid = 10,
                   kTrackUuid = 11, kExtraCounterValues = 12, kCounterValue = 30, kFlowIdsOld = 36;
constexpr uint32_t kTrackEventDefaults = 11, kExtraCounterTrackUuids = 31;  // packet defaults
constexpr uint32_t kSliceBegin = 1, kSliceEnd = 2, kInstant = 3, kCounterEvent = 4;  // type
// DebugAnnotation
constexpr uint32_t kAnnotationNameIid = 1, kIntValue = 4, kStringValue = 6, kStringValueIid = 17;
// InternedData; each entry is { iid = 1, name = 2 } (InternedString: { iid = 1, str = 2 })
constexpr uint32_t kEventCategories = 1, kEventNames = 2, kDebugAnnotationNames = 3,
                   kAnnotationStringValues = 29;
constexpr uint32_t kIid = 1, kInternedName = 2;
}  // namespace field

constexpr uint64_t kSequence = 1;  // every packet is on one sequence
constexpr size_t kFlushAt = size_t(1) << 20;

// One interning index (names, categories or annotation names): iids 1, 2, ... in order of first
// use; the entries not yet written go into the next packet's interned_data.
struct InternTable {
  uint32_t field = 0;  // InternedData field
  std::unordered_map<std::string, uint64_t> ids;
  std::vector<std::pair<const char*, uint64_t>> literals;  // string literals met, by address
  std::vector<std::pair<uint64_t, std::string>> fresh;

  uint64_t intern(const std::string& s) {
    auto it = ids.find(s);
    if (it != ids.end()) return it->second;
    uint64_t iid = ids.size() + 1;
    ids.emplace(s, iid);
    fresh.emplace_back(iid, s);
    return iid;
  }
  // For the layout's fixed names and categories: found by address, no string built per event.
  uint64_t intern(const char* literal) {
    for (const auto& [p, iid] : literals) {
      if (p == literal) return iid;
    }
    uint64_t iid = intern(std::string(literal));
    literals.emplace_back(literal, iid);
    return iid;
  }
};

// Where one experiment goes in the trace: alone, or one rank of an MPI run (docs/MPI.md), whose
// packets are a sequence of their own, with its own track uuids, process and thread ids (pid:
// rank * 1000 + the layout's pid; tid: rank * 1000000 + thread + 1), names prefixed with the rank,
// and its times moved by the rank's shift on the run's time line (the incremental clock starts
// there).
struct PerfettoPlace {
  uint64_t sequence = kSequence;
  uint64_t first_uuid = 1;
  int64_t pid_base = 0, tid_base = 0;
  std::string prefix;
  uint64_t shift_ns = 0;
};

class PerfettoProtoExporter final : public PerfettoTimeline {
 public:
  PerfettoProtoExporter(const format::Experiment& x, const ExportOptions& o,
                        symbols::Symbolizer* symbols, std::string path, PerfettoPlace place = {})
      : PerfettoTimeline(x, o, symbols),
        path_(std::move(path)),
        place_(std::move(place)),
        next_uuid_(place_.first_uuid) {
    names_.field = field::kEventNames;
    categories_.field = field::kEventCategories;
    annotation_names_.field = field::kDebugAnnotationNames;
    task_values_.field = field::kAnnotationStringValues;
  }

  Result<bool> open() {
    auto opened = out_.open(path_);
    if (opened) out_.write_behind();  // hundreds of MB: the kernel's copy overlaps the encoding
    return opened;
  }
  Result<ExportSummary> finish(const replay::ReplayStats& stats) override;

 private:
  TASKLENS_PERFETTO_ENCODER_OVERRIDES

  // A packet: its wrapper, then the caller's fields, then end_packet() (interned entries, flags).
  size_t begin_packet();
  void end_packet(size_t at);
  // A track-event packet up to the event's own fields; end_event() leaves it open for a counter
  // value at the same instant, close_event() closes it (the next packet does).
  std::pair<size_t, size_t> begin_event(uint64_t t, uint64_t track, uint32_t type);
  void end_event(std::pair<size_t, size_t> at);
  void close_event();
  // A `task` or `parent` annotation: the id as an interned string.
  void task_annotation(const char* name, uint64_t id);
  uint64_t region_iid(uint32_t region);
  uint64_t& uuid_of(uint32_t pid, uint32_t tid);
  uint64_t track(uint32_t pid, uint32_t tid) { return uuid_of(pid, tid); }

  std::string path_;
  PerfettoPlace place_;
  TextOut out_;
  ProtoWriter w_;
  uint64_t packets_ = 0;
  uint64_t last_ts_ = 0;  // the incremental clock's value
  InternTable names_, categories_, annotation_names_;
  InternTable task_values_;          // task ids as annotation values: only `fresh` is used
  RecentTasks<uint64_t> task_iids_;  // task id -> its iid, for the recent ones
  uint64_t task_iid_count_ = 0;
  std::vector<uint64_t> region_iids_;         // region id -> name iid (0: not yet)
  std::vector<std::vector<uint64_t>> uuids_;  // [process][tid] -> track uuid (0: none)
  uint64_t next_uuid_;
  uint64_t counter_uuid_ = 0;  // named in the header's defaults
  bool counter_described_ = false;
  bool event_open_ = false;  // the last packet is an event packet not closed yet
  std::pair<size_t, size_t> open_at_{};
  uint64_t open_ts_ = 0;
  uint64_t event_ts_ = 0;                         // the time of the event being written
  std::vector<std::vector<uint64_t>> flow_ends_;  // thread -> flows ending at its next slice
};

size_t PerfettoProtoExporter::begin_packet() {
  close_event();
  size_t at = w_.open(field::kTracePacket);
  w_.uint_field(field::kSequenceId, place_.sequence);
  return at;
}

void PerfettoProtoExporter::end_packet(size_t at) {
  bool any_fresh = false;
  InternTable* const tables[] = {&names_, &categories_, &annotation_names_, &task_values_};
  for (InternTable* t : tables) any_fresh |= !t->fresh.empty();
  if (any_fresh) {
    size_t data = w_.open(field::kInternedData);
    for (InternTable* t : tables) {
      for (const auto& [iid, name] : t->fresh) {
        size_t entry = w_.open(t->field);
        w_.uint_field(field::kIid, iid);
        w_.bytes_field(field::kInternedName, name);
        w_.close(entry);
      }
      t->fresh.clear();
    }
    w_.close(data);
  }
  // The first packet starts the sequence's interning state; later ones rely on it (see the top).
  if (packets_ == 0) {
    w_.uint_field(field::kSequenceFlags, field::kIncrementalStateCleared);
  } else if (any_fresh) {
    w_.uint_field(field::kSequenceFlags, field::kNeedsIncrementalState);
  }
  w_.close(at);
  ++packets_;
  if (w_.size() >= kFlushAt) {
    out_.write(w_.data());
    w_.clear();
  }
}

uint64_t& PerfettoProtoExporter::uuid_of(uint32_t pid, uint32_t tid) {
  size_t p = pid == kPerfettoThreadsPid ? 0 : pid - kPerfettoFirstConstructPid + 1;
  if (p >= uuids_.size()) uuids_.resize(p + 1);
  if (tid >= uuids_[p].size()) uuids_[p].resize(tid + 1, 0);
  return uuids_[p][tid];
}

void PerfettoProtoExporter::header(uint64_t from_ns) {
  last_ts_ = from_ns;
  size_t at = begin_packet();
  size_t snapshot = w_.open(field::kClockSnapshot);
  size_t boot = w_.open(field::kClocks);
  w_.uint_field(field::kClockId, field::kBootTime);
  w_.uint_field(field::kClockTimestamp, from_ns + place_.shift_ns);
  w_.close(boot);
  size_t incremental = w_.open(field::kClocks);
  w_.uint_field(field::kClockId, field::kIncrementalClock);
  w_.uint_field(field::kClockTimestamp, from_ns + place_.shift_ns);
  w_.uint_field(field::kIsIncremental, 1);
  w_.close(incremental);
  w_.close(snapshot);
  counter_uuid_ = next_uuid_++;
  size_t defaults = w_.open(field::kPacketDefaults);
  size_t event_defaults = w_.open(field::kTrackEventDefaults);
  w_.uint_field(field::kExtraCounterTrackUuids, counter_uuid_);
  w_.close(event_defaults);
  w_.uint_field(field::kTimestampClockId, field::kIncrementalClock);
  w_.close(defaults);
  end_packet(at);
}

void PerfettoProtoExporter::process(uint32_t pid, const std::string& name, uint32_t sort_index) {
  uint64_t& uuid = uuid_of(pid, 0);
  uuid = next_uuid_++;
  size_t at = begin_packet();
  size_t desc = w_.open(field::kTrackDescriptor);
  w_.uint_field(field::kUuid, uuid);
  size_t proc = w_.open(field::kProcess);
  w_.int_field(field::kPid, place_.pid_base + pid);
  w_.int_field(field::kSortIndex, place_.pid_base + sort_index);
  w_.bytes_field(field::kProcessName, place_.prefix + name);
  w_.close(proc);
  w_.close(desc);
  end_packet(at);
}

void PerfettoProtoExporter::thread(uint32_t pid, uint32_t tid, const std::string& name) {
  uint64_t parent = uuid_of(pid, 0);
  uint64_t& uuid = uuid_of(pid, tid);
  uuid = next_uuid_++;
  size_t at = begin_packet();
  size_t desc = w_.open(field::kTrackDescriptor);
  w_.uint_field(field::kUuid, uuid);
  if (pid == kPerfettoThreadsPid) {
    // A thread track of the program's "process".
    size_t th = w_.open(field::kThread);
    w_.int_field(field::kPid, place_.pid_base + pid);
    w_.int_field(field::kTid, place_.tid_base + tid);
    w_.bytes_field(field::kThreadName, name);
    w_.close(th);
  } else {
    // A lane: a named track of its construct's process (a thread track would need a tid unique in
    // the whole trace).
    w_.uint_field(field::kParentUuid, parent);
    w_.bytes_field(field::kTrackName, name);
  }
  w_.close(desc);
  end_packet(at);
}

std::pair<size_t, size_t> PerfettoProtoExporter::begin_event(uint64_t t, uint64_t track,
                                                             uint32_t type) {
  size_t packet = begin_packet();
  event_ts_ = t;
  if (t >= last_ts_) {
    w_.uint_field(field::kTimestamp, t - last_ts_);
    last_ts_ = t;
  } else {
    w_.uint_field(field::kTimestamp, t + place_.shift_ns);
    w_.uint_field(field::kTimestampClockId, field::kBootTime);
  }
  size_t event = w_.open(field::kTrackEvent);
  w_.uint_field(field::kType, type);
  w_.uint_field(field::kTrackUuid, track);
  return {packet, event};
}

void PerfettoProtoExporter::end_event(std::pair<size_t, size_t> at) {
  event_open_ = true;
  open_at_ = at;
  open_ts_ = event_ts_;
}

void PerfettoProtoExporter::close_event() {
  if (!event_open_) return;
  event_open_ = false;
  w_.close(open_at_.second);
  end_packet(open_at_.first);
}

void PerfettoProtoExporter::task_annotation(const char* name, uint64_t id) {
  size_t a = w_.open(field::kDebugAnnotations);
  w_.uint_field(field::kAnnotationNameIid, annotation_names_.intern(name));
  if (id == 0) {  // no task (the initial task's parent): the cache cannot hold id 0
    w_.bytes_field(field::kStringValue, id_text(id));
  } else {
    const uint64_t* known = task_iids_.find(id);
    uint64_t iid = known ? *known : ++task_iid_count_;
    if (!known) {
      task_iids_.add(id, iid);
      task_values_.fresh.emplace_back(iid, id_text(id));
    }
    w_.uint_field(field::kStringValueIid, iid);
  }
  w_.close(a);
}

uint64_t PerfettoProtoExporter::region_iid(uint32_t region) {
  if (region >= region_iids_.size()) region_iids_.resize(region + 1, 0);
  if (!region_iids_[region]) region_iids_[region] = names_.intern(regions_.at(region).name);
  return region_iids_[region];
}

void PerfettoProtoExporter::begin_region(uint32_t pid, uint32_t tid, uint64_t t, uint32_t region,
                                         const char* category, const TimelineTask* task) {
  auto at = begin_event(t, track(pid, tid), field::kSliceBegin);
  w_.uint_field(field::kCategoryIids, categories_.intern(category));
  w_.uint_field(field::kNameIid, region_iid(region));
  if (task) {
    task_annotation("task", task->id);
    task_annotation("parent", task->parent);
  }
  // Arrows end at the slice that begins next on their thread (the task's frame).
  if (pid == kPerfettoThreadsPid && tid - 1 < flow_ends_.size()) {
    for (uint64_t id : flow_ends_[tid - 1]) w_.uint_field(field::kFlowIdsOld, id);
    flow_ends_[tid - 1].clear();
  }
  end_event(at);
}

void PerfettoProtoExporter::begin_state(uint32_t pid, uint32_t tid, uint64_t t, const char* name) {
  auto at = begin_event(t, track(pid, tid), field::kSliceBegin);
  w_.uint_field(field::kCategoryIids, categories_.intern("task state"));
  w_.uint_field(field::kNameIid, names_.intern(name));
  end_event(at);
}

void PerfettoProtoExporter::end_slice(uint32_t pid, uint32_t tid, uint64_t t) {
  end_event(begin_event(t, track(pid, tid), field::kSliceEnd));
}

// The start: an instant inside the slice open there (a dependence's or a migration's in the past:
// trace processor sorts packets by time).
void PerfettoProtoExporter::flow_start(const char* kind, uint64_t id, uint32_t th, uint64_t t) {
  auto at = begin_event(t, track(kPerfettoThreadsPid, th + 1), field::kInstant);
  w_.uint_field(field::kCategoryIids, categories_.intern(kind));
  w_.uint_field(field::kNameIid, names_.intern(kind));
  w_.uint_field(field::kFlowIdsOld, id);
  end_event(at);
}

// The end: the next slice beginning on th's track.
void PerfettoProtoExporter::flow_end(const char*, uint64_t id, uint32_t th, uint64_t) {
  if (th >= flow_ends_.size()) flow_ends_.resize(th + 1);
  flow_ends_[th].push_back(id);
}

void PerfettoProtoExporter::counter(uint64_t t, uint64_t ready) {
  if (!counter_described_) {
    counter_described_ = true;
    size_t at = begin_packet();
    size_t desc = w_.open(field::kTrackDescriptor);
    w_.uint_field(field::kUuid, counter_uuid_);
    w_.uint_field(field::kParentUuid, uuid_of(kPerfettoThreadsPid, 0));
    w_.bytes_field(field::kTrackName, "ready tasks");
    w_.close(w_.open(field::kCounter));
    w_.close(desc);
    end_packet(at);
  }
  if (event_open_ && open_ts_ == t) {
    w_.int_field(field::kExtraCounterValues, int64_t(ready));
    close_event();
    return;
  }
  auto at = begin_event(t, counter_uuid_, field::kCounterEvent);
  w_.int_field(field::kCounterValue, int64_t(ready));
  end_event(at);
}

void PerfettoProtoExporter::parameter_value(uint32_t th, uint64_t t, const std::string& name,
                                            int64_t value) {
  auto at = begin_event(t, track(kPerfettoThreadsPid, th + 1), field::kInstant);
  w_.uint_field(field::kCategoryIids, categories_.intern("parameter"));
  w_.uint_field(field::kNameIid, names_.intern(name));
  size_t a = w_.open(field::kDebugAnnotations);
  w_.uint_field(field::kAnnotationNameIid, annotation_names_.intern("value"));
  w_.int_field(field::kIntValue, value);
  w_.close(a);
  end_event(at);
}

Result<ExportSummary> PerfettoProtoExporter::finish(const replay::ReplayStats& stats) {
  close_event();
  out_.write(w_.data());
  w_.clear();
  auto closed = out_.close();
  if (!closed) return closed.error();
  return summary(path_, packets_, "trace packets", out_.bytes(), "ui.perfetto.dev");
}

Result<std::unique_ptr<Exporter>> make_perfetto_proto_exporter(const format::Experiment& x,
                                                               const std::string& out,
                                                               const ExportOptions& o,
                                                               symbols::Symbolizer* symbols) {
  return open_exporter<PerfettoProtoExporter>(x, o, symbols, out);
}

// An MPI run: every rank written as a sequence of its own into a part file, the parts then
// joined (a trace is its packets one after the other, so the files' bytes are).
Result<ExportSummary> export_perfetto_proto_run(const format::MpiRun& run, const std::string& out,
                                                const ExportOptions& o,
                                                const replay::Progress& progress) {
  auto ranks = open_run_ranks(run, o);
  if (!ranks) return ranks.error();
  auto dirs = make_parent_dirs(out);
  if (!dirs) return dirs.error();
  std::ofstream joined(out, std::ios::binary | std::ios::trunc);
  if (!joined) return Error{"cannot write " + out};
  ExportSummary all;
  all.unit = "trace packets";
  for (size_t i = 0; i < ranks->size(); ++i) {
    RunRank& r = (*ranks)[i];
    PerfettoPlace place;
    place.sequence = kSequence + i;
    place.first_uuid = (uint64_t(i) << 40) + 1;
    place.pid_base = r.rank * 1000;
    place.tid_base = r.rank * 1000000;
    place.prefix = r.label() + ": ";
    place.shift_ns = uint64_t(std::max<int64_t>(0, r.clock.shift_ns));
    std::string part = out + ".rank-" + std::to_string(r.rank) + ".part";
    symbols::Symbolizer symbols(r.x.metadata.objects, o.symbols);
    PerfettoProtoExporter e(r.x, o, &symbols, part, place);
    auto opened = e.open();
    if (!opened) return opened.error();
    auto stats = replay::run_replay(r.x, {&e.pass()}, progress, &symbols);
    if (!stats) return Error{r.label() + ": " + stats.error().message};
    auto s = e.finish(*stats);
    if (!s) return s.error();
    std::ifstream in(part, std::ios::binary);
    joined << in.rdbuf();
    in.close();
    std::remove(part.c_str());
    all.events_in += stats->events;
    all.records_out += s->records_out;
    for (const auto& n : s->notes) all.notes.push_back(r.label() + ": " + n);
    for (const auto& p : stats->problems) all.notes.push_back(r.label() + ": " + p.message);
  }
  joined.close();
  if (!joined) return Error{"cannot write " + out};
  all.files.push_back(out);
  return all;
}

}  // namespace

extern const ExportFormat kPerfettoFormat;
const ExportFormat kPerfettoFormat = {
    "perfetto",
    {"pftrace", "protobuf"},
    {".pftrace", ".perfetto-trace"},
    true,
    "a Perfetto protobuf trace file",
    "Perfetto's protobuf trace (ui.perfetto.dev, trace_processor)",
    40,  // fib 22-30 (2 threads) 37-38, BOTS uts 62k 37.9
    make_perfetto_proto_exporter,
    export_perfetto_proto_run};

}  // namespace tasklens::exports
