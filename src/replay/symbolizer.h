// Turns recorded code addresses (codeptr_ra) into function, file and line after the run, with
// the object list the recorder saved and llvm-symbolizer as a long-lived helper process.
// Without llvm-symbolizer or debug info, locations stay raw addresses.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

namespace tasklens::replay {

struct Location {
  std::string function;  // empty when unknown
  std::string file;      // file name without directories, empty when unknown
  int line = 0;
  std::string object;    // the object's path
};

class Symbolizer {
 public:
  // `objects` is the metadata's "objects" array. `enabled` false gives raw addresses only.
  explicit Symbolizer(const nlohmann::json& objects, bool enabled = true);
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  // The location of the call that a return address follows.
  const Location& resolve(uint64_t codeptr);
  // "function (file:line)", "function", or "0x1234".
  std::string describe(uint64_t codeptr);
  // "file:line", or the function, or "0x1234": the short form for tables.
  std::string short_name(uint64_t codeptr);

 private:
  bool start_helper();
  bool query(const std::string& object, uint64_t offset, Location* out);

  struct Object {
    std::string path;
    uint64_t base;
  };
  std::vector<Object> objects_;  // sorted by base
  std::unordered_map<uint64_t, Location> cache_;
  bool enabled_;
  bool started_ = false;
  int pid_ = -1;
  int to_helper_ = -1;
  FILE* from_helper_ = nullptr;
};

}  // namespace tasklens::replay
