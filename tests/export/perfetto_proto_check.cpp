// A reader of the Perfetto protobuf export, written from Perfetto's protos (field numbers below,
// from protos/perfetto/trace/: trace.proto, trace_packet.proto, track_event/*.proto,
// interned_data/interned_data.proto), independent of the exporter's encoder: the wire format is
// decoded field by field, unknown fields are skipped as any protobuf reader does. It checks what
// trace processor relies on (one packet sequence, interning state cleared by the first packet and
// needed by the others, every iid and track uuid defined before use, slices closed in order per
// track, flows with one start and one end), resolves delta-encoded timestamps (an incremental
// clock declared by a ClockSnapshot and made the default by TracePacketDefaults; a packet naming
// BOOTTIME is absolute) and gives the same facts as the JSON check.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>

#include "export/export_checks.h"

namespace tasklens::testing {

namespace {

// One field of a message: its number, wire type and value (varint or fixed64) or bytes.
struct Field {
  uint32_t number = 0;
  uint32_t wire = 0;
  uint64_t value = 0;
  std::string_view bytes;
};

// Reads the fields of one message in order; ok() false after a malformed one.
class FieldReader {
 public:
  explicit FieldReader(std::string_view data) : data_(data) {}
  bool ok() const { return ok_; }
  bool next(Field* f) {
    if (pos_ >= data_.size() || !ok_) return false;
    uint64_t key;
    if (!varint(&key)) return fail();
    f->number = uint32_t(key >> 3);
    f->wire = uint32_t(key & 7);
    f->bytes = {};
    switch (f->wire) {
      case 0:
        return varint(&f->value) || fail();
      case 1:
        if (pos_ + 8 > data_.size()) return fail();
        f->value = 0;
        for (int i = 7; i >= 0; --i) f->value = f->value << 8 | uint8_t(data_[pos_ + size_t(i)]);
        pos_ += 8;
        return true;
      case 2: {
        uint64_t len;
        if (!varint(&len) || len > data_.size() - pos_) return fail();
        f->bytes = data_.substr(pos_, size_t(len));
        pos_ += size_t(len);
        return true;
      }
      case 5:
        if (pos_ + 4 > data_.size()) return fail();
        pos_ += 4;
        return true;
      default:
        return fail();
    }
  }

 private:
  bool varint(uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64 && pos_ < data_.size(); shift += 7) {
      uint8_t b = uint8_t(data_[pos_++]);
      *v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  }
  bool fail() {
    ok_ = false;
    return false;
  }
  std::string_view data_;
  size_t pos_ = 0;
  bool ok_ = true;
};

struct Track {
  std::string name;  // "process / thread or lane"
  std::pair<int64_t, int64_t> id;
  bool counter = false;
};

struct Reader {
  explicit Reader(PerfettoFacts& facts) : f(facts) {}
  PerfettoFacts& f;
  std::vector<std::string> bad;
  std::map<uint64_t, std::string> names, categories, annotation_names;  // interned, by iid
  std::map<uint64_t, std::string> annotation_values;                    // interned, by iid
  std::map<uint64_t, Track> tracks;                                     // by uuid
  std::map<uint64_t, std::string> process_of;  // process track uuid -> name
  std::map<uint64_t, int64_t> pid_of;
  std::map<uint64_t, int64_t> children;  // process uuid -> lanes
  struct Open {
    std::string name;
    uint64_t ts;
    std::string args;
  };
  std::map<uint64_t, std::vector<Open>> stacks;
  std::map<uint64_t, uint64_t> last_ts;
  struct FlowEnd {
    std::string track, kind;
    uint64_t ts;
    bool instant;
  };
  std::map<uint64_t, std::vector<FlowEnd>> flows;
  uint64_t packets = 0;
  // Clocks: the sequence's incremental clock (0: none), its value, the default clock.
  uint64_t incremental_clock = 0, incremental_ts = 0, default_clock = 0;
  std::vector<uint64_t> extra_counter_tracks;  // TrackEventDefaults.extra_counter_track_uuids

  void problem(std::string s) {
    if (bad.size() < 20) bad.push_back(std::move(s));
  }

