// Flushing on signals: a crash (SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL) or a request to stop
// (SIGINT, SIGTERM) writes what the threads hold, then the signal takes its default course.
// Handlers are installed only where the disposition is still the default.
#pragma once

namespace tasklens::recorder {

// `on_fatal(sig)` runs in the handler (async-signal-safe: it writes what the threads hold).
void install_signal_handlers(void (*on_fatal)(int sig));

}  // namespace tasklens::recorder
