// The text and JSON forms of one event for `tasklens dump`.
#include "cli/event_format.h"

#include <fmt/format.h>

#include "format/event_views.h"
#include "format/kinds.h"

namespace tasklens::cli {
namespace {

using format::Kind;
using format::ev::In;
using format::ev::slot;

// The textual value of a small field (op/sub/flags) for the kinds where it is an enumeration.
std::string small_field_text(Kind k, std::string_view name, uint64_t v) {
  if (name == "endpoint") return std::string(format::endpoint_name(uint8_t(v)));
  if (name == "status") return std::string(format::task_status_name(uint8_t(v)));
  if (name == "sync_kind") return std::string(format::sync_kind_name(uint16_t(v)));
  if (name == "work_type") return std::string(format::work_type_name(uint16_t(v)));
  if (name == "mutex_kind") return std::string(format::mutex_kind_name(uint16_t(v)));
  if (name == "type") return std::string(format::dependence_type_name(uint8_t(v)));
  if (name == "thread_type") return std::string(format::thread_type_name(uint16_t(v)));
  if (name == "flags" && (k == Kind::kTaskCreate || k == Kind::kImplicitTask)) {
    return task_flags_text(uint32_t(v));
  }
  if (name == "flags") return fmt::format("{:#x}", v);
  return std::to_string(v);
}

bool is_enumeration(std::string_view name) {
  return name == "endpoint" || name == "status" || name == "sync_kind" || name == "work_type" ||
         name == "mutex_kind" || name == "type" || name == "thread_type";
}

bool is_id_slot(format::Slot s) { return s == format::Slot::kTask || s == format::Slot::kParallel; }

}  // namespace

std::string task_flags_text(uint32_t flags) {
  static const std::pair<uint32_t, const char*> kNames[] = {
      {format::task_flag::kInitial, "initial"},       {format::task_flag::kImplicit, "implicit"},
      {format::task_flag::kExplicit, "explicit"},     {format::task_flag::kTarget, "target"},
      {format::task_flag::kTaskwait, "taskwait"},     {format::task_flag::kUndeferred, "undeferred"},
      {format::task_flag::kUntied, "untied"},         {format::task_flag::kFinal, "final"},
      {format::task_flag::kMergeable, "mergeable"},   {format::task_flag::kMerged, "merged"}};
  std::string out;
  for (const auto& [bit, name] : kNames) {
    if (flags & bit) out += (out.empty() ? "" : "|") + std::string(name);
  }
  return out.empty() ? "0" : out;
}

std::string event_text(const format::Event& e, uint32_t thread, replay::Symbolizer& symbols) {
  const format::KindLayout& l = format::layout(e.kind);
  std::string s = fmt::format("{:>15} T{:<3} {:<16}", e.time, thread, l.name);
  auto small = [&](std::string_view name, uint64_t v) {
    if (!name.empty()) s += fmt::format(" {}={}", name, small_field_text(e.kind, name, v));
  };
  small(l.op, slot(e, In::kOp));
  small(l.sub, slot(e, In::kSub));
  small(l.flags, slot(e, In::kFlags));
  auto wide = [&](format::Slot slot, std::string_view name, uint64_t v) {
    if (slot == format::Slot::kNone) return;
    if (slot == format::Slot::kCode) {
      s += fmt::format(" {}={:#x}", name, v);
      if (v) {
        std::string where = symbols.describe(v);
        if (where[0] != '0') s += " " + where;
      }
    } else if (is_id_slot(slot)) {
      s += fmt::format(" {}={}", name, id_text(v));
    } else if (slot == format::Slot::kAddr) {
      s += fmt::format(" {}={:#x}", name, v);
    } else if (slot == format::Slot::kSigned) {
      s += fmt::format(" {}={}", name, int64_t(v));
    } else {
      s += fmt::format(" {}={}", name, v);
    }
  };
  wide(l.a, l.a_name, slot(e, In::kA));
  wide(l.b, l.b_name, slot(e, In::kB));
  wide(l.c, l.c_name, slot(e, In::kC));
  return s;
}

nlohmann::json event_json(const format::Event& e, uint32_t thread, replay::Symbolizer& symbols) {
  const format::KindLayout& l = format::layout(e.kind);
  nlohmann::json j = {{"t", e.time}, {"thread", thread}, {"kind", l.name}};
  auto small = [&](std::string_view name, uint64_t v) {
    if (name.empty()) return;
    if (is_enumeration(name)) {
      j[std::string(name)] = small_field_text(e.kind, name, v);
    } else {
      j[std::string(name)] = v;
    }
    if (name == "flags" && (e.kind == Kind::kTaskCreate || e.kind == Kind::kImplicitTask)) {
      j["flag_names"] = task_flags_text(uint32_t(v));
    }
  };
  small(l.op, slot(e, In::kOp));
  small(l.sub, slot(e, In::kSub));
  small(l.flags, slot(e, In::kFlags));
  auto wide = [&](format::Slot slot, std::string_view name, uint64_t v) {
    if (slot == format::Slot::kNone) return;
    std::string key(name);
    if (slot == format::Slot::kCode || slot == format::Slot::kAddr) {
      j[key] = fmt::format("{:#x}", v);
      if (slot == format::Slot::kCode && v) {
        const replay::Location& loc = symbols.resolve(v);
        if (!loc.function.empty()) j["function"] = loc.function;
        if (!loc.file.empty()) j["source"] = fmt::format("{}:{}", loc.file, loc.line);
      }
    } else if (slot == format::Slot::kSigned) {
      j[key] = int64_t(v);
    } else {
      j[key] = v;
    }
  };
  wide(l.a, l.a_name, slot(e, In::kA));
  wide(l.b, l.b_name, slot(e, In::kB));
  wide(l.c, l.c_name, slot(e, In::kC));
  return j;
}

}  // namespace tasklens::cli