  // ClockSnapshot: clocks = 1 { clock_id = 1, timestamp = 2, is_incremental = 3 }. This reader
  // knows of one incremental clock, equal to BOOTTIME (6) at the snapshot.
  void clock_snapshot(std::string_view data) {
    FieldReader r(data);
    Field fd;
    std::map<uint64_t, uint64_t> at;
    while (r.next(&fd)) {
      if (fd.number != 1) continue;
      FieldReader c(fd.bytes);
      Field x;
      uint64_t id = 0, ts = 0;
      bool incremental = false;
      while (c.next(&x)) {
        if (x.number == 1) id = x.value;
        if (x.number == 2) ts = x.value;
        if (x.number == 3) incremental = x.value != 0;
      }
      at[id] = ts;
      if (incremental) incremental_clock = id;
    }
    if (!incremental_clock || !at.count(6) || at[6] != at[incremental_clock]) {
      return problem("clock snapshot: no incremental clock equal to BOOTTIME");
    }
    if (incremental_clock < 64 || incremental_clock > 127)
      problem("incremental clock not in 64-127");
    incremental_ts = at[incremental_clock];
  }

  void interned(std::string_view data) {
    FieldReader r(data);
    Field fd;
    while (r.next(&fd)) {
      // InternedData: event_categories = 1, event_names = 2, debug_annotation_names = 3,
      // debug_annotation_string_values = 29; each entry { iid = 1, name = 2 } (InternedString:
      // { iid = 1, str = 2 }).
      std::map<uint64_t, std::string>* table = fd.number == 1    ? &categories
                                               : fd.number == 2  ? &names
                                               : fd.number == 3  ? &annotation_names
                                               : fd.number == 29 ? &annotation_values
                                                                 : nullptr;
      if (!table || fd.wire != 2) continue;
      FieldReader e(fd.bytes);
      Field x;
      uint64_t iid = 0;
      std::string name;
      while (e.next(&x)) {
        if (x.number == 1) iid = x.value;
        if (x.number == 2) name = std::string(x.bytes);
      }
      if (!iid) problem("interned entry with iid 0");
      if (table->count(iid) && (*table)[iid] != name) problem(fmt::format("iid {} redefined", iid));
      (*table)[iid] = name;
    }
  }

  void descriptor(std::string_view data) {
    FieldReader r(data);
    Field fd;
    uint64_t uuid = 0, parent = 0;
    std::string name, process_name, thread_name;
    int64_t pid = -1, tid = -1;
    bool is_process = false, is_thread = false, counter = false;
    while (r.next(&fd)) {
      switch (fd.number) {
        case 1:
          uuid = fd.value;
          break;  // uuid
        case 2:
          name = std::string(fd.bytes);
          break;  // name
        case 5:
          parent = fd.value;
          break;  // parent_uuid
        case 8:
          counter = true;
          break;   // counter
        case 3: {  // process: pid = 1, process_name = 6
          is_process = true;
          FieldReader p(fd.bytes);
          Field x;
          while (p.next(&x)) {
            if (x.number == 1) pid = int64_t(x.value);
            if (x.number == 6) process_name = std::string(x.bytes);
          }
          break;
        }
        case 4: {  // thread: pid = 1, tid = 2, thread_name = 5
          is_thread = true;
          FieldReader p(fd.bytes);
          Field x;
          while (p.next(&x)) {
            if (x.number == 1) pid = int64_t(x.value);
            if (x.number == 2) tid = int64_t(x.value);
            if (x.number == 5) thread_name = std::string(x.bytes);
          }
          break;
        }
        default:
          break;
      }
    }
    if (!uuid) return problem("track descriptor without uuid");
    if (tracks.count(uuid) || process_of.count(uuid)) problem(fmt::format("uuid {} twice", uuid));
    if (is_process) {
      process_of[uuid] = process_name;
      pid_of[uuid] = pid;
      return;
    }
    Track t;
    t.counter = counter;
    if (is_thread) {
      std::string pname;
      for (const auto& [u, p] : pid_of) {
        if (p == pid) pname = process_of[u];
      }
      t.name = pname + " / " + thread_name;
      t.id = {pid, tid};
    } else {
      if (!process_of.count(parent))
        problem(fmt::format("track {}: unknown parent {}", uuid, parent));
      t.name = process_of[parent] + " / " + name;
      t.id = {pid_of[parent], counter ? 0 : ++children[parent]};
    }
    tracks[uuid] = t;
  }

