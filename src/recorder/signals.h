// Flushing on signals: a crash (SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL) or a request to stop
// (SIGINT, SIGTERM) writes what the threads hold, then the signal takes its default course.
// Handlers are installed only where the disposition is still the default.
#pragma once

namespace tasklens::recorder {

void install_signal_handlers();

}  // namespace tasklens::recorder
