# One place for the project's warning flags; applied per target with tasklens_warnings(target).
function(tasklens_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wno-unused-parameter)
endfunction()
