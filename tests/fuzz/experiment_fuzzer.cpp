// libFuzzer target: an experiment directory (see fuzz_input.h) through every reader tasklens
// has. Built with -DTASKLENS_FUZZ=ON (scripts/ci/sanitize.sh); docs/ROBUSTNESS.md.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    return std::string(tmp && *tmp ? tmp : "/tmp") + "/tasklens-fuzz-" +
           std::to_string(getpid());
  }();
  tasklens::fuzz::unpack(data, size, dir);
  tasklens::fuzz::exercise(dir);
  return 0;
}
