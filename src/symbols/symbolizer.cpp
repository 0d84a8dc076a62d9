// llvm-symbolizer as a helper process fed through pipes, its answers cached per address.
#include "symbols/symbolizer.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <cstdio>
#include <cstring>

#include "format/text.h"
#include "process/spawn.h"

namespace tasklens::symbols {
namespace {

const char* find_llvm_symbolizer() {
  static const char* const kCandidates[] = {"/usr/bin/llvm-symbolizer-14",
                                            "/usr/lib/llvm-14/bin/llvm-symbolizer",
                                            "/usr/bin/llvm-symbolizer"};
  for (const char* c : kCandidates) {
    if (access(c, X_OK) == 0) return c;
  }
  return nullptr;
}

// A write to the helper that fails quietly if it died, without SIGPIPE: the signal stays
// default for the process, so `tasklens dump | head` ends as quietly as `cat | head`.
bool write_to_helper(int fd, const std::string& line) {
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  bool ok = write(fd, line.data(), line.size()) == ssize_t(line.size());
  if (!ok && errno == EPIPE) {
    // Take the SIGPIPE this write raised before unblocking, unless one was pending already.
    sigset_t pending;
    sigpending(&pending);
    if (sigismember(&pending, SIGPIPE) && !sigismember(&old, SIGPIPE)) {
      timespec zero{};
      sigtimedwait(&pipe_set, nullptr, &zero);
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return ok;
}

}  // namespace

Symbolizer::Symbolizer(const std::vector<format::Metadata::LoadedObject>& objects, bool enabled)
    : enabled_(enabled) {
  for (const auto& o : objects) objects_.push_back({o.path, o.base});
  std::sort(objects_.begin(), objects_.end(),
            [](const Object& a, const Object& b) { return a.base < b.base; });
}

Symbolizer::Symbolizer(std::unordered_map<uint64_t, Location> known)
    : cache_(std::move(known)), enabled_(true), fixed_(true) {}

Symbolizer::~Symbolizer() {
  if (to_helper_ >= 0) close(to_helper_);
  if (from_helper_) fclose(from_helper_);
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }
}

bool Symbolizer::start_helper() {
  started_ = true;
  const char* tool = find_llvm_symbolizer();
  if (!tool) return false;
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) return false;
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]), close(in[1]);
    return false;
  }
  process::SpawnOptions options;
  options.in = process::Stream::descriptor(in[0]);
  options.out = process::Stream::descriptor(out[1]);
  pid_t pid;
  int rc = process::spawn(
      {tool, "--demangle", "--inlining=false", "--functions=linkage", "--verbose"}, options, &pid);
  close(in[0]);
  close(out[1]);
  if (rc != 0) {
    close(in[1]), close(out[0]);
    return false;
  }
  pid_ = pid;
  to_helper_ = in[1];
  from_helper_ = fdopen(out[0], "r");
  return from_helper_ != nullptr;
}

bool Symbolizer::query(const std::string& object, uint64_t offset, Location* out) {
  if (!started_ && !start_helper()) return false;
  if (!from_helper_) return false;
  std::string line = "\"" + object + "\" " + format::address_text(offset) + "\n";
  if (!write_to_helper(to_helper_, line)) return false;
  char buf[4096];
  int n = 0;
  // --verbose answer: the function's name, then indented "Key: value" lines (Filename, Function
  // start address, Line, Column, ...), then a blank line. Without debug info the file may come
  // from the symbol table with line 0: a file without a line says nothing, so it is dropped.
  std::string path;
  while (std::fgets(buf, sizeof buf, from_helper_)) {
    size_t len = std::strlen(buf);
    while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r')) buf[--len] = 0;
    if (len == 0) break;
    if (n++ == 0) {
      if (std::strcmp(buf, "??") != 0) out->function = buf;
      continue;
    }
    std::string s = buf;
    size_t start = s.find_first_not_of(' ');
    size_t colon = s.find(": ", start);
    if (start == std::string::npos || colon == std::string::npos) continue;
    std::string key = s.substr(start, colon - start), value = s.substr(colon + 2);
    if (key == "Filename") {
      path = value == "??" ? "" : value;
    } else if (key == "Line") {
      out->line = std::atoi(value.c_str());
    } else if (key == "Column") {
      out->column = std::atoi(value.c_str());
    } else if (key == "Function start address" && !out->function.empty()) {
      uint64_t start_address = std::strtoull(value.c_str(), nullptr, 16);
      if (start_address <= offset) {
        out->has_function_start = true;
        out->function_offset = offset + 1 - start_address;  // of the return address
      }
    }
  }
  if (!path.empty() && out->line > 0) {
    size_t slash = path.rfind('/');
    out->path = path;
    out->file = slash == std::string::npos ? path : path.substr(slash + 1);
  } else {
    out->line = out->column = 0;
  }
  return n > 0;
}

