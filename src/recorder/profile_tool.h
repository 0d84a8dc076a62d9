// Profile mode's OMPT callbacks, registered instead of the tracing ones (ompt_tool.cpp).
#pragma once

#include <omp-tools.h>

#include <functional>

namespace tasklens::recorder::prof {

using RegisterFn = std::function<void(ompt_callbacks_t, ompt_callback_t, const char*)>;
void register_profile_callbacks(const RegisterFn& reg);

}  // namespace tasklens::recorder::prof
