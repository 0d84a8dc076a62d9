#include "format/experiment_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "format/chunk.h"
#include "format/off_cpu.h"
#include "format/profile_file.h"

namespace tasklens::format {
namespace {

bool starts_with(const char* s, const char* prefix) {
  return std::strncmp(s, prefix, std::strlen(prefix)) == 0;
}

bool ends_with(const char* s, const char* suffix) {
  size_t n = std::strlen(s), m = std::strlen(suffix);
  return n >= m && std::strcmp(s + n - m, suffix) == 0;
}

bool all_digits(const char* s) {
  if (!*s) return false;
  for (; *s; ++s) {
    if (*s < '0' || *s > '9') return false;
  }
  return true;
}

// mkdir -p of the parents of `path` (not of its last component).
void make_parents(const char* path) {
  char tmp[4096];
  std::snprintf(tmp, sizeof tmp, "%s", path);
  for (char* p = tmp + 1; *p; ++p) {
    if (*p != '/') continue;
    *p = 0;
    mkdir(tmp, 0755);
    *p = '/';
  }
}

// `file`, or the temporary file it is written to before the rename.
bool is_file_or_its_tmp(const char* name, const char* file) {
  if (!starts_with(name, file)) return false;
  const char* rest = name + std::strlen(file);
  return *rest == 0 || std::strcmp(rest, ".tmp") == 0;
}

}  // namespace

bool is_tasklens_entry(const char* name) {
  if (is_file_or_its_tmp(name, kMetadataFile)) return true;
  // Profile mode's result (docs/PROFILE-MODE.md).
  if (is_file_or_its_tmp(name, kProfileFile)) return true;
  if (std::strcmp(name, ".reserve") == 0 || std::strcmp(name, ".libgomp-on-libomp") == 0 ||
      std::strcmp(name, kOffCpuFile) == 0) {
    return true;
  }
  if (starts_with(name, "pid-") && all_digits(name + 4)) return true;
  // An MPI run (docs/MPI.md): its description and a folder per rank.
  if (is_file_or_its_tmp(name, kMpiRunFile)) return true;
  if (starts_with(name, kRankPrefix) && all_digits(name + std::strlen(kRankPrefix))) return true;
  if (starts_with(name, kStreamPrefix) && ends_with(name, kStreamSuffix)) {
    size_t n = std::strlen(name) - std::strlen(kStreamPrefix) - std::strlen(kStreamSuffix);
    char digits[32];
    if (n == 0 || n >= sizeof digits) return false;
    std::memcpy(digits, name + std::strlen(kStreamPrefix), n);
    digits[n] = 0;
    return all_digits(digits);
  }
  return false;
}

int open_experiment_dir(const char* path, char* error, size_t error_len) {
  if (!path || !*path) {
    std::snprintf(error, error_len, "no directory given");
    return -1;
  }
  make_parents(path);
  if (mkdir(path, 0755) != 0 && errno != EEXIST) {
    std::snprintf(error, error_len, "cannot write the output directory %s: %s", path,
                  strerror(errno));
    return -1;
  }
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    struct stat st;
    if ((err == ELOOP || err == ENOTDIR) && lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
      std::snprintf(error, error_len,
                    "%s is a symbolic link: tasklens does not write through one (give the "
                    "directory it points to)",
                    path);
    } else if (err == ENOTDIR) {
      std::snprintf(error, error_len, "%s exists and is not a directory", path);
    } else {
      std::snprintf(error, error_len, "cannot open %s: %s", path, strerror(err));
    }
    return -1;
  }
  return fd;
}

bool lock_experiment_dir(int dirfd) {
  return flock(dirfd, LOCK_EX | LOCK_NB) == 0;
}

bool for_each_dir_entry(int dirfd, void (*fn)(const char* name, void* arg), void* arg) {
  // A descriptor of its own: getdents64 moves the offset of the one it reads.
  int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  alignas(8) char buf[4096];
  bool ok = true;
  while (true) {
    long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = n == 0;
      break;
    }
    for (long off = 0; off < n;) {
      auto* d = reinterpret_cast<dirent64*>(buf + off);
      off += d->d_reclen;
      if (std::strcmp(d->d_name, ".") == 0 || std::strcmp(d->d_name, "..") == 0) continue;
      fn(d->d_name, arg);
    }
  }
  close(fd);
  return ok;
}

bool read_dir_contents(int dirfd, DirContents* out) {
  *out = DirContents{};
  return for_each_dir_entry(
      dirfd,
      [](const char* name, void* arg) {
        auto* c = static_cast<DirContents*>(arg);
        c->empty = false;
        if (std::strcmp(name, kMetadataFile) == 0) c->has_experiment = true;
        if (!c->foreign[0] && !is_tasklens_entry(name)) {
          std::snprintf(c->foreign, sizeof c->foreign, "%s", name);
        }
      },
      out);
}

int create_in_dir(int dirfd, const char* name, int flags, int mode) {
  return openat(dirfd, name, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
}

}  // namespace tasklens::format
