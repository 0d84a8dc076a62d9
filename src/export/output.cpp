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
  if (name.size() > suffix.size() &&
      name.compare(name.size() - suffix.size(), suffix.size(), suffix.data(), suffix.size()) == 0) {
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

void TextOut::write_behind() {
  if (file_ && !behind_) behind_ = std::make_unique<WriteBehind>(file_);
}

void TextOut::flush() {
  if (!file_ || buf_.size() == 0) return;
  if (behind_) {
    written_ += buf_.size();
    behind_->write(buf_);
    return;
  }
  if (std::fwrite(buf_.data(), 1, buf_.size(), file_) != buf_.size() && !error_) {
    error_ = errno ? errno : EIO;
  }
  written_ += buf_.size();
  buf_.clear();
}

Result<bool> TextOut::close() {
  if (!file_) return true;
  flush();
  if (behind_) {
    int err = behind_->finish();
    behind_.reset();
    if (err && !error_) error_ = err;
  }
  if (std::fflush(file_) != 0 && !error_) error_ = errno ? errno : EIO;
  if (file_ != stdout && std::fclose(file_) != 0 && !error_) error_ = errno ? errno : EIO;
  file_ = nullptr;
  if (error_) return Error{"error writing " + path_ + ": " + std::strerror(error_)};
  return true;
}

std::string plain_text(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return out;
}

std::string plain_label(std::string_view s) {
  return s.empty() ? std::string("?") : plain_text(s);
}

}  // namespace tasklens::exports
