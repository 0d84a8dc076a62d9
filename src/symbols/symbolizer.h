// Turns recorded code addresses (codeptr_ra) into function, file and line after the run, with
// the object list the recorder saved and llvm-symbolizer as a long-lived helper process.
// Without llvm-symbolizer or debug info, locations stay raw addresses.
//
// It also knows which addresses are one task construct: a compiler that unrolls a loop or
// inlines a function copies the construct, and every copy reports its own code address. All
// copies have the same source location (file, line and column, from the debug info), so
// construct() maps each address to the first one of its location that the replay met, and
// codeptrs() lists the copies. Without a line (no -g) every address is its own construct.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "format/metadata.h"
#include "replay/construct_map.h"

namespace tasklens::symbols {

struct Location {
  std::string function;  // empty when unknown
  std::string file;      // file name without directories; empty when unknown or without a line
  std::string path;      // the source file as the debug info names it (the construct's key)
  int line = 0;          // > 0 whenever `file` is set
  int column = 0;        // 0 when unknown
  std::string object;    // the object's path
  uint64_t offset = 0;           // the address's offset in its object
  uint64_t function_offset = 0;  // the address's offset in `function` (when has_function_start)
  bool has_function_start = false;
};

class Symbolizer final : public replay::ConstructMap {
 public:
  // `objects`: where the process loaded each object (the metadata's). `enabled` false gives raw
  // addresses only.
  explicit Symbolizer(const std::vector<format::Metadata::LoadedObject>& objects,
                      bool enabled = true);
  // Fixed answers, no helper process (golden tests): each address resolves to its entry, any
  // other one to nothing.
  explicit Symbolizer(std::unordered_map<uint64_t, Location> known);
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  // Starts the helper process now rather than at the first lookup, so that its start (20-40 ms
  // of loading llvm-symbolizer's libraries) overlaps other work; the answers are the same.
  void start() {
    if (enabled_ && !fixed_ && !objects_.empty() && !started_) start_helper();
  }
  // The location of the call that a return address follows.
  const Location& resolve(uint64_t codeptr);
  // "function (file:line)", "function+0x1f", or "0x1234".
  std::string describe(uint64_t codeptr);
  // "file:line", or "function+0x1f", or "object+0x1234" (no symbols), or "0x1234": the short
  // form for tables.
  std::string short_name(uint64_t codeptr);

  // The task construct `codeptr` is a copy of: the first address of its source location that
  // this call met (0 stays 0). The replay's task model calls it once per task creation.
  uint64_t construct(uint64_t codeptr) override {
    if (codeptr == last_code_) return last_construct_;
    last_code_ = codeptr;
    return last_construct_ = find_construct(codeptr);
  }
  // The addresses construct() mapped onto `construct`, ascending (empty when it met none).
  const std::vector<uint64_t>& codeptrs(uint64_t construct) const;

  // The objects whose addresses found no function at all (stripped), once each, as notes for
  // the reader: "prog has no symbols (stripped?): its code addresses are shown as prog+0x1234".
  std::vector<std::string> notes() const;

 private:
  bool start_helper();
  bool query(const std::string& object, uint64_t offset, Location* out);
  uint64_t find_construct(uint64_t codeptr);

  struct Object {
    std::string path;
    uint64_t base;
    uint64_t found = 0, missed = 0;  // lookups that found a function, and not
  };
  std::vector<Object> objects_;  // sorted by base
  std::unordered_map<uint64_t, Location> cache_;
  bool enabled_;
  bool fixed_ = false;  // answers come from cache_ only
  bool started_ = false;
  int pid_ = -1;
  int to_helper_ = -1;
  FILE* from_helper_ = nullptr;

  uint64_t last_code_ = 0, last_construct_ = 0;
  std::unordered_map<uint64_t, uint64_t> construct_of_;              // address -> construct
  std::unordered_map<std::string, uint64_t> construct_at_;           // location key -> construct
  std::unordered_map<uint64_t, std::vector<uint64_t>> copies_;       // construct -> addresses
};

}  // namespace tasklens::symbols
