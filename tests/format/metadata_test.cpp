// format::Metadata: written to JSON and read back it is the same struct, member by member; the
// experiment.json of the checked-in version-1 fixture reads into it; a recorded-style file (every
// member the recorder writes) reads every member; and the stream inventory open_experiment takes.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "format/chunk.h"
#include "format/experiment.h"
#include "format/metadata.h"
#include "format/metadata_keys.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::format {
namespace {

// Every member set, none to its default.
Metadata full_metadata() {
  Metadata m;
  m.format = key::kFormatMarker;
  m.format_version = 7;
  m.tool = {"tasklens", "0.1.0", "/usr/lib/libtasklens.so"};
  m.status = "crashed";
  m.mode = "profile";
  m.end_reason = "signal 11 (SEGV)";
  m.program = {4242, {"./app", "-n", "20"}, "/opt/app"};
  m.parent = Metadata::Parent{41, 40, ".."};
  m.processes = {{4300, "pid-4300"}, {4301, "pid-4301"}};
  m.host = "node7";
  m.start_unix_ns = 1700000000123456789ull;
  m.process = {12345, "proc_stat"};
  m.machine = {2, 8};
  m.preemption = Metadata::Preemption{"perf_switch", "none", 2, 40, 3};
  m.runtime.version = "LLVM OMP 14";
  m.runtime.code = {{0x7f0000001000ull, 0x7f0000090000ull}};
  m.runtime.callbacks = {{"ompt_callback_task_create", "always"}, {"ompt_callback_work", "never"}};
  m.clock.source = "tsc";
  m.clock.invariant_tsc = true;
  m.clock.start = {1000, 2000};
  m.clock.end = {9000, 5000};
  m.clock.end_is_final = true;
  Metadata::Thread t0;
  t0 = {0, 5001, 100, 2, 4096, 1, 777, 5, 4321};
  Metadata::Thread t1;
  t1.index = 1, t1.os_tid = 5002, t1.events = 50, t1.chunks = 1, t1.bytes = 2048, t1.lost = 2;
  m.threads = {t0, t1};
  m.recorder = {1 << 20, 65536,  1600, 3, "drop", 150,
                3,       1,      99,   4, 123456, "No space left on device",
                true,    2500000};
  m.explicit_tasks = 21;
  m.counts = std::map<std::string, uint64_t>{{"task_create", 21}, {"parallel_begin", 1}};
  m.objects = {{"/opt/app", 0x400000}, {"/usr/lib/libomp.so.5", 0x7f0000000000ull}};
  m.strings = {"phase", "depth"};
  return m;
}

void expect_same(const Metadata& a, const Metadata& b) {
  EXPECT_EQ(a.format, b.format);
  EXPECT_EQ(a.format_version, b.format_version);
  EXPECT_EQ(a.tool.name, b.tool.name);
  EXPECT_EQ(a.tool.version, b.tool.version);
  EXPECT_EQ(a.tool.library, b.tool.library);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.mode, b.mode);
  EXPECT_EQ(a.end_reason, b.end_reason);
  EXPECT_EQ(a.program.pid, b.program.pid);
  EXPECT_EQ(a.program.args, b.program.args);
  EXPECT_EQ(a.program.path, b.program.path);
  ASSERT_EQ(a.parent.has_value(), b.parent.has_value());
  if (a.parent) {
    EXPECT_EQ(a.parent->ppid, b.parent->ppid);
    EXPECT_EQ(a.parent->top_pid, b.parent->top_pid);
    EXPECT_EQ(a.parent->experiment, b.parent->experiment);
  }
  ASSERT_EQ(a.processes.size(), b.processes.size());
  for (size_t i = 0; i < a.processes.size(); ++i) {
    EXPECT_EQ(a.processes[i].pid, b.processes[i].pid);
    EXPECT_EQ(a.processes[i].dir, b.processes[i].dir);
  }
  EXPECT_EQ(a.host, b.host);
  EXPECT_EQ(a.start_unix_ns, b.start_unix_ns);
  EXPECT_EQ(a.process.start_ns, b.process.start_ns);
  EXPECT_EQ(a.process.start_source, b.process.start_source);
  EXPECT_EQ(a.machine.affinity_cpus, b.machine.affinity_cpus);
  EXPECT_EQ(a.machine.online_cpus, b.machine.online_cpus);
  ASSERT_EQ(a.preemption.has_value(), b.preemption.has_value());
  if (a.preemption) {
    EXPECT_EQ(a.preemption->source, b.preemption->source);
    EXPECT_EQ(a.preemption->error, b.preemption->error);
    EXPECT_EQ(a.preemption->perf_event_paranoid, b.preemption->perf_event_paranoid);
    EXPECT_EQ(a.preemption->records, b.preemption->records);
    EXPECT_EQ(a.preemption->lost, b.preemption->lost);
  }
  EXPECT_EQ(a.runtime.version, b.runtime.version);
  EXPECT_EQ(a.runtime.code, b.runtime.code);
  EXPECT_EQ(a.runtime.callbacks, b.runtime.callbacks);
  EXPECT_EQ(a.clock.source, b.clock.source);
  EXPECT_EQ(a.clock.invariant_tsc, b.clock.invariant_tsc);
  EXPECT_EQ(a.clock.start, b.clock.start);
  EXPECT_EQ(a.clock.end, b.clock.end);
  EXPECT_EQ(a.clock.end_is_final, b.clock.end_is_final);
  ASSERT_EQ(a.threads.size(), b.threads.size());
  for (size_t i = 0; i < a.threads.size(); ++i) {
    const Metadata::Thread &x = a.threads[i], &y = b.threads[i];
    EXPECT_EQ(x.index, y.index);
    EXPECT_EQ(x.os_tid, y.os_tid);
    EXPECT_EQ(x.events, y.events);
    EXPECT_EQ(x.chunks, y.chunks);
    EXPECT_EQ(x.bytes, y.bytes);
    EXPECT_EQ(x.lost, y.lost);
    EXPECT_EQ(x.cpu_ns, y.cpu_ns);
    EXPECT_EQ(x.involuntary_switches, y.involuntary_switches);
    EXPECT_EQ(x.run_delay_ns, y.run_delay_ns);
  }
  const Metadata::Recorder &r = a.recorder, &s = b.recorder;
  EXPECT_EQ(r.buffer_bytes, s.buffer_bytes);
  EXPECT_EQ(r.chunk_bytes, s.chunk_bytes);
  EXPECT_EQ(r.chunk_events, s.chunk_events);
  EXPECT_EQ(r.peak_chunks_in_use, s.peak_chunks_in_use);
  EXPECT_EQ(r.overflow, s.overflow);
  EXPECT_EQ(r.events_written, s.events_written);
  EXPECT_EQ(r.events_lost, s.events_lost);
  EXPECT_EQ(r.threads_refused, s.threads_refused);
  EXPECT_EQ(r.stall_ticks, s.stall_ticks);
  EXPECT_EQ(r.times_clamped, s.times_clamped);
  EXPECT_EQ(r.writer_cpu_ns, s.writer_cpu_ns);
  EXPECT_EQ(r.write_error, s.write_error);
  EXPECT_EQ(r.disk_full, s.disk_full);
  EXPECT_EQ(r.run_delay_before_ns, s.run_delay_before_ns);
  EXPECT_EQ(a.explicit_tasks, b.explicit_tasks);
  EXPECT_EQ(a.counts, b.counts);
  ASSERT_EQ(a.objects.size(), b.objects.size());
  for (size_t i = 0; i < a.objects.size(); ++i) {
    EXPECT_EQ(a.objects[i].path, b.objects[i].path);
    EXPECT_EQ(a.objects[i].base, b.objects[i].base);
  }
  EXPECT_EQ(a.strings, b.strings);
}

