// The fuzzer's input: a whole experiment directory in one byte string, so that libFuzzer can
// mutate the metadata and every thread stream at once.
//
//   byte 0           flags: bit 0 = recompute every chunk's checksum after unpacking, so that
//                    mutated chunks reach the decoder and the analyses instead of being skipped
//   then records     [u8 file][u32 length, little-endian][length bytes]
//                    file 0 = experiment.json, file k >= 1 = thread-(k-1).tlt (thread-0000.tlt
//                    for k = 1), file 255 = profile.json (profile mode; no checksum to fix),
//                    file 254 = off_cpu.bin (the context-switch records; none either);
//                    a length past the end takes what is left
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tasklens::fuzz {

// The record number of profile.json (`tasklens run --mode profile`).
constexpr uint8_t kProfileRecord = 255;
// The record number of off_cpu.bin (the threads' preempted intervals every analysis reads).
constexpr uint8_t kOffCpuRecord = 254;

// Writes the experiment that `data` describes into `dir` (emptied first).
void unpack(const uint8_t* data, size_t size, const std::string& dir);

// The input that unpacks to the experiment directory `dir` (its metadata and streams).
std::vector<uint8_t> pack(const std::string& dir, uint8_t flags = 1);

struct Outcome {
  std::string error;      // why the experiment could not be opened ("" when it was)
  uint64_t events = 0;    // replayed by the report
  size_t profile_nodes = 0;  // a profile-mode experiment's call-tree nodes read
  size_t damage = 0;      // lines of damage found on opening
  size_t problems = 0;    // damage found in the streams
};

// Past this many events an input is only checked, not reported and exported (fuzz_input.cpp).
constexpr uint64_t kMaxExercisedEvents = 8000;

// Loads the experiment in `dir` and runs what the commands run on it: check, every report
// section (text and JSON), every export. Returns quietly whatever the experiment holds; a
// crash, a hang, a sanitizer report or an exception is a finding.
Outcome exercise(const std::string& dir);

}  // namespace tasklens::fuzz
