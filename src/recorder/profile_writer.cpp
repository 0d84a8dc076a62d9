// Profile mode's end: every thread's tables merged and written to profile.json (format/
// profile_file.h; the members are described in docs/PROFILE-MODE.md).
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "format/experiment_dir.h"
#include "format/json_out.h"
#include "format/profile_file.h"
#include "recorder/clock.h"
#include "recorder/process_info.h"
#include "recorder/profiler.h"

namespace tasklens::recorder::prof {
namespace {

namespace pkey = format::pkey;

void stat(format::JsonOut& o, const Stat& s) {
  o.begin_array().u64(s.count).u64(s.sum).u64(s.min).u64(s.max).end_array();
}

void metrics_row(format::JsonOut& o, uint32_t thread, const Metrics& m) {
  o.begin_array().u64(thread).u64(m.visits).u64(m.fragments);
  stat(o, m.inclusive());
  stat(o, m.exclusive());
  o.end_array();
}

void write_threads(format::JsonOut& o, uint32_t n) {
  o.key(pkey::kThreads).begin_array();
  for (uint32_t i = 0; i < n; ++i) {
    const Thread* th = thread_at(i);
    if (!th) continue;
    o.begin_object().kv_u64("index", i).kv_bool("initial", th->initial);
    o.kv_u64("begin", th->begin).kv_u64("end", th->end);
    o.kv_u64("work", th->work).kv_u64("overhead", th->overhead).kv_u64("idle", th->idle);
    o.kv_u64("serial", th->serial).kv_u64("thread_time", th->thread_time);
    o.kv_u64("max_active", th->max_active).kv_u64("unmatched_ends", th->unmatched_ends);
    o.kv_u64("bad_counter_samples", th->bad_counter_samples);
    // Every thread has ended here (finish_and_write): its own figure, or the one taken for it.
    if (auto d = th->run_delay.own ? th->run_delay.own : th->run_delay.at_end) {
      o.kv_u64("run_delay_ns", *d);
    }
    o.end_object();
  }
  o.end_array();
}

}  // namespace

bool finish_and_write(int dirfd, const char* const* counter_names, int counters) {
  g_enabled = false;
  uint64_t now = now_ticks();
  Thread* self = current_thread_profile();
  uint32_t n = thread_count();
  for (uint32_t i = 0; i < n; ++i) {
    Thread* th = thread_at(i);
    // The threads still running (libomp ends its workers after the tool): their run-queue wait
    // so far, read by their id.
    if (th && !th->ended) th->run_delay.at_end = thread_run_delay(th->os_tid);
    if (th) close_thread(th, now, th == self);
  }
  NodeTable nodes;
  ConstructTable constructs;
  ParamTable params;
  for (uint32_t i = 0; i < n; ++i) {
    if (const Thread* th = thread_at(i)) {
      nodes.merge(th->nodes);
      constructs.merge(th->constructs);
      params.merge(th->params);
    }
  }
  constexpr size_t kBytes = size_t(1) << 30;
  void* mem = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem == MAP_FAILED) return false;
  format::JsonOut o(static_cast<char*>(mem), kBytes);
  o.begin_object().kv_u64(pkey::kVersion, 1);
  write_threads(o, n);
  o.key(pkey::kNodes).begin_array();
  for (uint32_t s = 0; s < nodes.cap; ++s) {
    // A node made when a frame opened whose frame never closed (a task running at the exit) has
    // no visit: left out, as a trace's profile has no such node.
    if (!nodes.slots[s] || !nodes.slots[s]->metrics.visits) continue;
    const Node& node = *nodes.slots[s];
    o.begin_object().key("key").hex(node.key).key("parent").hex(node.parent);
    o.kv("kind", format::profile_node_kind_name(format::ProfileNodeKind(node.kind)));
    o.kv_u64("sub", node.sub).key("code").hex(node.code);
    if (node.kind == uint8_t(format::ProfileNodeKind::kParam)) o.kv_i64("value", node.value);
    if (counters > 0) {
      o.key("counters").begin_array();
      for (int i = 0; i < counters; ++i) stat(o, node.counters ? node.counters[i] : Stat{});
      o.end_array();
    }
    o.key("threads").begin_array();
    for (uint32_t i = 0; i < n; ++i) {
      const Thread* th = thread_at(i);
      const Node* mine = th ? th->nodes.find(node.key) : nullptr;
      if (mine && mine->metrics.visits) metrics_row(o, i, mine->metrics);
    }
    o.end_array().end_object();
  }
  o.end_array();
  o.key(pkey::kConstructs).begin_array();
  for (uint32_t s = 0; s < constructs.cap; ++s) {
    if (!constructs.slots[s]) continue;
    const Construct& c = *constructs.slots[s];
    o.begin_object().key("code").hex(c.code);
    o.kv_u64("created", c.created).kv_u64("instances", c.instances);
    o.kv_u64("unfinished", c.unfinished).kv_u64("discarded", c.discarded);
    o.kv_u64("fragments", c.fragments).kv_u64("migrations", c.migrations);
    o.key("time");
    stat(o, c.time.stat());
    o.key("creation");
    stat(o, c.creation.stat());
    o.key("start_delay");
    stat(o, c.start_delay.stat());
    o.kv_u64("max_active", c.max_active);
    o.key("counters").begin_array();
    for (int i = 0; i < counters; ++i) stat(o, c.counters[i]);
    o.end_array().end_object();
  }
  o.end_array();
  o.key(pkey::kParams).begin_array();
  for (uint32_t s = 0; s < params.cap; ++s) {
    if (!params.slots[s]) continue;
    const ParamValue& p = *params.slots[s];
    o.begin_object().key("code").hex(p.code).kv_u64("name", p.name).kv_i64("value", p.value);
    o.kv_u64("again", p.again).key("time");
    stat(o, p.time.stat());
    o.end_object();
  }
  o.end_array();
  o.key(pkey::kCounters).begin_array();
  for (int i = 0; i < counters; ++i) o.str(counter_names[i]);
  o.end_array();
  o.kv_bool(pkey::kOverflow, nodes.full || constructs.full || params.full);
  o.end_object();
  nodes.release();
  constructs.release();
  params.release();
  bool ok = !o.overflowed();
  if (ok) {
    const char* tmp = "profile.json.tmp";
    unlinkat(dirfd, tmp, 0);
    int fd = format::create_in_dir(dirfd, tmp, O_WRONLY);
    ok = fd >= 0 && write(fd, o.data(), o.size()) == ssize_t(o.size()) && write(fd, "\n", 1) == 1;
    if (fd >= 0) close(fd);
    ok = ok && renameat(dirfd, tmp, dirfd, format::kProfileFile) == 0;
    if (!ok) unlinkat(dirfd, tmp, 0);
  }
  munmap(mem, kBytes);
  return ok;
}

}  // namespace tasklens::recorder::prof
