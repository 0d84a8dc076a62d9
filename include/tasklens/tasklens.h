/* tasklens.h -- user regions and parameters for tasklens profiles (docs/USER_API.md).
 *
 *   tasklens_region_begin("solve");      ... tasklens_region_end("solve");
 *   tasklens_param_int("depth", depth);  // splits the current task's profile by depth
 *
 * Header only, C and C++. A program that uses it needs no tasklens at link time or run time:
 * the first call looks for the recorder (libtasklens.so, which the OpenMP runtime loads when the
 * program runs under `tasklens run`) with dlopen(RTLD_NOLOAD) and caches the answer; without
 * the recorder every later call is one load and one branch. While `tasklens run` is recording
 * (TASKLENS_OUTPUT and OMP_TOOL_LIBRARIES name it) but the OpenMP runtime has not started yet,
 * calls are dropped and the lookup is tried again at the next call (a dlopen, about a
 * microsecond), so calls made before the first OpenMP construct never switch the API off for
 * good. "Names it" means an entry of OMP_TOOL_LIBRARIES whose file name is libtasklens.so.
 *
 * Names must be NUL-terminated strings; their content, not their address, identifies them.
 * Define TASKLENS_DISABLE before including this header to compile every call away.
 * On glibc older than 2.34, link with -ldl (dlopen lives in libdl there).
 */
#ifndef TASKLENS_TASKLENS_H
#define TASKLENS_TASKLENS_H

#include <stdint.h>

#define TASKLENS_API_VERSION 1

/* The function table libtasklens.so hands out (tasklens_api(version)); fields are only ever
 * appended, `size` says how many the recorder has. */
typedef struct tasklens_api_v1 {
  uint32_t version;
  uint32_t size;
  void (*region_begin)(const char* name);
  void (*region_end)(const char* name);
  void (*param_int)(const char* name, int64_t value);
} tasklens_api_v1;

#ifndef TASKLENS_DISABLE

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* One cache per translation unit: the table, or a note that there is no recorder. */
static const tasklens_api_v1* tasklens_api_cache_ __attribute__((unused));
static int tasklens_api_absent_ __attribute__((unused));

/* Will the OpenMP runtime load the recorder later? (`tasklens run` sets these.) True when one
 * entry of the colon-separated OMP_TOOL_LIBRARIES is a file named libtasklens.so. */
static inline int tasklens_recorder_expected_(void) {
  const char* out = getenv("TASKLENS_OUTPUT");
  const char* libs = getenv("OMP_TOOL_LIBRARIES");
  const char* tool = getenv("OMP_TOOL");
  static const char kName[] = "libtasklens.so";
  const size_t n = sizeof kName - 1;
  if (!out || !*out || !libs || (tool && strcmp(tool, "disabled") == 0)) return 0;
  for (const char* p = libs; (p = strstr(p, kName)) != 0; p += n) {
    int starts = p == libs || p[-1] == '/' || p[-1] == ':';
    int ends = p[n] == 0 || p[n] == ':';
    if (starts && ends) return 1;
  }
  return 0;
}

static inline const tasklens_api_v1* tasklens_api_lookup_(void) {
  const tasklens_api_v1* api = 0;
  void* lib = dlopen("libtasklens.so", RTLD_LAZY | RTLD_NOLOAD);
  if (lib) {
    typedef const tasklens_api_v1* (*get_fn)(uint32_t);
    get_fn get;
    void* sym = dlsym(lib, "tasklens_api");
    memcpy(&get, &sym, sizeof get); /* object pointer -> function pointer, without a warning */
    if (get) api = get(TASKLENS_API_VERSION);
    dlclose(lib); /* drops the reference RTLD_NOLOAD took; the runtime keeps it loaded */
  }
  if (api) {
    __atomic_store_n(&tasklens_api_cache_, api, __ATOMIC_RELEASE);
  } else if (!tasklens_recorder_expected_()) {
    __atomic_store_n(&tasklens_api_absent_, 1, __ATOMIC_RELAXED);
  }
  return api;
}

static inline const tasklens_api_v1* tasklens_api_(void) {
  const tasklens_api_v1* api = __atomic_load_n(&tasklens_api_cache_, __ATOMIC_ACQUIRE);
  if (__builtin_expect(api != 0, 1)) return api;
  if (__atomic_load_n(&tasklens_api_absent_, __ATOMIC_RELAXED)) return 0;
  return tasklens_api_lookup_();
}

/* Opens a user region; regions nest inside tasks and implicit tasks. */
static inline void tasklens_region_begin(const char* name) {
  const tasklens_api_v1* api = tasklens_api_();
  if (api) api->region_begin(name);
}

/* Closes the innermost open region of that name in the current task. */
static inline void tasklens_region_end(const char* name) {
  const tasklens_api_v1* api = tasklens_api_();
  if (api) api->region_end(name);
}

/* Splits the current task's (or region's) profile by `value`: what follows, up to the end of
 * the enclosing region or task, is profiled under "name=value". */
static inline void tasklens_param_int(const char* name, int64_t value) {
  const tasklens_api_v1* api = tasklens_api_();
  if (api) api->param_int(name, value);
}

#else /* TASKLENS_DISABLE */

static inline void tasklens_region_begin(const char* name) { (void)name; }
static inline void tasklens_region_end(const char* name) { (void)name; }
static inline void tasklens_param_int(const char* name, int64_t value) {
  (void)name;
  (void)value;
}

#endif /* TASKLENS_DISABLE */

#ifdef __cplusplus
namespace tasklens {

// A user region for the lifetime of a scope: tasklens::Region r("solve");
class Region {
 public:
  explicit Region(const char* name) : name_(name) { tasklens_region_begin(name_); }
  ~Region() { tasklens_region_end(name_); }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

 private:
  const char* name_;
};

}  // namespace tasklens
#endif

#endif /* TASKLENS_TASKLENS_H */
