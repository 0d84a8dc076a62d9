// Durations, ids, addresses and quoting as every layer writes them (format/text.h).
#include "format/text.h"

#include <gtest/gtest.h>

#include "format/event.h"

namespace tasklens::format {
namespace {

TEST(Text, DurationUnits) {
  EXPECT_EQ(duration_text(0), "0 ns");
  EXPECT_EQ(duration_text(999), "999 ns");
  EXPECT_EQ(duration_text(1000), "1.000 us");
  EXPECT_EQ(duration_text(3400), "3.400 us");
  EXPECT_EQ(duration_text(12345678), "12.346 ms");
  EXPECT_EQ(duration_text(1234000000), "1.234 s");
}

TEST(Text, Ids) {
  EXPECT_EQ(id_text(0), "none");
  EXPECT_EQ(id_text(42), "42");
  EXPECT_EQ(id_text((uint64_t(2) << 48) | 42), "T1#42");  // thread numbers are stored + 1
}

TEST(Text, Addresses) {
  EXPECT_EQ(address_text(0), "0x0");
  EXPECT_EQ(address_text(0x401a2b), "0x401a2b");
  EXPECT_EQ(address_text(~uint64_t(0)), "0xffffffffffffffff");
}

TEST(Text, Quoting) {
  EXPECT_EQ(json_quote("a\"b\\c\nd\x01"), "\"a\\\"b\\\\c\\nd\\u0001\"");
  EXPECT_EQ(dot_quote("say \"hi\"\nnow"), "\"say \\\"hi\\\" now\"");
  EXPECT_EQ(xml_escape("a<b & 'c'>\""), "a&lt;b &amp; &apos;c&apos;&gt;&quot;");
}

}  // namespace
}  // namespace tasklens::format
