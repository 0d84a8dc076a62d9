// A snapshot of the loaded objects (path and load bias), so that code addresses recorded as raw
// pointers can be symbolized after the run, never inside the program.
#pragma once

#include "format/json_out.h"

namespace tasklens::recorder {

// Writes a JSON array [{"path": ..., "base": "0x..."}, ...] to `out`. Not for signal handlers
// (dl_iterate_phdr takes the loader's lock): take the snapshot before.
void write_loaded_objects(format::JsonOut& out);

}  // namespace tasklens::recorder
