// read_elf_info: DT_NEEDED entries and imported dynamic symbols, read from the ELF file.
#include "cli/elf_info.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace tasklens::cli {
namespace {

// Reads only the parts it needs (the headers, .dynamic, .dynsym and their string tables), not
// the whole file: a program with debug information can be hundreds of MB, read before it starts.
class ElfFile {
 public:
  explicit ElfFile(const std::string& path) : fd_(open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    struct stat st;
    if (fd_ >= 0 && fstat(fd_, &st) == 0) size_ = uint64_t(st.st_size);
  }
  ~ElfFile() {
    if (fd_ >= 0) close(fd_);
  }
  ElfFile(const ElfFile&) = delete;
  ElfFile& operator=(const ElfFile&) = delete;

  uint64_t size() const { return size_; }
  // `n` bytes at `off`, all inside the file, or false.
  bool read(uint64_t off, void* out, uint64_t n) const {
    if (fd_ < 0 || off > size_ || n > size_ - off) return false;
    auto* p = static_cast<char*>(out);
    while (n > 0) {
      ssize_t got = pread(fd_, p, n, off_t(off));
      if (got <= 0) return false;
      p += got, off += uint64_t(got), n -= uint64_t(got);
    }
    return true;
  }
  std::vector<char> section(const Elf64_Shdr& sh) const {
    std::vector<char> data(sh.sh_size);
    if (!read(sh.sh_offset, data.data(), sh.sh_size)) data.clear();
    return data;
  }

 private:
  int fd_;
  uint64_t size_ = 0;
};

// A NUL-terminated string at `off` of a string table, or "" when out of range.
std::string string_at(const std::vector<char>& strtab, uint64_t off) {
  if (off >= strtab.size()) return {};
  const char* s = strtab.data() + off;
  return std::string(s, strnlen(s, strtab.size() - off));
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
  ElfFile file(path);
  Elf64_Ehdr eh;
  if (!file.read(0, &eh, sizeof eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64) {
    return info;
  }
  info.is_elf = true;
  if (eh.e_shoff == 0 || eh.e_shentsize != sizeof(Elf64_Shdr)) return info;
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  if (!file.read(eh.e_shoff, sections.data(), uint64_t(eh.e_shnum) * sizeof(Elf64_Shdr))) {
    return info;
  }
  for (const Elf64_Shdr& sh : sections) {
    if (sh.sh_type != SHT_DYNAMIC && sh.sh_type != SHT_DYNSYM) continue;
    if (sh.sh_link >= sections.size() || sh.sh_offset + sh.sh_size > file.size()) continue;
    std::vector<char> data = file.section(sh);
    std::vector<char> strtab = file.section(sections[sh.sh_link]);
    if (sh.sh_type == SHT_DYNAMIC) {
      info.is_dynamic = true;
      for (uint64_t off = 0; off + sizeof(Elf64_Dyn) <= data.size(); off += sizeof(Elf64_Dyn)) {
        Elf64_Dyn d;
        std::memcpy(&d, data.data() + off, sizeof d);
        if (d.d_tag == DT_NULL) break;
        if (d.d_tag == DT_NEEDED) info.needed.push_back(string_at(strtab, d.d_un.d_val));
      }
    } else {
      for (uint64_t off = sizeof(Elf64_Sym); off + sizeof(Elf64_Sym) <= data.size();
           off += sizeof(Elf64_Sym)) {
        Elf64_Sym s;
        std::memcpy(&s, data.data() + off, sizeof s);
        if (s.st_shndx == SHN_UNDEF && s.st_name) info.imports.push_back(string_at(strtab, s.st_name));
      }
    }
  }
  return info;
}

}  // namespace tasklens::cli
