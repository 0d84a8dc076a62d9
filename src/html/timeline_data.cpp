// The HTML report's timeline data (see timeline_data.h).
#include "html/timeline_data.h"

#include <fmt/format.h>

#include "format/constructs.h"
#include "format/text.h"

namespace tasklens::html {

using exports::ThreadState;
using exports::TimelineTask;

void TimelineData::Changes::add(uint64_t t, int64_t value) {
  if (!flat.empty() && t == last_t) {  // same instant: the last value counts
    flat.back() = value;
    return;
  }
  if (flat.size() >= 2 && flat.back() == value) return;  // no change
  flat.push_back(int64_t(t - last_t));
  flat.push_back(value);
  last_t = t;
}

TimelineData::TimelineData(const format::Experiment& x, symbols::Symbolizer* symbols)
    : regions_(x, symbols), pass_(*this, regions_, filter_) {}

void TimelineData::begin(const exports::TimelineInfo& info) {
  threads_ = info.threads;
  states_.assign(threads_, Changes{});
  switches_.assign(threads_, Changes{});
}

uint64_t TimelineData::number(TimelineTask& task, uint32_t thread, uint64_t t) {
  if (task.slot) return task.slot;
  task_region_.push_back(task.region);
  task_parent_.push_back(0);
  task_creator_.push_back(task.creator_thread == exports::kNoThread ? -1
                                                                    : int64_t(task.creator_thread));
  task_created_.push_back(task.created_ns ? task.created_ns : t);
  task.slot = task_region_.size();
  if (task.id) number_of_.emplace(task.id, task.slot);
  return task.slot;
}

void TimelineData::task_create(uint32_t thread, uint64_t t, TimelineTask& task,
                               const TimelineTask* parent) {
  uint64_t n = number(task, thread, t);
  if (parent && parent->slot) task_parent_[n - 1] = parent->slot;
}

void TimelineData::task_switch(uint32_t thread, uint64_t t, TimelineTask* task,
                               const exports::SwitchInfo& how) {
  uint64_t n = task ? number(*task, thread, t) : 0;
  if (task && how.first) {
    for (const exports::DepIn& d : task->deps_in) {
      if (!d.slot) continue;
      deps_.push_back(d.slot);
      deps_.push_back(n);
    }
  }
  if (thread < threads_) switches_[thread].add(t, int64_t(n));
}

void TimelineData::thread_state(uint32_t thread, uint64_t t, ThreadState state) {
  if (thread < threads_) states_[thread].add(t, int64_t(state));
}

void TimelineData::end(uint64_t t) {
  end_ns_ = t;
}

nlohmann::json TimelineData::json(const std::vector<uint64_t>& path_tasks) const {
  nlohmann::json j;
  j["format"] = 1;
  // The critical path's tasks as task numbers, in path order (tasks the page never saw left out).
  nlohmann::json& path = j["path"] = nlohmann::json::array();
  for (uint64_t id : path_tasks) {
    auto it = number_of_.find(id);
    if (it != number_of_.end()) path.push_back(it->second);
  }
  j["run_ns"] = end_ns_;
  j["threads"] = threads_;
  nlohmann::json names = nlohmann::json::array();
  for (auto s : {ThreadState::kNotCreated, ThreadState::kIdle, ThreadState::kRunning,
                 ThreadState::kSynchronization, ThreadState::kOverhead}) {
    names.push_back(exports::thread_state_name(s));
  }
  j["state_names"] = names;
  nlohmann::json& states = j["states"] = nlohmann::json::array();
  for (const Changes& c : states_) states.push_back(c.flat);
  nlohmann::json& switches = j["switches"] = nlohmann::json::array();
  for (const Changes& c : switches_) switches.push_back(c.flat);
  nlohmann::json& regions = j["regions"] = nlohmann::json::array();
  for (uint32_t id = 1; id <= regions_.size(); ++id) {
    const exports::Region& r = regions_.at(id);
    nlohmann::json& one = regions.emplace_back();
    one = {{"name", r.name},
           {"kind", format::construct_name(r.kind)},
           {"function", r.function},
           {"file", r.file},
           {"line", r.line}};
    // The construct's address, as the report's `codeptr` keys write it (user regions: a string id).
    if (r.kind != format::Construct::kUser && r.key) one["codeptr"] = format::address_text(r.key);
  }
  // Columns; created times as differences from the previous task's, parents as the distance
  // back to the parent's number (0: none).
  std::vector<int64_t> created, parent;
  created.reserve(task_created_.size());
  parent.reserve(task_parent_.size());
  uint64_t prev = 0;
  for (size_t i = 0; i < task_created_.size(); ++i) {
    created.push_back(int64_t(task_created_[i]) - int64_t(prev));
    prev = task_created_[i];
    parent.push_back(task_parent_[i] ? int64_t(i + 1 - task_parent_[i]) : 0);
  }
  j["tasks"] = {{"count", task_region_.size()},
                {"region", task_region_},
                {"parent", parent},
                {"creator", task_creator_},
                {"created", created}};
  j["dependences"] = deps_;
  return j;
}

}  // namespace tasklens::html
