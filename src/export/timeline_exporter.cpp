// What every timeline exporter sets up: filter, region table and timeline pass.
#include "export/timeline_exporter.h"

#include <fmt/format.h>

#include "format/plural.h"

namespace tasklens::exports {

Filter make_filter(const ExportOptions& o) {
  Filter f;
  f.from_ns = o.from_ns;
  f.to_ns = o.to_ns;
  for (uint32_t th : o.threads) {
    if (th >= f.threads.size()) f.threads.resize(th + 1, false);
    f.threads[th] = true;
  }
  return f;
}

void TimelineExporter::add_timeline_notes(ExportSummary& s) const {
  const TimelineStats& st = pass_.stats();
  if (st.unmatched_leaves) {
    s.notes.push_back(fmt::format("{} end events had no open region to close (ignored)",
                                  st.unmatched_leaves));
  }
  if (st.implicit_leaves) {
    s.notes.push_back(fmt::format(
        "{} still open when an enclosing one ended, and closed with it",
        format::plural(st.implicit_leaves, "region was", "regions were")));
  }
  if (st.stray_frames) {
    s.notes.push_back(fmt::format(
        "{} a task showed up on a thread while another thread still held it (missing "
        "switch-out): its frame was taken off there",
        format::plural(st.stray_frames, "time")));
  }
}

}  // namespace tasklens::exports
