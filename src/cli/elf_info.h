// What `tasklens run` needs to know about a program before it starts it: which shared libraries
// it asks for (DT_NEEDED) and which dynamic symbols it imports. Read from the ELF file itself.
#pragma once

#include <string>
#include <vector>

namespace tasklens::cli {

struct ElfInfo {
  bool is_elf = false;
  bool is_dynamic = false;
  std::vector<std::string> needed;   // DT_NEEDED entries, e.g. "libgomp.so.1"
  std::vector<std::string> imports;  // undefined dynamic symbols, e.g. "omp_fulfill_event"

  bool needs(const std::string& soname) const;
  bool imports_symbol(const std::string& name) const;
};

// Reads `path`; is_elf stays false for scripts and non-ELF files.
ElfInfo read_elf_info(const std::string& path);

}  // namespace tasklens::cli
