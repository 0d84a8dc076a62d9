// llvm-symbolizer as a helper process fed through pipes, its answers cached per address.
#include "replay/symbolizer.h"

#include "format/experiment.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <cstdio>
#include <cstring>

#include "process/spawn.h"

namespace tasklens::replay {
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

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
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

Symbolizer::Symbolizer(const nlohmann::json& objects, bool enabled) : enabled_(enabled) {
  if (objects.is_array()) {
    for (const auto& o : objects) {
      if (!o.is_object() || !o.contains("path") || !o["path"].is_string() || !o.contains("base")) {
        continue;
      }
      uint64_t base = format::hex_address(o["base"]);
      objects_.push_back({o["path"].get<std::string>(), base});
    }
  }
  std::sort(objects_.begin(), objects_.end(),
            [](const Object& a, const Object& b) { return a.base < b.base; });
}

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
  int rc = process::spawn({tool, "--demangle", "--inlining=false", "--functions=linkage"}, options,
                          &pid);
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
  std::string line = "\"" + object + "\" " + hex(offset) + "\n";
  if (!write_to_helper(to_helper_, line)) return false;
  char buf[4096];
  int n = 0;
  // Answer: function line, file:line:column line, blank line.
  while (std::fgets(buf, sizeof buf, from_helper_)) {
    size_t len = std::strlen(buf);
    while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r')) buf[--len] = 0;
    if (len == 0) break;
    if (n == 0 && std::strcmp(buf, "??") != 0) out->function = buf;
    if (n == 1) {
      std::string s = buf;
      // file:line:column
      size_t c2 = s.rfind(':');
      size_t c1 = c2 == std::string::npos ? c2 : s.rfind(':', c2 - 1);
      if (c1 != std::string::npos && s.compare(0, 2, "??") != 0) {
        std::string file = s.substr(0, c1);
        size_t slash = file.rfind('/');
        out->file = slash == std::string::npos ? file : file.substr(slash + 1);
        out->line = std::atoi(s.c_str() + c1 + 1);
      }
    }
    ++n;
  }
  return n > 0;
}

const Location& Symbolizer::resolve(uint64_t codeptr) {
  auto it = cache_.find(codeptr);
  if (it != cache_.end()) return it->second;
  Location loc;
  if (enabled_ && codeptr && !objects_.empty()) {
    auto o = std::upper_bound(objects_.begin(), objects_.end(), codeptr,
                              [](uint64_t a, const Object& obj) { return a < obj.base; });
    if (o != objects_.begin()) {
      --o;
      loc.object = o->path;
      // A return address points after the call: look up the byte before it.
      query(o->path, codeptr - o->base - 1, &loc);
    }
  }
  return cache_.emplace(codeptr, std::move(loc)).first->second;
}

std::string Symbolizer::describe(uint64_t codeptr) {
  const Location& l = resolve(codeptr);
  if (l.function.empty()) return hex(codeptr);
  if (l.file.empty()) return l.function;
  return l.function + " (" + l.file + ":" + std::to_string(l.line) + ")";
}

std::string Symbolizer::short_name(uint64_t codeptr) {
  const Location& l = resolve(codeptr);
  if (!l.file.empty()) return l.file + ":" + std::to_string(l.line);
  if (!l.function.empty()) return l.function;
  return hex(codeptr);
}

}  // namespace tasklens::replay
