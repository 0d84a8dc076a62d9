// A profile-mode profile's task constructs as the trace's: one row per construct.
//
// A compiler that unrolls a loop or inlines a function copies a task construct, and each copy
// reports its own code address. A trace's task model maps every copy onto one construct at each
// creation (replay::ConstructMap), so its profile has one row and one tree per construct; the
// recorder's profile mode keys its tables by the address, so profile.json has a row per copy
// (BOTS nqueens built with clang: 8 and 15,712 instances of one `task` line where the trace
// says 15,720). merge_construct_copies folds the copies into the construct the map names.
#pragma once

#include "analysis/profile.h"
#include "replay/construct_map.h"

namespace tasklens::analysis {

// Folds the task constructs of `p` that `constructs` maps onto one (counts and statistics
// added up, parameter splits and counters merged), and the nodes that name them (task tree
// roots, stubs, creations): sibling nodes that become equal merge, with their subtrees.
void merge_construct_copies(Profile& p, replay::ConstructMap& constructs);

}  // namespace tasklens::analysis
