// Writes the fixture experiment of fixture_events.h into a directory:
//   format_fixture_writer tests/format/fixtures/v1-two-threads
// Run once when a format version is introduced; the files are checked in and never rewritten
// (see tests/format/fixtures/README.md).
#include <cstdio>

#include "support/experiment_writer.h"
#include "tests/format/fixture_events.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: format_fixture_writer DIR\n");
    return 2;
  }
  using namespace tasklens::format;
  tasklens::testing::ExperimentWriter w;
  for (const auto& [thread, e] : fixture::events()) w.add(thread, e);
  w.set_chunk_events(fixture::kChunkEvents);
  w.set_strings(fixture::strings());
  w.meta()["program"] = {{"pid", 4242}, {"args", {"fixture", "2"}}, {"path", "/fixture/app"}};
  w.meta()["tool"] = {{"name", "tasklens"}, {"version", "fixture"}};
  auto r = w.write(argv[1]);
  if (!r) {
    std::fprintf(stderr, "format_fixture_writer: %s\n", r.error().message.c_str());
    return 1;
  }
  return 0;
}
