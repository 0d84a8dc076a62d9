// JsonOut, the allocation-free emitter the recorder writes experiment.json with (also from a crash
// handler): what it writes must parse back to the same values, whatever the strings hold.
#include "format/json_out.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace tasklens::format {
namespace {

TEST(JsonOut, EscapesQuotesBackslashesAndControlCharacters) {
  char buf[512];
  JsonOut o(buf, sizeof buf);
  std::string nasty = std::string("say \"hi\"\\ C:\\dir\n\ttab\x01\x1f end") + '\0' + "after-nul";
  o.begin_object().kv("s", nasty).end_object();
  ASSERT_FALSE(o.overflowed());
  EXPECT_EQ(std::string(o.data(), o.size()),
            "{\"s\":\"say \\\"hi\\\"\\\\ C:\\\\dir\\u000a\\u0009tab\\u0001\\u001f end\\u0000"
            "after-nul\"}");
  auto j = nlohmann::json::parse(std::string(o.data(), o.size()));
  EXPECT_EQ(j["s"].get<std::string>(), nasty);
}

TEST(JsonOut, KeepsUtf8AsIs) {
  char buf[128];
  JsonOut o(buf, sizeof buf);
  o.begin_object().kv("path", "/home/zoë/計算").end_object();
  auto j = nlohmann::json::parse(std::string(o.data(), o.size()));
  EXPECT_EQ(j["path"].get<std::string>(), "/home/zoë/計算");
}

TEST(JsonOut, NestedValuesParseBack) {
  char buf[1024];
  JsonOut o(buf, sizeof buf);
  o.begin_object();
  o.kv_u64("big", 18446744073709551615ull).kv_i64("neg", -42).kv_f64("x", 0.1);
  o.kv_bool("yes", true).kv_bool("no", false);
  o.key("hex").hex(0x7f00dead);
  o.key("empty_array").begin_array().end_array();
  o.key("empty_object").begin_object().end_object();
  o.key("list").begin_array();
  o.u64(1).str("two").begin_object().kv("three", "3").end_object().begin_array().end_array();
  o.end_array();
  o.key("raw").json("{\"already\":[1,2]}");
  o.end_object();
  ASSERT_FALSE(o.overflowed());
  auto j = nlohmann::json::parse(std::string(o.data(), o.size()));
  EXPECT_EQ(j["big"].get<uint64_t>(), 18446744073709551615ull);
  EXPECT_EQ(j["neg"].get<int64_t>(), -42);
  EXPECT_DOUBLE_EQ(j["x"].get<double>(), 0.1);
  EXPECT_TRUE(j["yes"].get<bool>());
  EXPECT_FALSE(j["no"].get<bool>());
  EXPECT_EQ(j["hex"], "0x7f00dead");
  EXPECT_TRUE(j["empty_array"].is_array() && j["empty_array"].empty());
  EXPECT_TRUE(j["empty_object"].is_object() && j["empty_object"].empty());
  EXPECT_EQ(j["list"].dump(), "[1,\"two\",{\"three\":\"3\"},[]]");
  EXPECT_EQ(j["raw"]["already"][1], 2);
}

// Integers are formatted by hand (no snprintf on the crash path): the extremes and zero.
TEST(JsonOut, IntegersAtTheirLimits) {
  char buf[256];
  JsonOut o(buf, sizeof buf);
  o.begin_array()
      .u64(0)
      .i64(0)
      .i64(INT64_MIN)
      .i64(INT64_MAX)
      .u64(UINT64_MAX)
      .hex(0)
      .hex(UINT64_MAX);
  o.end_array();
  EXPECT_EQ(std::string(o.data(), o.size()),
            "[0,0,-9223372036854775808,9223372036854775807,18446744073709551615,\"0x0\","
            "\"0xffffffffffffffff\"]");
}

TEST(JsonOut, OverflowIsCutAndSaid) {
  char buf[16];
  JsonOut o(buf, sizeof buf);
  o.begin_object().kv("key", "a value longer than the buffer").end_object();
  EXPECT_TRUE(o.overflowed());
  EXPECT_EQ(o.size(), sizeof buf - 1);
  EXPECT_EQ(buf[o.size()], '\0');  // still a C string
}

}  // namespace
}  // namespace tasklens::format