TEST(Metadata, WrittenThenReadIsTheSameStruct) {
  Metadata m = full_metadata();
  std::string text = metadata_to_json(m).dump(1);
  Metadata back = metadata_from_json(nlohmann::json::parse(text));
  expect_same(m, back);
  // Spot checks that the comparison compares: a member that differs is seen.
  EXPECT_EQ(back.threads[0].cpu_ns, 777u);
  EXPECT_EQ(back.threads[0].run_delay_ns, 4321u);
  EXPECT_EQ(back.runtime.code->second, 0x7f0000090000ull);
  EXPECT_EQ(back.count("task_create"), 21u);
  EXPECT_EQ(back.count("taskwait"), 0u);
}

TEST(Metadata, AbsentMembersStayAbsent) {
  Metadata m;  // nothing optional set
  Metadata back = metadata_from_json(nlohmann::json::parse(metadata_to_json(m).dump()));
  expect_same(m, back);
  EXPECT_FALSE(back.parent);
  EXPECT_FALSE(back.preemption);
  EXPECT_FALSE(back.explicit_tasks);
  EXPECT_FALSE(back.counts);
  EXPECT_FALSE(back.runtime.code);
  EXPECT_EQ(back.program_name(), "?");
}

TEST(Metadata, MembersOfTheWrongTypeReadAsAbsent) {
  nlohmann::json j = metadata_to_json(full_metadata());
  j[key::kHost] = 5;
  j[key::kRecorder][key::kEventsLost] = "many";
  j[key::kClock][key::kEnd] = nlohmann::json::array();
  j[key::kObjects].push_back({{key::kPath, 3}, {key::kBase, "0x10"}});
  Metadata m = metadata_from_json(j);
  EXPECT_EQ(m.host, "");
  EXPECT_EQ(m.recorder.events_lost, 0u);
  EXPECT_EQ(m.recorder.events_written, 150u);
  EXPECT_EQ(m.clock.end, Metadata::ClockSample{});
  EXPECT_EQ(m.objects.size(), 2u);  // the one without a string path is left out
}

