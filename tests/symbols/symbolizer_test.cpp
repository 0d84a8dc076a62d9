// symbols::Symbolizer: a return address in this test binary resolves to the calling function,
// this file and the call's line (llvm-symbolizer on the binary's debug info, placed with the
// object list the recorder writes); an address in no object stays raw; disabled, every address is
// its own construct; copies of one source location are one construct.
#include <gtest/gtest.h>

#include <link.h>
#include <unistd.h>

#include <string>

#include "symbols/symbolizer.h"

namespace tasklens::symbols {
namespace {

// The main program as the recorder lists it (loaded_objects.cpp): its path and load base.
format::Metadata::LoadedObject main_program() {
  format::Metadata::LoadedObject self;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* out = static_cast<format::Metadata::LoadedObject*>(data);
        if (info->dlpi_name && *info->dlpi_name) return 0;  // the main program has no name here
        char exe[4096];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0) return 0;
        out->path.assign(exe, size_t(n));
        out->base = info->dlpi_addr;
        return 1;
      },
      &self);
  return self;
}

bool have_llvm_symbolizer() {
  for (const char* p : {"/usr/bin/llvm-symbolizer-14", "/usr/lib/llvm-14/bin/llvm-symbolizer",
                        "/usr/bin/llvm-symbolizer"}) {
    if (access(p, X_OK) == 0) return true;
  }
  return false;
}

// The return address of a call on a known line, as OMPT hands codeptr_ra to the recorder.
__attribute__((noinline)) uint64_t return_address() {
  return uint64_t(__builtin_extract_return_addr(__builtin_return_address(0)));
}
constexpr int kCallLine = __LINE__ + 3;
__attribute__((noinline)) uint64_t caller_on_known_line() {
  asm volatile("");
  uint64_t ra = return_address();
  asm volatile("");
  return ra;
}

TEST(Symbolizer, ResolvesAReturnAddressToTheCallersLine) {
  if (!have_llvm_symbolizer()) GTEST_SKIP() << "no llvm-symbolizer";
  format::Metadata::LoadedObject self = main_program();
  ASSERT_FALSE(self.path.empty());
  uint64_t ra = caller_on_known_line();
  Symbolizer s({self});
  const Location& l = s.resolve(ra);
  EXPECT_EQ(l.object, self.path);
  EXPECT_EQ(l.offset, ra - self.base);
  EXPECT_NE(l.function.find("caller_on_known_line"), std::string::npos) << l.function;
  EXPECT_EQ(l.file, "symbolizer_test.cpp");
  EXPECT_EQ(l.line, kCallLine);
  EXPECT_EQ(s.short_name(ra), "symbolizer_test.cpp:" + std::to_string(kCallLine));
  EXPECT_EQ(s.describe(ra), l.function + " (symbolizer_test.cpp:" + std::to_string(kCallLine) + ")");
  EXPECT_TRUE(s.notes().empty());
  // The same address again is the same construct, listed once.
  EXPECT_EQ(s.construct(ra), ra);
  EXPECT_EQ(s.construct(ra), ra);
  EXPECT_EQ(s.codeptrs(ra), (std::vector<uint64_t>{ra}));
}

TEST(Symbolizer, AnAddressOutsideEveryObjectStaysRaw) {
  Symbolizer s({{"/nonexistent/app", 0x400000}});
  EXPECT_EQ(s.short_name(0x1234), "0x1234");
  EXPECT_TRUE(s.resolve(0x1234).object.empty());
  // Inside the object, but the file cannot be read: the object and the offset.
  EXPECT_EQ(s.short_name(0x401000), "app+0x1000");
}

TEST(Symbolizer, DisabledGivesRawAddressesAndNoMerging) {
  format::Metadata::LoadedObject self = main_program();
  uint64_t ra = caller_on_known_line();
  Symbolizer s({self}, /*enabled=*/false);
  EXPECT_TRUE(s.resolve(ra).object.empty());
  EXPECT_EQ(s.construct(ra), ra);
  EXPECT_EQ(s.construct(0), 0u);
  EXPECT_TRUE(s.codeptrs(ra).empty());
}

TEST(Symbolizer, CopiesOfOneLocationAreOneConstruct) {
  Location a;
  a.path = "/src/app.c", a.file = "app.c", a.line = 7, a.column = 3, a.function = "f";
  Location other = a;
  other.line = 9;
  Symbolizer s({{0x2100, a}, {0x2000, a}, {0x2200, other}});
  EXPECT_EQ(s.construct(0x2100), 0x2100u);  // the first one met names the construct
  EXPECT_EQ(s.construct(0x2000), 0x2100u);
  EXPECT_EQ(s.construct(0x2200), 0x2200u);
  EXPECT_EQ(s.codeptrs(0x2100), (std::vector<uint64_t>{0x2000, 0x2100}));
  EXPECT_EQ(s.short_name(0x2000), "app.c:7");
  EXPECT_EQ(s.describe(0x2200), "f (app.c:9)");
  EXPECT_EQ(s.short_name(0x3000), "0x3000");  // fixed answers: others resolve to nothing
}

}  // namespace
}  // namespace tasklens::symbols
