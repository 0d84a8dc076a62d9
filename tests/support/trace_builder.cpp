// TraceBuilder: hand-made events written as a real experiment directory; scratch dirs. Each event
// is built from its kind's view (format/event_views.h), so its fields land where readers look.
#include "support/trace_builder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>

#include "format/event_views.h"

namespace tasklens::testing {
namespace fs = std::filesystem;
using format::Endpoint;
using format::Event;
using format::Kind;
namespace ev = format::ev;

namespace {

ev::ImplicitTask implicit(Endpoint ep, uint64_t task, uint64_t region, uint64_t team_size,
                          uint16_t index, uint32_t flags) {
  ev::ImplicitTask v;
  v.endpoint = uint8_t(ep);
  v.index = index;
  v.flags = flags;
  v.task = task;
  v.region = region;
  v.team_size = team_size;
  return v;
}

ev::SyncAny sync_view(SyncKind kind, Endpoint ep, uint64_t region, uint64_t task, uint64_t code) {
  ev::SyncAny v;
  v.endpoint = uint8_t(ep);
  v.sync_kind = uint16_t(kind);
  v.region = region;
  v.task = task;
  v.codeptr = code;
  return v;
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
  ev::ThreadBegin v;
  v.thread_type = type;
  return event(th, v.event(t));
}

TraceBuilder& TraceBuilder::thread_end(uint32_t th, uint64_t t) {
  return event(th, ev::ThreadEnd().event(t));
}

TraceBuilder& TraceBuilder::parallel_begin(uint32_t th, uint64_t t, uint64_t region, uint64_t task,
                                           uint16_t requested, uint64_t code) {
  ev::ParallelBegin v;
  v.requested = requested;
  v.flags = 0x80000001u;  // invoked by the program, a team
  v.region = region;
  v.task = task;
  v.codeptr = code;
  return event(th, v.event(t));
}

TraceBuilder& TraceBuilder::parallel_end(uint32_t th, uint64_t t, uint64_t region, uint64_t task,
                                         uint64_t code) {
  ev::ParallelEnd v;
  v.flags = 0x80000001u;
  v.region = region;
  v.task = task;
  v.codeptr = code;
  return event(th, v.event(t));
}

TraceBuilder& TraceBuilder::implicit_begin(uint32_t th, uint64_t t, uint64_t task, uint64_t region,
                                           uint32_t team_size, uint16_t index, uint32_t flags) {
  return event(th, implicit(Endpoint::kBegin, task, region, team_size, index, flags).event(t));
}

TraceBuilder& TraceBuilder::implicit_end(uint32_t th, uint64_t t, uint64_t task, uint64_t region,
                                         uint32_t team_size, uint16_t index) {
  return event(th, implicit(Endpoint::kEnd, task, region, team_size, index,
                           format::task_flag::kImplicit).event(t));
}

TraceBuilder& TraceBuilder::initial_task(uint32_t th, uint64_t t, uint64_t task) {
  return event(th, implicit(Endpoint::kBegin, task, 0, 1, 1, format::task_flag::kInitial).event(t));
}

TraceBuilder& TraceBuilder::solo_begin() {
  initial_task(0, 0, 1);
  parallel_begin(0, 0, 100, 1, 1, 0x1000);
  return implicit_begin(0, 0, 2, 100, 1, 0);
}

TraceBuilder& TraceBuilder::pair_begin() {
  initial_task(0, 0, 1);
  parallel_begin(0, 0, 100, 1, 2);
  implicit_begin(0, 0, 2, 100, 2, 0);
  return implicit_begin(1, 0, 3, 100, 2, 1);
}

TraceBuilder& TraceBuilder::solo_end(uint64_t end, uint64_t exit) {
  implicit_end(0, end, 2);
  parallel_end(0, end, 100, 1, 0x1000);
  return implicit_end(0, exit, 1);
}

TraceBuilder& TraceBuilder::create(uint32_t th, uint64_t t, uint64_t task, uint64_t parent,
                                   uint64_t code, uint32_t flags, bool has_deps) {
  ev::TaskCreate v;
  v.has_deps = has_deps;
  v.flags = flags;
  v.task = task;
  v.parent = parent;
  v.codeptr = code;
  return event(th, v.event(t));
}

TraceBuilder& TraceBuilder::schedule(uint32_t th, uint64_t t, uint64_t prior, Status status,
                                     uint64_t next) {
  ev::TaskSchedule v;
  v.status = uint8_t(status);
  v.prior = prior;
  v.next = next;
  return event(th, v.event(t));
}

TraceBuilder& TraceBuilder::deps(uint32_t th, uint64_t t, uint64_t task,
                                 std::initializer_list<std::pair<uint64_t, DependenceType>> items) {
  ev::Dependence v;
  v.task = task;
  v.ndeps = items.size();
  for (const auto& [addr, type] : items) {
    v.type = uint8_t(type);
    v.address = addr;
    event(th, v.event(t));
    ++v.index;
  }
  return *this;
}

TraceBuilder& TraceBuilder::task_dependence(uint32_t th, uint64_t t, uint64_t src, uint64_t sink) {
  ev::TaskDependence v;
  v.dep_task = src;
  v.task = sink;
  return event(th, v.event(t));
}

TraceBuilder& TraceBuilder::sync(uint32_t th, uint64_t t, SyncKind kind, Endpoint ep,
                                 uint64_t region, uint64_t task, uint64_t code) {
  return event(th, sync_view(kind, ep, region, task, code).event(t, Kind::kSyncRegion));
}

TraceBuilder& TraceBuilder::sync_wait(uint32_t th, uint64_t t, SyncKind kind, Endpoint ep,
                                      uint64_t region, uint64_t task, uint64_t code) {
  return event(th, sync_view(kind, ep, region, task, code).event(t, Kind::kSyncRegionWait));
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
  ev::Work v;
  v.endpoint = uint8_t(ep);
  v.work_type = uint16_t(type);
  v.count = count;
  v.region = region;
  v.task = task;
  v.codeptr = code;
  return event(th, v.event(t));
}

TraceBuilder& TraceBuilder::masked(uint32_t th, uint64_t t, Endpoint ep, uint64_t region,
                                   uint64_t task, uint64_t code) {
  ev::Masked v;
  v.endpoint = uint8_t(ep);
  v.region = region;
  v.task = task;
  v.codeptr = code;
  return event(th, v.event(t));
}

TraceBuilder& TraceBuilder::mutex(uint32_t th, uint64_t t, Kind kind, format::MutexKind mk,
                                  uint64_t wait_id, uint64_t code) {
  ev::MutexAny v;  // `kind` is any mutex kind; impl and hint stay 0
  v.mutex_kind = uint16_t(mk);
  v.wait_id = wait_id;
  v.codeptr = code;
  return event(th, v.event(t, kind));
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
  ev::UserRegion v;
  v.endpoint = uint8_t(ep);
  v.name = string_id(name);
  return event(th, v.event(t));
}

TraceBuilder& TraceBuilder::user_param(uint32_t th, uint64_t t, const std::string& name,
                                       int64_t value) {
  ev::UserParam v;
  v.name = string_id(name);
  v.value = value;
  return event(th, v.event(t));
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
