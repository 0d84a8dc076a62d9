// The construct of a task the runtime makes on its own behalf, for the task model (trace mode)
// and the profiler (profile mode), which must name it alike.
//
// libomp splits a large taskloop inside one of the taskloop's own tasks: the tasks it makes there
// are created at an address inside the runtime (not the program's call site), and their parent is
// the taskloop's encountering task, not the task that made them. They belong to the construct of
// the explicit task running on the creating thread, a task of that taskloop.
#pragma once

#include <cstdint>

namespace tasklens::format {

// The construct of a task created at `own_code`, an address inside the runtime, while the
// creating thread runs a task whose construct is `running_code` (`running_explicit`: that task is
// an explicit one). An implicit or unknown running task leaves the runtime's address.
inline uint64_t runtime_made_task_code(uint64_t own_code, bool running_explicit,
                                       uint64_t running_code) {
  return running_explicit ? running_code : own_code;
}

}  // namespace tasklens::format
