#include "recorder/signals.h"

#include <errno.h>
#include <signal.h>

#include "recorder/session.h"

namespace tasklens::recorder {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGINT, SIGTERM};

void on_signal(int sig, siginfo_t*, void*) {
  int saved_errno = errno;
  g_session.finish_on_signal(sig);
  // Back to the default action; the signal is re-delivered when the handler returns (a fault
  // re-executes the faulting instruction, a raised signal is pending until then).
  signal(sig, SIG_DFL);
  if (sig != SIGSEGV && sig != SIGBUS && sig != SIGFPE && sig != SIGILL) raise(sig);
  errno = saved_errno;
}

}  // namespace

void install_signal_handlers() {
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
