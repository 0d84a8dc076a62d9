// Finding libtasklens.so next to the tasklens executable, and LLVM's libomp.
#include "cli/tool_paths.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace tasklens::cli {
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> library_candidates(const std::string& name) {
  fs::path bin = fs::path(self_executable()).parent_path();
  return {bin / "../lib" / name, bin / "../" TASKLENS_INSTALL_LIBDIR / name, bin / name};
}

std::vector<fs::path> recorder_candidates() { return library_candidates("libtasklens.so"); }

}  // namespace

namespace {
std::string g_launcher;
}  // namespace

void take_launcher_path() {
  if (const char* l = std::getenv("TASKLENS_LAUNCHER"); l && *l) g_launcher = l;
  unsetenv("TASKLENS_LAUNCHER");
}

std::string full_cli_path() {
  fs::path bin = fs::path(self_executable()).parent_path();
  return (bin / "../" TASKLENS_INSTALL_LIBEXECDIR "/tasklens/tasklens-cli").lexically_normal();
}

std::string self_executable() {
  if (!g_launcher.empty()) return g_launcher;
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "tasklens";
  buf[n] = 0;
  return buf;
}

std::string find_recorder_library() {
  if (const char* env = std::getenv("TASKLENS_LIBRARY"); env && *env) {
    return access(env, R_OK) == 0 ? fs::absolute(env).string() : std::string();
  }
  for (const fs::path& p : recorder_candidates()) {
    std::error_code ec;
    if (fs::exists(p, ec)) return fs::canonical(p, ec).string();
  }
  return {};
}

std::string find_mpi_library() {
  for (const fs::path& p : library_candidates("libtasklens_mpi.so")) {
    std::error_code ec;
    if (fs::exists(p, ec)) return fs::canonical(p, ec).string();
  }
  return {};
}

std::string recorder_search_path() {
  std::string out;
  for (const fs::path& p : recorder_candidates()) {
    out += (out.empty() ? "" : ", ") + p.lexically_normal().string();
  }
  return out;
}

std::string find_libomp() {
  for (const char* p : {TASKLENS_LIBOMP_PATH, "/usr/lib/llvm-14/lib/libomp.so.5",
                        "/usr/lib/x86_64-linux-gnu/libomp.so.5"}) {
    if (*p && access(p, R_OK) == 0) return p;
  }
  return {};
}

}  // namespace tasklens::cli
