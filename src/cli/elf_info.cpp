// read_elf_info: DT_NEEDED entries and imported dynamic symbols, read from the ELF file.
#include "cli/elf_info.h"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

namespace tasklens::cli {
namespace {

// A NUL-terminated string at `off` inside section `sh` of `data`, or "" when out of range.
std::string string_at(const std::vector<char>& data, const Elf64_Shdr& sh, uint64_t off) {
  if (sh.sh_offset + off >= data.size() || off >= sh.sh_size) return {};
  const char* s = data.data() + sh.sh_offset + off;
  size_t max = std::min<size_t>(data.size() - (sh.sh_offset + off), sh.sh_size - off);
  return std::string(s, strnlen(s, max));
}

}  // namespace

bool ElfInfo::needs(const std::string& soname) const {
  return std::find(needed.begin(), needed.end(), soname) != needed.end();
}

bool ElfInfo::imports_symbol(const std::string& name) const {
  return std::find(imports.begin(), imports.end(), name) != imports.end();
}

ElfInfo read_elf_info(const std::string& path) {
  ElfInfo info;
  std::ifstream in(path, std::ios::binary);
  if (!in) return info;
  std::vector<char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (data.size() < sizeof(Elf64_Ehdr) || std::memcmp(data.data(), ELFMAG, SELFMAG) != 0 ||
      data[EI_CLASS] != ELFCLASS64) {
    return info;
  }
  info.is_elf = true;
  Elf64_Ehdr eh;
  std::memcpy(&eh, data.data(), sizeof eh);
  if (eh.e_shoff == 0 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
      eh.e_shoff + uint64_t(eh.e_shnum) * sizeof(Elf64_Shdr) > data.size()) {
    return info;
  }
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  std::memcpy(sections.data(), data.data() + eh.e_shoff, eh.e_shnum * sizeof(Elf64_Shdr));
  for (const Elf64_Shdr& sh : sections) {
    if (sh.sh_link >= sections.size() || sh.sh_offset + sh.sh_size > data.size()) continue;
    const Elf64_Shdr& strtab = sections[sh.sh_link];
    if (sh.sh_type == SHT_DYNAMIC) {
      info.is_dynamic = true;
      for (uint64_t off = 0; off + sizeof(Elf64_Dyn) <= sh.sh_size; off += sizeof(Elf64_Dyn)) {
        Elf64_Dyn d;
        std::memcpy(&d, data.data() + sh.sh_offset + off, sizeof d);
        if (d.d_tag == DT_NULL) break;
        if (d.d_tag == DT_NEEDED) info.needed.push_back(string_at(data, strtab, d.d_un.d_val));
      }
    } else if (sh.sh_type == SHT_DYNSYM) {
      for (uint64_t off = sizeof(Elf64_Sym); off + sizeof(Elf64_Sym) <= sh.sh_size;
           off += sizeof(Elf64_Sym)) {
        Elf64_Sym s;
        std::memcpy(&s, data.data() + sh.sh_offset + off, sizeof s);
        if (s.st_shndx == SHN_UNDEF && s.st_name) {
          info.imports.push_back(string_at(data, strtab, s.st_name));
        }
      }
    }
  }
  return info;
}

}  // namespace tasklens::cli
