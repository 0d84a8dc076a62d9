// The construct table's lookups and the OMPT kind -> construct mappings.
#include "format/constructs.h"

#include "format/event.h"

namespace tasklens::format {

static_assert([] {
  for (size_t i = 0; i < kConstructCount; ++i) {
    if (size_t(kConstructs[i].kind) != i) return false;
  }
  return true;
}(), "kConstructs is in the order of Construct");

const char* construct_name(Construct k) {
  return size_t(k) < kConstructCount ? kConstructs[size_t(k)].name : "?";
}

Construct sync_construct(uint16_t sync_kind) {
  switch (SyncKind(sync_kind)) {
    case SyncKind::kBarrier:
    case SyncKind::kBarrierExplicit:
    case SyncKind::kBarrierTeams:
      return Construct::kBarrier;
    case SyncKind::kBarrierImplicit:
    case SyncKind::kBarrierImplementation:
    case SyncKind::kBarrierImplicitWorkshare:
    case SyncKind::kBarrierImplicitParallel:
      return Construct::kImplicitBarrier;
    case SyncKind::kTaskwait: return Construct::kTaskwait;
    case SyncKind::kTaskgroup: return Construct::kTaskgroup;
    case SyncKind::kReduction: return Construct::kReduction;
  }
  return Construct::kCount;
}

Construct work_construct(uint16_t work_type) {
  switch (WorkType(work_type)) {
    case WorkType::kLoop: return Construct::kLoop;
    case WorkType::kSections: return Construct::kSections;
    case WorkType::kSingleExecutor:
    case WorkType::kSingleOther:
      return Construct::kSingle;
    case WorkType::kWorkshare: return Construct::kWorkshare;
    case WorkType::kDistribute: return Construct::kDistribute;
    case WorkType::kTaskloop: return Construct::kTaskloop;
    case WorkType::kScope: return Construct::kScope;
  }
  return Construct::kCount;
}

Construct mutex_construct(uint16_t mutex_kind) {
  switch (MutexKind(mutex_kind)) {
    case MutexKind::kCritical: return Construct::kCritical;
    case MutexKind::kLock:
    case MutexKind::kNestLock:
      return Construct::kLock;
    case MutexKind::kOrdered: return Construct::kOrdered;
    case MutexKind::kAtomic: return Construct::kAtomic;
    default: return Construct::kCount;
  }
}

}  // namespace tasklens::format