const Location& Symbolizer::resolve(uint64_t codeptr) {
  auto it = cache_.find(codeptr);
  if (it != cache_.end()) return it->second;
  Location loc;
  if (enabled_ && !fixed_ && codeptr && !objects_.empty()) {
    auto o = std::upper_bound(objects_.begin(), objects_.end(), codeptr,
                              [](uint64_t a, const Object& obj) { return a < obj.base; });
    if (o != objects_.begin()) {
      --o;
      loc.object = o->path;
      loc.offset = codeptr - o->base;
      // A return address points after the call: look up the byte before it.
      if (query(o->path, codeptr - o->base - 1, &loc)) ++(loc.function.empty() ? o->missed : o->found);
    }
  }
  return cache_.emplace(codeptr, std::move(loc)).first->second;
}

namespace {

std::string basename_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string Symbolizer::describe(uint64_t codeptr) {
  const Location& l = resolve(codeptr);
  if (l.function.empty()) return short_name(codeptr);
  if (l.file.empty()) return short_name(codeptr);
  return l.function + " (" + l.file + ":" + std::to_string(l.line) + ")";
}

std::string Symbolizer::short_name(uint64_t codeptr) {
  const Location& l = resolve(codeptr);
  if (!l.file.empty()) return l.file + ":" + std::to_string(l.line);
  if (!l.function.empty()) {
    return l.has_function_start ? l.function + "+" + format::address_text(l.function_offset) : l.function;
  }
  if (!l.object.empty()) return basename_of(l.object) + "+" + format::address_text(l.offset);
  return format::address_text(codeptr);
}

uint64_t Symbolizer::find_construct(uint64_t codeptr) {
  if (codeptr == 0 || !enabled_) return codeptr;
  auto it = construct_of_.find(codeptr);
  if (it != construct_of_.end()) return it->second;
  const Location& l = resolve(codeptr);
  uint64_t construct = codeptr;
  if (!l.path.empty()) {
    std::string key = l.object + '\n' + l.path + ':' + std::to_string(l.line) + ':' +
                      std::to_string(l.column);
    construct = construct_at_.emplace(key, codeptr).first->second;
  }
  construct_of_.emplace(codeptr, construct);
  std::vector<uint64_t>& copies = copies_[construct];
  copies.insert(std::upper_bound(copies.begin(), copies.end(), codeptr), codeptr);
  return construct;
}

const std::vector<uint64_t>& Symbolizer::codeptrs(uint64_t construct) const {
  static const std::vector<uint64_t> kNone;
  auto it = copies_.find(construct);
  return it == copies_.end() ? kNone : it->second;
}

std::vector<std::string> Symbolizer::notes() const {
  std::vector<std::string> out;
  for (const Object& o : objects_) {
    if (o.found || !o.missed) continue;
    std::string name = basename_of(o.path);
    out.push_back(name + " has no symbols (stripped?): its code addresses are shown as " + name +
                  "+offset");
  }
  return out;
}

}  // namespace tasklens::symbols
