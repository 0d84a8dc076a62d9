// What the converters share: opening one, and Paraver's numbers (also read by tests). Each
// format is one .cpp file (a replay pass -- timeline.h for the three timeline formats -- plus a
// finish step) that defines its ExportFormat (export.h); registry.cpp lists them.
#pragma once

#include <memory>
#include <utility>

#include "export/export.h"
#include "symbols/symbolizer.h"

namespace tasklens::exports {

// Paraver's numbers, as the .pcf names them.
namespace paraver {
enum State : uint32_t {
  kIdle = 0,
  kRunning = 1,
  kNotCreated = 2,
  kCreated = 3,  // task view: created, not ready yet (dependences, or not started undeferred)
  kReady = 4,
  kSynchronization = 5,
  kSuspended = 6,
  kOverhead = 7,
  kDetached = 8,
};
constexpr uint32_t kTypeRegion = 60000001;        // innermost open region (0: none)
constexpr uint32_t kTypeTaskConstruct = 60000002;  // construct of the running / this task
constexpr uint32_t kTypeTaskInstance = 60000003;   // the running task instance
constexpr uint32_t kTypeReadyTasks = 60000004;     // number of ready tasks
constexpr uint32_t kTypeThread = 60000005;         // task view: executing thread + 1 (0: none)
constexpr uint32_t kTypeCounter = 60000050;        // + i: perf_event counter i, delta since the
                                                   // thread's previous task switch
constexpr uint32_t kTypeParameter = 60000100;      // + n: the n-th user parameter's value
constexpr uint32_t kTagCreation = 1, kTagDependence = 2, kTagMigration = 3;
}  // namespace paraver

// Makes an exporter of type E and opens its output (E::open() -> Result<bool>).
template <class E, class... Args>
Result<std::unique_ptr<Exporter>> open_exporter(Args&&... args) {
  auto e = std::make_unique<E>(std::forward<Args>(args)...);
  auto opened = e->open();
  if (!opened) return opened.error();
  return std::unique_ptr<Exporter>(std::move(e));
}

}  // namespace tasklens::exports
