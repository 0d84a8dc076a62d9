// The recorder's side of the user API (include/tasklens/tasklens.h): the function table the
// header finds with dlsym(tasklens_api), and the three calls, which record kUserRegion and
// kUserParam events on the calling thread (in profile mode: nodes of its call path, profiler.h).
// Names are interned once per session (the metadata's "strings"); each thread keeps a small
// cache from a name's address to its id, checked against a copy of the text, so a repeated call
// costs a hash, a comparison of the text and the event's stores.
#define TASKLENS_DISABLE  // only the table's type: the inline calls are the program's
#include "tasklens/tasklens.h"

#include <pthread.h>

#include <cstdlib>
#include <cstring>
#include <new>

#include "format/event.h"
#include "recorder/clock.h"
#include "recorder/profiler.h"
#include "recorder/session.h"
#include "recorder/thread_buffer.h"

namespace tasklens::recorder {
namespace {

struct NameCache {
  static constexpr uint32_t kSlots = 64;
  struct Slot {
    const char* key = nullptr;  // the caller's pointer
    char* text = nullptr;       // our copy of what it pointed to
    uint32_t id = 0;
  };
  Slot slots[kSlots];
};

// Allocated on a thread's first call and freed when the thread ends (a pthread key's
// destructor), so that a program checked for leaks (LeakSanitizer) finds none of ours.
thread_local NameCache* t_names __attribute__((tls_model("initial-exec"))) = nullptr;
pthread_key_t g_names_key;
pthread_once_t g_names_once = PTHREAD_ONCE_INIT;

void free_names(void* p) {
  auto* cache = static_cast<NameCache*>(p);
  for (NameCache::Slot& s : cache->slots) std::free(s.text);
  delete cache;
  t_names = nullptr;
}

void make_names_key() { pthread_key_create(&g_names_key, free_names); }

NameCache* new_name_cache() {
  pthread_once(&g_names_once, make_names_key);
  auto* cache = new (std::nothrow) NameCache();
  if (cache && pthread_setspecific(g_names_key, cache) != 0) {
    delete cache;
    return nullptr;
  }
  return cache;
}

// strcmp(a, b) == 0, inline: names are short, and a call to the library's strcmp cost more than
// the comparison in a program that sets a parameter in every task.
inline bool same_text(const char* a, const char* b) {
  for (; *a == *b; ++a, ++b) {
    if (*a == 0) return true;
  }
  return false;
}

uint32_t name_id(const char* name) {
  if (!name) name = "(null)";
  NameCache* cache = t_names;
  if (__builtin_expect(cache == nullptr, 0)) {
    cache = new_name_cache();
    if (!cache) return g_session.intern(name);
    t_names = cache;
  }
  auto h = reinterpret_cast<uintptr_t>(name);
  NameCache::Slot& s = cache->slots[(h ^ (h >> 7)) % NameCache::kSlots];
  if (s.key == name && same_text(s.text, name)) return s.id;
  uint32_t id = g_session.intern(name);
  char* copy = strdup(name);
  if (!copy) return id;
  std::free(s.text);
  s = NameCache::Slot{name, copy, id};
  return id;
}

// Profile mode: this thread's tables, nullptr when not profiling.
prof::Thread* profiling() { return prof::g_enabled ? prof::this_thread_profile() : nullptr; }

void region(const char* name, format::Endpoint ep) {
  if (!g_session.recording()) return;
  if (g_session.config.profile) {
    prof::Thread* th = profiling();
    uint32_t id = th ? name_id(name) : 0;
    if (id) prof::on_user_region(th, ep == format::Endpoint::kBegin, id, now_ticks());
    return;
  }
  ThreadBuffer* tb = this_thread();
  if (!tb) return;
  uint32_t id = name_id(name);
  if (id) record(tb, format::Kind::kUserRegion, uint8_t(ep), 0, 0, id, 0, 0);
}

void region_begin(const char* name) { region(name, format::Endpoint::kBegin); }
void region_end(const char* name) { region(name, format::Endpoint::kEnd); }

// Flattened (everything it calls inlined; with the library's link-time optimization across files
// too): a fine-grained program calls it in every task.
__attribute__((flatten)) void param_int(const char* name, int64_t value) {
  if (!g_session.recording()) return;
  if (g_session.config.profile) {
    prof::Thread* th = profiling();
    uint32_t id = th ? name_id(name) : 0;
    if (id) prof::on_user_param(th, id, value, now_ticks());
    return;
  }
  ThreadBuffer* tb = this_thread();
  if (!tb) return;
  uint32_t id = name_id(name);
  if (id) record(tb, format::Kind::kUserParam, 0, 0, 0, id, uint64_t(value), 0);
}

constexpr tasklens_api_v1 kApi = {1, sizeof(tasklens_api_v1), &region_begin, &region_end,
                                  &param_int};

}  // namespace
}  // namespace tasklens::recorder

// The table for API `version` (the header asks for TASKLENS_API_VERSION); null for versions this
// recorder does not know.
extern "C" __attribute__((visibility("default"))) const tasklens_api_v1* tasklens_api(
    uint32_t version) {
  return version >= 1 ? &tasklens::recorder::kApi : nullptr;
}
