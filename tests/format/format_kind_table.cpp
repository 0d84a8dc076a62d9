// Prints the event-kind table of docs/FORMAT.md (see kind_table.h).
#include <cstdio>

#include "tests/format/kind_table.h"

int main() {
  std::fputs(tasklens::format::kind_table().c_str(), stdout);
  return 0;
}
