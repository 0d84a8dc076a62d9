// Profile mode's side of the user API (include/tasklens/tasklens.h, recorder/user_api.cpp): user
// regions and parameters as nodes of the call path, as analysis/profile.cpp builds them from a
// trace's user_region and user_param events. Names are the session's string ids, which
// experiment.json lists in both modes.
#include "format/profile_file.h"
#include "recorder/profile_frames.h"
#include "recorder/profiler.h"

namespace tasklens::recorder::prof {

using NK = format::ProfileNodeKind;

void on_user_region(Thread* th, bool begin, uint64_t name, uint64_t now) {
  on_region(th, begin, uint8_t(NK::kUser), 0, name, false, now);
}

void on_user_param(Thread* th, uint64_t name, int64_t value, uint64_t now) {
  on_other(th, now);
  Task* r = th->current;
  if (!r) return;
  // A new value of the parameter just set replaces it: its node closes with its parent.
  if (r->depth) {
    const Frame& top = r->frames[r->depth - 1];
    if (top.type == FrameType::kParam && top.match == name) close_top(th, *r, now);
  }
  push_child(th, *r, uint8_t(NK::kParam), 0, name, FrameType::kParam, now, name, value);
  for (uint32_t i = 0; i < r->nparams; ++i) {
    if (r->params[i].name == name) {
      r->params[i].again = true;  // the first value describes the instance
      return;
    }
  }
  if (r->implicit || r->nparams == Task::kMaxParams) return;
  // The split of (construct, name, value), kept in the node (a path of the construct's tree)
  // so that the next instance through it needs no hash.
  ParamValue* split = nullptr;
  if (Node* n = r->frames[r->depth - 1].n; n && r->frames[r->depth - 1].owner == owner_of(th)) {
    if (!n->split) n->split = th->params.get(r->code, name, value);
    split = n->split;
  }
  r->params[r->nparams++] =
      Task::Param{name, value, split, split ? owner_of(th) : uint16_t(0), false};
}

void add_param_splits(Thread* th, const Task& x, uint64_t total) {
  for (uint32_t i = 0; i < x.nparams; ++i) {
    const Task::Param& p = x.params[i];
    ParamValue* split = p.owner == owner_of(th) ? p.split : th->params.get(x.code, p.name, p.value);
    if (split) {
      split->time.add(total);
      split->again += p.again;
    }
  }
}

}  // namespace tasklens::recorder::prof
