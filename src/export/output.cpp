// Output paths of the exports and the buffered text writer that keeps the first write error.
#include "export/output.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "format/event.h"

namespace tasklens::exports {
namespace fs = std::filesystem;

std::string OutputPath::join(std::string_view suffix) const {
  return (fs::path(dir) / (stem + std::string(suffix))).string();
}

OutputPath split_output(const std::string& out, std::string_view suffix) {
  fs::path p(out);
  std::string name = p.filename().string();
  if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(),
                                                  suffix.data(), suffix.size()) == 0) {
    name.resize(name.size() - suffix.size());
  }
  std::string dir = p.parent_path().string();
  return OutputPath{dir.empty() ? "." : dir, name};
}

Result<bool> make_parent_dirs(const std::string& path) {
  fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) return true;
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) return Error{"cannot create " + parent.string() + ": " + ec.message()};
  return true;
}

TextOut::~TextOut() {
  if (file_) (void)close();
}

Result<bool> TextOut::open(const std::string& path) {
  path_ = path;
  if (path == "-") {
    file_ = stdout;
    return true;
  }
  auto dirs = make_parent_dirs(path);
  if (!dirs) return dirs.error();
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) return Error{"cannot write " + path + ": " + std::strerror(errno)};
  return true;
}

void TextOut::flush() {
  if (!file_ || buf_.size() == 0) return;
  if (std::fwrite(buf_.data(), 1, buf_.size(), file_) != buf_.size() && !error_) {
    error_ = errno ? errno : EIO;
  }
  written_ += buf_.size();
  buf_.clear();
}

Result<bool> TextOut::close() {
  if (!file_) return true;
  flush();
  if (std::fflush(file_) != 0 && !error_) error_ = errno ? errno : EIO;
  if (file_ != stdout && std::fclose(file_) != 0 && !error_) error_ = errno ? errno : EIO;
  file_ = nullptr;
  if (error_) return Error{"error writing " + path_ + ": " + std::strerror(error_)};
  return true;
}

std::string duration_text(uint64_t ns) {
  if (ns >= 1000000000ull) return fmt::format("{:.3f} s", double(ns) / 1e9);
  if (ns >= 1000000ull) return fmt::format("{:.3f} ms", double(ns) / 1e6);
  if (ns >= 1000ull) return fmt::format("{:.3f} us", double(ns) / 1e3);
  return fmt::format("{} ns", ns);
}

std::string task_text(uint64_t id) {
  if (id == 0) return "none";
  if ((id >> 48) == 0) return std::to_string(id);
  return fmt::format("T{}#{}", format::id_thread(id), format::id_counter(id));
}

std::string json_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", unsigned(static_cast<unsigned char>(c)));
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::string plain_label(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return out.empty() ? std::string("?") : out;
}

}  // namespace tasklens::exports
