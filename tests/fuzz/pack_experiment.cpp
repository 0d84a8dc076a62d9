// tasklens_fuzz_pack DIR OUT: an experiment directory as one fuzzer input (a seed of the corpus).
#include <cstdio>
#include <fstream>

#include "fuzz/fuzz_input.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: tasklens_fuzz_pack EXPERIMENT_DIR OUT_FILE\n");
    return 2;
  }
  std::vector<uint8_t> bytes = tasklens::fuzz::pack(argv[1]);
  if (bytes.size() <= 1) {
    std::fprintf(stderr, "tasklens_fuzz_pack: %s: no experiment files\n", argv[1]);
    return 1;
  }
  std::ofstream(argv[2], std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  return 0;
}