  std::string annotation(std::string_view data) {
    // DebugAnnotation: name_iid = 1, int_value = 4, string_value = 6, string_value_iid = 17.
    FieldReader r(data);
    Field fd;
    std::string name, value;
    while (r.next(&fd)) {
      if (fd.number == 1) {
        if (!annotation_names.count(fd.value)) problem("annotation name iid not interned");
        name = annotation_names[fd.value];
      }
      if (fd.number == 4) value = std::to_string(int64_t(fd.value));
      if (fd.number == 6) value = std::string(fd.bytes);
      if (fd.number == 17) {
        if (!annotation_values.count(fd.value)) problem("annotation value iid not interned");
        value = annotation_values[fd.value];
      }
    }
    return name + "=" + value;
  }

  void track_event(std::string_view data, std::optional<uint64_t> ts) {
    FieldReader r(data);
    Field fd;
    uint64_t type = 0, uuid = 0;
    std::string name;
    std::string args;
    std::vector<uint64_t> flow_ids;
    size_t extra_counters = 0;
    while (r.next(&fd)) {
      switch (fd.number) {
        case 9:
          type = fd.value;
          break;  // type
        case 11:
          uuid = fd.value;
          break;  // track_uuid
        case 10:  // name_iid
          if (!names.count(fd.value)) problem(fmt::format("name iid {} not interned", fd.value));
          name = names[fd.value];
          break;
        case 3:  // category_iids
          if (!categories.count(fd.value)) problem("category iid not interned");
          break;
        case 4:
          args += (args.empty() ? "" : " ") + annotation(fd.bytes);
          break;
        case 47:  // flow_ids (fixed64)
          if (fd.wire != 1) problem("flow id not fixed64");
          flow_ids.push_back(fd.value);
          break;
        case 36:  // flow_ids_old (varint, read by trace processor when flow_ids is absent)
          if (fd.wire != 0) problem("flow id (flow_ids_old) not a varint");
          flow_ids.push_back(fd.value);
          break;
        case 30:
          break;  // counter_value
        case 12:
          ++extra_counters;
          break;  // extra_counter_values: the default counter tracks'
        default:
          break;
      }
    }
    if (!ts) return problem("track event without timestamp");
    if (extra_counters > extra_counter_tracks.size()) problem("extra counter value without track");
    for (size_t i = 0; i < extra_counters; ++i) {
      if (!tracks.count(extra_counter_tracks[i]) || !tracks[extra_counter_tracks[i]].counter) {
        problem(fmt::format("extra counter value on track {}: not a counter track",
                            extra_counter_tracks[i]));
      }
      ++f.counters;
    }
    if (!tracks.count(uuid)) return problem(fmt::format("event on unknown track {}", uuid));
    const Track& t = tracks[uuid];
    if (type == 4) {  // TYPE_COUNTER
      if (!t.counter) problem("counter value on a slice track");
      ++f.counters;
      ++f.counter_packets;
      return;
    }
    if (t.counter) return problem("slice event on a counter track");
    if (type == 1 || type == 2) {  // TYPE_SLICE_BEGIN, TYPE_SLICE_END
      if (last_ts.count(uuid) && *ts < last_ts[uuid]) {
        problem(fmt::format("time goes back on track {} at {}", t.name, *ts));
      }
      last_ts[uuid] = *ts;
      auto& s = stacks[uuid];
      if (type == 1) {
        if (name.empty()) problem("slice without name");
        s.push_back(Open{name, *ts, args});
        f.tracks.insert(t.id);
      } else if (s.empty()) {
        problem(fmt::format("end without begin on {} at {}", t.name, *ts));
      } else {
        ++f.slices;
        ++f.slice_names[s.back().name];
        f.slice_list.push_back(
            PerfettoSlice{t.name, s.back().name, s.back().ts, *ts, s.back().args});
        s.pop_back();
      }
    } else if (type != 3) {  // TYPE_INSTANT
      problem(fmt::format("unexpected event type {}", type));
    }
    for (uint64_t id : flow_ids) flows[id].push_back(FlowEnd{t.name, name, *ts, type == 3});
  }

