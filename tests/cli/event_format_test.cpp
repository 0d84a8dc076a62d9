// The lines and JSON objects of `tasklens dump`: field names from format/kinds.h, ids as T<thread>#
// <counter>, enumerations by name, code addresses with their source location.
#include "cli/event_format.h"

#include <gtest/gtest.h>

namespace tasklens::cli {
namespace {

using format::Event;
using format::Kind;

replay::Symbolizer symbols() {
  replay::Location at;
  at.function = "node";
  at.file = "tree.c";
  at.path = "/src/tree.c";
  at.line = 29;
  return replay::Symbolizer(std::unordered_map<uint64_t, replay::Location>{{0x4010, at}});
}

TEST(EventFormat, IdsNameTheirThreadAndCounter) {
  EXPECT_EQ(id_text(0), "none");
  EXPECT_EQ(id_text(42), "42");  // not made by the recorder: printed as is
  EXPECT_EQ(id_text(format::make_id(1, 206)), "T1#206");
}

TEST(EventFormat, TaskFlagsByName) {
  EXPECT_EQ(task_flags_text(0), "0");
  EXPECT_EQ(task_flags_text(format::task_flag::kExplicit | format::task_flag::kUntied),
            "explicit|untied");
}

TEST(EventFormat, TaskCreateLineAndObject) {
  replay::Symbolizer s = symbols();
  Event e{722682336, Kind::kTaskCreate, 0, 0,
          format::task_flag::kExplicit | format::task_flag::kUntied, format::make_id(1, 206),
          format::make_id(1, 205), 0x4010};
  EXPECT_EQ(event_text(e, 1, s),
            "      722682336 T1   task_create      has_deps=0 flags=explicit|untied task=T1#206 "
            "parent=T1#205 codeptr=0x4010 node (tree.c:29)");
  nlohmann::json j = event_json(e, 1, s);
  EXPECT_EQ(j["kind"], "task_create");
  EXPECT_EQ(j["t"], 722682336u);
  EXPECT_EQ(j["thread"], 1);
  EXPECT_EQ(j["flag_names"], "explicit|untied");
  EXPECT_EQ(j["codeptr"], "0x4010");
  EXPECT_EQ(j["function"], "node");
  EXPECT_EQ(j["source"], "tree.c:29");
}

TEST(EventFormat, ScheduleStatusByName) {
  replay::Symbolizer s = symbols();
  Event e{10, Kind::kTaskSchedule, uint8_t(format::TaskStatus::kYield), 0, 0,
          format::make_id(0, 5), format::make_id(0, 6), 0};
  std::string line = event_text(e, 0, s);
  EXPECT_NE(line.find("status=yield prior=T0#5 next=T0#6"), std::string::npos) << line;
  EXPECT_EQ(event_json(e, 0, s)["status"], "yield");
}

}  // namespace
}  // namespace tasklens::cli
