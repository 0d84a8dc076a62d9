#include "recorder/loaded_objects.h"

#include <link.h>
#include <unistd.h>

#include "format/metadata_keys.h"

namespace tasklens::recorder {
namespace key = format::key;
namespace {

int add_object(dl_phdr_info* info, size_t, void* data) {
  auto& out = *static_cast<format::JsonOut*>(data);
  const char* path = info->dlpi_name;
  char exe[4096];
  if (!path || !*path) {
    // The main program has an empty name here.
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return 0;
    exe[n] = 0;
    path = exe;
  }
  if (path[0] != '/') return 0;  // linux-vdso.so.1 and the like have no file
  out.begin_object().kv(key::kPath, path).key(key::kBase).hex(info->dlpi_addr).end_object();
  return 0;
}

}  // namespace

void write_loaded_objects(format::JsonOut& out) {
  out.begin_array();
  dl_iterate_phdr(add_object, &out);
  out.end_array();
}

}  // namespace tasklens::recorder