  void packet(std::string_view data) {
    FieldReader r(data);
    Field fd;
    std::optional<uint64_t> ts;
    uint64_t sequence = 0, flags = 0, clock = 0;
    std::string_view event, desc, intern;
    while (r.next(&fd)) {
      switch (fd.number) {
        case 6:
          clock_snapshot(fd.bytes);
          break;    // clock_snapshot
        case 59: {  // trace_packet_defaults: track_event_defaults = 11, timestamp_clock_id = 58
          FieldReader d(fd.bytes);
          Field x;
          while (d.next(&x)) {
            if (x.number == 58) default_clock = x.value;
            if (x.number == 11) {  // TrackEventDefaults: extra_counter_track_uuids = 31
              FieldReader e(x.bytes);
              Field y;
              while (e.next(&y)) {
                if (y.number == 31) extra_counter_tracks.push_back(y.value);
              }
            }
          }
          break;
        }
        case 58:
          clock = fd.value;
          break;  // timestamp_clock_id
        case 8:
          ts = fd.value;
          break;  // timestamp
        case 10:
          sequence = fd.value;
          break;  // trusted_packet_sequence_id
        case 13:
          flags = fd.value;
          break;  // sequence_flags
        case 11:
          event = fd.bytes;
          break;  // track_event
        case 12:
          intern = fd.bytes;
          break;  // interned_data
        case 60:
          desc = fd.bytes;
          break;  // track_descriptor
        default:
          break;
      }
    }
    if (!r.ok()) return problem(fmt::format("packet {}: malformed", packets));
    if (!clock) clock = default_clock;
    if (ts && clock && clock == incremental_clock) {
      incremental_ts += *ts;  // a delta since the previous packet on that clock
      ts = incremental_ts;
    } else if (ts && clock && clock != 6) {  // BOOTTIME, the trace clock
      problem(fmt::format("packet {}: clock {} without a snapshot", packets, clock));
    }
    if (sequence != 1) problem(fmt::format("packet {}: sequence {}", packets, sequence));
    // SEQ_INCREMENTAL_STATE_CLEARED = 1 on the first and on no other (it would drop the
    // interned entries); SEQ_NEEDS_INCREMENTAL_STATE = 2 on those that add entries. Trace
    // processor resolves an event packet's iids from the sequence's state, flag or not.
    if (packets == 0 && !(flags & 1)) problem("first packet does not clear the incremental state");
    if (packets > 0 && (flags & 1))
      problem(fmt::format("packet {} clears the state again", packets));
    if (packets > 0 && !intern.empty() && !(flags & 2)) {
      problem(
          fmt::format("packet {} adds interned data without SEQ_NEEDS_INCREMENTAL_STATE", packets));
    }
    ++packets;
    if (!intern.empty()) interned(intern);
    if (!desc.empty()) descriptor(desc);
    if (!event.empty()) track_event(event, ts);
  }
};

}  // namespace

std::vector<std::string> check_perfetto_proto(const std::string& path, PerfettoFacts* facts) {
  PerfettoFacts local;
  PerfettoFacts& f = facts ? *facts : local;
  std::ifstream in(path, std::ios::binary);
  if (!in) return {path + ": missing"};
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Reader rd(f);
  FieldReader trace(data);
  Field fd;
  while (trace.next(&fd)) {
    if (fd.number != 1 || fd.wire != 2) {  // Trace: repeated TracePacket packet = 1
      rd.problem(fmt::format("Trace field {} (wire type {})", fd.number, fd.wire));
      continue;
    }
    rd.packet(fd.bytes);
  }
  if (!trace.ok()) rd.problem(path + ": truncated or malformed");
  f.events = rd.packets;
  f.interned_values = rd.annotation_values.size();
  for (const auto& [uuid, s] : rd.stacks) {
    if (!s.empty()) {
      rd.problem(fmt::format("{} slices never closed on {} (innermost: {})", s.size(),
                             rd.tracks[uuid].name, s.back().name));
    }
  }
  for (const auto& [id, ends] : rd.flows) {
    // The start is an instant, the end the slice beginning where the arrow points; a creation
    // arrow whose task did not start in the window has its start only.
    if (ends.size() == 1 && ends[0].instant && ends[0].kind == "create") {
      ++f.unended_creations;
      continue;
    }
    if (ends.size() != 2 || !ends[0].instant || ends[1].instant || ends[1].ts < ends[0].ts) {
      rd.problem(fmt::format("flow {}: {} events", id, ends.size()));
      continue;
    }
    ++f.flows[ends[0].kind];
    f.flow_list.push_back(
        PerfettoFlow{ends[0].kind, ends[0].track, ends[0].ts, ends[1].track, ends[1].ts});
  }
  std::sort(f.slice_list.begin(), f.slice_list.end());
  std::sort(f.flow_list.begin(), f.flow_list.end());
  f.bytes = std::filesystem::file_size(path);
  return rd.bad;
}

}  // namespace tasklens::testing
