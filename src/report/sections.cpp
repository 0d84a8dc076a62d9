#include "report/breakdown_section.h"
#include "report/section.h"

namespace tasklens::report {

const std::vector<SectionInfo>& all_sections() {
  static const std::vector<SectionInfo> sections = {
      {"breakdown", "", "work / overhead / idleness (POT)", true, make_breakdown_section},
  };
  return sections;
}

}  // namespace tasklens::report
