// JsonOut: the allocation-free JSON emitter.
#include "format/json_out.h"

#include <cstdarg>

namespace tasklens::format {

JsonOut& JsonOut::fmt(const char* f, ...) {
  comma();
  char tmp[64];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(tmp, sizeof tmp, f, ap);
  va_end(ap);
  raw(tmp);
  return *this;
}

}  // namespace tasklens::format
