// Breakdown: work / overhead / idleness (serial and preempted apart) over time as a stacked area,
// per thread as bars, per parallel region as a table.

const BREAKDOWN_KEYS = [
  ["work_ns", "work", "--work"], ["overhead_ns", "overhead", "--overhead"],
  ["idle_ns", "idle", "--idle"], ["serial_ns", "serial", "--serial"],
  ["preempted_ns", "preempted", "--preempted"],
];

function renderBreakdown(data, body) {
  const bd = data.breakdown;
  if (!bd) { body.append(el("p", { class: "muted" }, "No breakdown in this report.")); return; }
  const present = BREAKDOWN_KEYS.filter(([k]) => k === "work_ns" || k === "overhead_ns" || k === "idle_ns" || (bd[k] || 0) > 0)
    .map(([k, name, v]) => [k, name, cssVar(v)]);
  body.append(legend(present.map(([, n, c]) => [n, c])));
  body.append(el("table", {}, el("tbody", {},
    ...present.map(([k, name]) => el("tr", {}, el("td", { class: "l" }, name), el("td", {}, fmtNs(bd[k])),
                                     el("td", {}, fmtPct(bd.total_ns ? bd[k] / bd.total_ns : null)))),
    el("tr", {}, el("td", { class: "l" }, el("b", {}, "thread time")), el("td", {}, fmtNs(bd.total_ns)), el("td", {}, "")))));
  const charts = el("div", { class: "charts" });
  // Long series (--slices) merged into at most 1000 slices for the chart.
  const raw = bd.series || [], group = Math.ceil(raw.length / 1000), series = [];
  for (let i = 0; i < raw.length; i += group) {
    const part = raw.slice(i, i + group), merged = { begin_ns: part[0].begin_ns, end_ns: part[part.length - 1].end_ns };
    for (const [k] of BREAKDOWN_KEYS) merged[k] = part.reduce((sum, x) => sum + (x[k] || 0), 0);
    series.push(merged);
  }
  if (series.length) {
    const points = series.map(s => {
      const len = Math.max(1, s.end_ns - s.begin_ns), values = {};
      for (const [k] of present) values[k] = (s[k] || 0) / len;  // threads busy that way
      return { x0: s.begin_ns, x1: s.end_ns, values };
    });
    charts.append(el("div", {}, el("h3", {}, "Over time (threads)"),
      stackedArea(points, present, { width: 640, height: 200, xLabel: fmtNs, yLabel: y => fmtNum(y, 1) + " threads" })));
  }
  const threads = bd.threads || [];
  if (threads.length) {
    charts.append(el("div", {}, el("h3", {}, "Per thread"),
      stackedBars(threads.map(t => ({ label: "thread " + t.thread + (t.initial ? " (initial)" : ""),
                                      parts: present.map(([k, n, c]) => [t[k] || 0, n, c]) })),
                  { width: 560, labelWidth: 120, format: fmtNs })));
  }
  body.append(charts);
  const regions = bd.regions || [];
  if (regions.length) {
    body.append(el("h3", {}, "Per parallel region"),
      stackedBars(regions.map(r => ({ label: r.location || r.codeptr || "?", parts: present.map(([k, n, c]) => [r[k] || 0, n, c]) })),
                  { width: 760, labelWidth: 170, format: fmtNs }),
      table([
      { title: "region", left: true, get: r => r.location || r.codeptr || "?" },
      { title: "instances", get: r => fmtCount(r.instances) },
      { title: "max team", get: r => fmtCount(r.max_team) },
      { title: "wall", get: r => fmtNs(r.wall_ns) },
      ...present.map(([k, name]) => ({ title: name, get: r => fmtNs(r[k]) })),
    ], regions));
  }
}
