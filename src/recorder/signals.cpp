#include "recorder/signals.h"

#include <errno.h>
#include <signal.h>

namespace tasklens::recorder {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGINT, SIGTERM};

void (*g_on_fatal)(int) = nullptr;  // set before the handlers are installed

void on_signal(int sig, siginfo_t*, void*) {
  int saved_errno = errno;
  if (g_on_fatal) g_on_fatal(sig);
  // Back to the default action; the signal is re-delivered when the handler returns (a fault
  // re-executes the faulting instruction, a raised signal is pending until then).
  signal(sig, SIG_DFL);
  if (sig != SIGSEGV && sig != SIGBUS && sig != SIGFPE && sig != SIGILL) raise(sig);
  errno = saved_errno;
}

}  // namespace

void install_signal_handlers(void (*on_fatal)(int sig)) {
  g_on_fatal = on_fatal;
  for (int sig : kSignals) {
    struct sigaction old{};
    if (sigaction(sig, nullptr, &old) != 0) continue;
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler != SIG_DFL) continue;
    if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction) continue;
    struct sigaction sa{};
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, nullptr);
  }
}

}  // namespace tasklens::recorder
