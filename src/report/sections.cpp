// The list of report sections: name, flag, description, default, factory.
#include "report/breakdown_section.h"
#include "report/graph_section.h"
#include "report/mpi_section.h"
#include "report/overheads_section.h"
#include "report/profile_section.h"
#include "report/section.h"
#include "report/what_if_section.h"

namespace tasklens::report {

const std::vector<SectionInfo>& all_sections() {
  static const std::vector<SectionInfo> sections = {
      {"breakdown", "", "work / overhead / idleness (POT)", true, make_breakdown_section},
      {"profile", "--profile",
       "Task-aware call-path profile (Score-P): call trees with stub nodes, task constructs, "
       "parameter splits",
       false, make_profile_section, true},
      {"overheads", "--overheads",
       "Overhead classes per parallel region (ompP: synchronization, imbalance, limited "
       "parallelism, thread management; plus task management)",
       false, make_overheads_section, true},
      {"graph", "--graph",
       "Task graph: work, span (the critical path) and average parallelism, the fastest "
       "possible schedule on the run's threads",
       false, make_graph_section},
      {"what_if", "--what-if",
       "What-if: the task graph simulated on other thread counts (--what-if-threads) and with "
       "cut-offs on recursive task constructs, libomp's policy, this run's costs",
       false, make_what_if_section},
      {"mpi", "--mpi",
       "MPI: time in MPI calls (Init/Finalize apart), per call, and the clock offsets to rank 0 "
       "(on by itself for a rank of an MPI run)",
       false, make_mpi_section},
  };
  return sections;
}

}  // namespace tasklens::report
