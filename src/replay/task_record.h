// The facts of one task that every reader of a run needs, whatever it follows: who it is, who
// created it, what kind of task it is, and where and when it was created. The replay's task
// model keeps one per live task (TaskInfo extends it), and the passes that keep their own per-task
// state past the model's (the exports' timeline) extend the same record instead of declaring the
// fields again.
#pragma once

#include <cstdint>
#include <type_traits>

#include "format/event.h"

namespace tasklens::replay {

constexpr uint32_t kNoThread = 0xffffffffu;

struct TaskRecord {
  uint64_t id = 0;
  uint64_t parent = 0;  // the creating task (0: none known)
  uint32_t flags = 0;   // OMPT task flags (format::task_flag)
  uint32_t creator_thread = kNoThread;
  uint64_t created_ns = 0;

  bool is_explicit() const { return flags & format::task_flag::kExplicit; }
  bool is_implicit() const {
    return flags & (format::task_flag::kImplicit | format::task_flag::kInitial);
  }
  bool is_undeferred() const { return flags & format::task_flag::kUndeferred; }
  bool is_untied() const { return flags & format::task_flag::kUntied; }
  // The task of a `taskwait depend(...)`: its creator's taskwait, no task (format/event.h).
  bool is_taskwait_depend() const { return format::is_taskwait_depend(flags); }
};

static_assert(std::is_trivially_copyable_v<TaskRecord>);

}  // namespace tasklens::replay