// The version-1 fixture (tests/format/fixtures/, written before this struct existed) reads.
TEST(Metadata, Version1FixtureReads) {
  auto x = open_experiment(testing::source_dir() + "/tests/format/fixtures/v1-two-threads");
  if (!readable_version(1)) GTEST_SKIP() << "fixture_test says what a newer version does";
  ASSERT_TRUE(x.ok()) << x.error().message;
  const Metadata& m = x->metadata;
  EXPECT_EQ(m.format, "tasklens-experiment");
  EXPECT_EQ(m.format_version, 1u);
  EXPECT_EQ(m.tool.version, "fixture");
  EXPECT_EQ(m.program.pid, 4242);
  EXPECT_EQ(m.program.args, (std::vector<std::string>{"fixture", "2"}));
  EXPECT_EQ(m.program_name(), "app");
  EXPECT_EQ(m.host, "golden");
  EXPECT_EQ(m.clock.end.ns, 1000000000000ull);
  EXPECT_TRUE(m.clock.end_is_final);
  ASSERT_EQ(m.threads.size(), 2u);
  EXPECT_EQ(m.threads[0].events + m.threads[1].events, 58u);
  EXPECT_EQ(m.recorder.events_written, 58u);
  EXPECT_EQ(m.count("task_create"), 3u);
  EXPECT_EQ(m.count("implicit_task"), 5u);
  EXPECT_FALSE(m.explicit_tasks);  // the test writer leaves it out
  EXPECT_EQ(m.strings, (std::vector<std::string>{"phase", "depth"}));
  // The file as it is on disk, read with no struct in between, says the same.
  std::ifstream in(x->dir + "/experiment.json");
  nlohmann::json raw = nlohmann::json::parse(in);
  EXPECT_EQ(raw["recorder"]["events_written"], m.recorder.events_written);
}

// The stream inventory: each stream's thread and its last event, taken once at open.
TEST(Metadata, InventoryListsThreadsAndTheEnd) {
  testing::TraceBuilder t;
  t.thread_begin(0, 0).thread_begin(3, 5).thread_end(3, 700).thread_end(0, 450);
  std::string dir = t.write();
  auto x = open_experiment(dir);
  ASSERT_TRUE(x.ok()) << x.error().message;
  ASSERT_EQ(x->inventory.size(), 2u);
  EXPECT_EQ(x->thread_ids(), (std::vector<uint32_t>{0, 3}));
  EXPECT_EQ(x->inventory[1].last_ticks, 700u);
  EXPECT_EQ(x->end_ns, 700u);
  EXPECT_EQ(x->first_unreadable_stream(), nullptr);

  // A stream that is not a tasklens stream: said, and left out of the thread ids.
  std::ofstream(x->streams[1], std::ios::trunc) << "not a stream";
  auto y = open_experiment(dir);
  ASSERT_TRUE(y.ok());
  ASSERT_NE(y->first_unreadable_stream(), nullptr);
  EXPECT_NE(y->first_unreadable_stream()->find(x->streams[1]), std::string::npos);
  EXPECT_EQ(y->thread_ids(), (std::vector<uint32_t>{0}));
  EXPECT_EQ(y->end_ns, 700u);  // the program's exit (the final clock sample) is still the end
}

}  // namespace
}  // namespace tasklens::format
