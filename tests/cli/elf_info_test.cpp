// read_elf_info: what `tasklens run` learns from a program's ELF file before starting it (does it
// need libgomp, does it import omp_fulfill_event).
#include "cli/elf_info.h"

#include <gtest/gtest.h>

#include <fstream>

#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::cli {
namespace {

TEST(ElfInfo, ThisTestIsADynamicProgramThatNeedsLibc) {
  ElfInfo e = read_elf_info("/proc/self/exe");
  EXPECT_TRUE(e.is_elf);
  EXPECT_TRUE(e.is_dynamic);
  EXPECT_TRUE(e.needs("libc.so.6"));
  EXPECT_FALSE(e.needs("libgomp.so.1"));
  EXPECT_FALSE(e.imports_symbol("omp_fulfill_event"));
}

TEST(ElfInfo, GccProgramsNeedLibgompAndImportItsEntryPoints) {
  ElfInfo fib = read_elf_info(testing::example("gcc/fib"));
  ASSERT_TRUE(fib.is_elf) << testing::example("gcc/fib");
  EXPECT_TRUE(fib.needs("libgomp.so.1"));
  EXPECT_TRUE(fib.imports_symbol("GOMP_parallel"));
  EXPECT_FALSE(fib.imports_symbol("omp_fulfill_event"));
  // detach.c calls omp_fulfill_event, which libomp cannot provide through the libgomp symlink.
  EXPECT_TRUE(read_elf_info(testing::example("gcc/detach")).imports_symbol("omp_fulfill_event"));
}

TEST(ElfInfo, ScriptsAndMissingFilesAreNotElf) {
  std::string dir = testing::scratch_dir("elf");
  std::string script = dir + "/script.sh";
  std::ofstream(script) << "#!/bin/sh\nexit 0\n";
  EXPECT_FALSE(read_elf_info(script).is_elf);
  EXPECT_FALSE(read_elf_info(dir + "/missing").is_elf);
  // A file that starts like ELF but is cut short is not read past its end.
  std::string cut = dir + "/cut";
  std::ofstream(cut) << "\x7f" "ELF\x02\x01\x01";
  ElfInfo e = read_elf_info(cut);
  EXPECT_TRUE(e.needed.empty());
  EXPECT_TRUE(e.imports.empty());
}

}  // namespace
}  // namespace tasklens::cli
