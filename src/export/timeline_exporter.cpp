// What every timeline exporter sets up: filter, region table and timeline pass.
#include "export/timeline_exporter.h"

#include <fmt/format.h>

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
        "{} regions were still open when an enclosing one ended, and were closed with it",
        st.implicit_leaves));
  }
  if (st.stray_frames) {
    s.notes.push_back(fmt::format(
        "{} times a task showed up on a thread while another thread still held it (missing "
        "switch-out): its frame was taken off there",
        st.stray_frames));
  }
}

}  // namespace tasklens::exports
