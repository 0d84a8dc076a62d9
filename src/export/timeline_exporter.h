// What the three timeline exports (OTF2, Paraver, Perfetto) share: the options turned into a
// filter, the region table, and the timeline pass that drives the format's sink.
#pragma once

#include <string>

#include "export/export.h"
#include "export/regions.h"
#include "export/timeline.h"

namespace tasklens::exports {

Filter make_filter(const ExportOptions& o);

class TimelineExporter : public Exporter, protected TimelineSink {
 public:
  replay::Pass& pass() override { return pass_; }

 protected:
  TimelineExporter(const format::Experiment& x, const ExportOptions& o,
                   symbols::Symbolizer* symbols)
      : x_(x), options_(o), regions_(x, symbols), filter_(make_filter(o)),
        pass_(*this, regions_, filter_) {}

  // Notes for the summary: what the timeline could not match.
  void add_timeline_notes(ExportSummary& s) const;

  const format::Experiment& x_;
  ExportOptions options_;
  RegionTable regions_;
  Filter filter_;
  TimelinePass pass_;
};

}  // namespace tasklens::exports
