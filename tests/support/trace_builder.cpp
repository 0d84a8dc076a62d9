// TraceBuilder: hand-made events written as a real experiment directory; scratch dirs.
#include "support/trace_builder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>

namespace tasklens::testing {
namespace fs = std::filesystem;
using format::Endpoint;
using format::Event;
using format::Kind;

namespace {

Event ev(uint64_t t, Kind k, uint8_t op = 0, uint16_t sub = 0, uint32_t flags = 0, uint64_t a = 0,
         uint64_t b = 0, uint64_t c = 0) {
  return Event{t, k, op, sub, flags, a, b, c};
}

struct ScratchRoot {
  std::string path;
  ScratchRoot() {
    const char* base = std::getenv("TMPDIR");
    path = fs::path(base && *base ? base : "/tmp") /
           ("tasklens-test-" + std::to_string(getpid()));
    fs::create_directories(path);
  }
  ~ScratchRoot() {
    if (!std::getenv("TASKLENS_KEEP_TEST_DIRS")) {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  }
};

}  // namespace

std::string scratch_dir(const std::string& hint) {
  static ScratchRoot root;
  static std::atomic<int> counter{0};
  std::string name = hint;
  if (const auto* info = ::testing::UnitTest::GetInstance()->current_test_info()) {
    name = std::string(info->test_suite_name()) + "." + info->name();
  }
  fs::path p = fs::path(root.path) / (name + "-" + std::to_string(counter++));
  fs::create_directories(p);
  return p.string();
}

TraceBuilder& TraceBuilder::event(uint32_t th, const Event& e) {
  writer_.add(th, e);
  return *this;
}

TraceBuilder& TraceBuilder::preempted(uint32_t th, uint64_t t0, uint64_t t1) {
  writer_.add_preempted(th, t0, t1);
  return *this;
}

TraceBuilder& TraceBuilder::thread_begin(uint32_t th, uint64_t t, uint16_t type) {
  return event(th, ev(t, Kind::kThreadBegin, 0, type));
}

TraceBuilder& TraceBuilder::thread_end(uint32_t th, uint64_t t) {
  return event(th, ev(t, Kind::kThreadEnd));
}

TraceBuilder& TraceBuilder::parallel_begin(uint32_t th, uint64_t t, uint64_t region, uint64_t task,
                                           uint16_t requested, uint64_t code) {
  return event(th, ev(t, Kind::kParallelBegin, 0, requested, 0x80000001u, region, task, code));
}

TraceBuilder& TraceBuilder::parallel_end(uint32_t th, uint64_t t, uint64_t region, uint64_t task,
                                         uint64_t code) {
  return event(th, ev(t, Kind::kParallelEnd, 0, 0, 0x80000001u, region, task, code));
}

TraceBuilder& TraceBuilder::implicit_begin(uint32_t th, uint64_t t, uint64_t task, uint64_t region,
                                           uint32_t team_size, uint16_t index, uint32_t flags) {
  return event(th, ev(t, Kind::kImplicitTask, uint8_t(Endpoint::kBegin), index, flags, task,
                      region, team_size));
}

TraceBuilder& TraceBuilder::implicit_end(uint32_t th, uint64_t t, uint64_t task, uint64_t region,
                                         uint32_t team_size, uint16_t index) {
  return event(th, ev(t, Kind::kImplicitTask, uint8_t(Endpoint::kEnd), index,
                      format::task_flag::kImplicit, task, region, team_size));
}

TraceBuilder& TraceBuilder::initial_task(uint32_t th, uint64_t t, uint64_t task) {
  return event(th, ev(t, Kind::kImplicitTask, uint8_t(Endpoint::kBegin), 1,
                      format::task_flag::kInitial, task, 0, 1));
}

TraceBuilder& TraceBuilder::solo_begin() {
  initial_task(0, 0, 1);
  parallel_begin(0, 0, 100, 1, 1, 0x1000);
  return implicit_begin(0, 0, 2, 100, 1, 0);
}

TraceBuilder& TraceBuilder::solo_end(uint64_t end, uint64_t exit) {
  implicit_end(0, end, 2);
  parallel_end(0, end, 100, 1, 0x1000);
  return implicit_end(0, exit, 1);
}

TraceBuilder& TraceBuilder::create(uint32_t th, uint64_t t, uint64_t task, uint64_t parent,
                                   uint64_t code, uint32_t flags, bool has_deps) {
  return event(th, ev(t, Kind::kTaskCreate, has_deps, 0, flags, task, parent, code));
}

TraceBuilder& TraceBuilder::schedule(uint32_t th, uint64_t t, uint64_t prior, Status status,
                                     uint64_t next) {
  return event(th, ev(t, Kind::kTaskSchedule, uint8_t(status), 0, 0, prior, next));
}

TraceBuilder& TraceBuilder::deps(uint32_t th, uint64_t t, uint64_t task,
                                 std::initializer_list<std::pair<uint64_t, DependenceType>> items) {
  uint32_t i = 0;
  for (const auto& [addr, type] : items) {
    event(th, ev(t, Kind::kDependence, uint8_t(type), 0, i++, task, addr, items.size()));
  }
  return *this;
}

TraceBuilder& TraceBuilder::task_dependence(uint32_t th, uint64_t t, uint64_t src, uint64_t sink) {
  return event(th, ev(t, Kind::kTaskDependence, 0, 0, 0, src, sink));
}

TraceBuilder& TraceBuilder::sync(uint32_t th, uint64_t t, SyncKind kind, Endpoint ep,
                                 uint64_t region, uint64_t task, uint64_t code) {
  return event(th, ev(t, Kind::kSyncRegion, uint8_t(ep), uint16_t(kind), 0, region, task, code));
}

TraceBuilder& TraceBuilder::sync_wait(uint32_t th, uint64_t t, SyncKind kind, Endpoint ep,
                                      uint64_t region, uint64_t task, uint64_t code) {
  return event(th,
               ev(t, Kind::kSyncRegionWait, uint8_t(ep), uint16_t(kind), 0, region, task, code));
}

TraceBuilder& TraceBuilder::sync_span(uint32_t th, uint64_t t0, uint64_t t1, SyncKind kind,
                                      uint64_t region, uint64_t task, uint64_t code) {
  sync(th, t0, kind, Endpoint::kBegin, region, task, code);
  sync_wait(th, t0, kind, Endpoint::kBegin, region, task, code);
  sync_wait(th, t1, kind, Endpoint::kEnd, region, task, code);
  return sync(th, t1, kind, Endpoint::kEnd, region, task, code);
}

TraceBuilder& TraceBuilder::work(uint32_t th, uint64_t t, format::WorkType type, Endpoint ep,
                                 uint64_t region, uint64_t task, uint32_t count, uint64_t code) {
  return event(th, ev(t, Kind::kWork, uint8_t(ep), uint16_t(type), count, region, task, code));
}

TraceBuilder& TraceBuilder::masked(uint32_t th, uint64_t t, Endpoint ep, uint64_t region,
                                   uint64_t task, uint64_t code) {
  return event(th, ev(t, Kind::kMasked, uint8_t(ep), 0, 0, region, task, code));
}

TraceBuilder& TraceBuilder::mutex(uint32_t th, uint64_t t, Kind kind, format::MutexKind mk,
                                  uint64_t wait_id, uint64_t code) {
  return event(th, ev(t, kind, 0, uint16_t(mk), 0, wait_id, 0, code));
}

uint32_t TraceBuilder::string_id(const std::string& name) {
  for (size_t i = 0; i < strings_.size(); ++i) {
    if (strings_[i] == name) return uint32_t(i + 1);
  }
  strings_.push_back(name);
  writer_.set_strings(strings_);
  return uint32_t(strings_.size());
}

TraceBuilder& TraceBuilder::user_region(uint32_t th, uint64_t t, Endpoint ep,
                                        const std::string& name) {
  return event(th, ev(t, Kind::kUserRegion, uint8_t(ep), 0, 0, string_id(name)));
}

TraceBuilder& TraceBuilder::user_param(uint32_t th, uint64_t t, const std::string& name,
                                       int64_t value) {
  return event(th, ev(t, Kind::kUserParam, 0, 0, 0, string_id(name), uint64_t(value)));
}

TraceBuilder& TraceBuilder::chunk_events(size_t n) {
  writer_.set_chunk_events(n);
  return *this;
}

std::string TraceBuilder::write(const std::string& dir) {
  std::string d = dir.empty() ? scratch_dir("trace") : dir;
  auto r = writer_.write(d);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return d;
}

}  // namespace tasklens::testing
