// Task constructs: the constructs table (instances, mean/min/max, creation, start delay,
// migrations) and a duration histogram per construct, from the timeline's task times.

function renderConstructs(data, body, tl) {
  const tasks = data.tasks || [];
  if (!tasks.length) { body.append(el("p", { class: "muted" }, "No explicit tasks in this run.")); return; }
  const s = (x, k) => (x && x[k] !== undefined ? x[k] : null);
  body.append(table([
    { title: "construct", left: true, get: c => c.location || c.codeptr },
    { title: "function", left: true, get: c => c.function || "" },
    { title: "instances", get: c => fmtCount(c.instances) },
    { title: "mean", get: c => fmtNs(s(c.time_ns, "mean")) },
    { title: "min", get: c => fmtNs(s(c.time_ns, "min")) },
    { title: "max", get: c => fmtNs(s(c.time_ns, "max")) },
    { title: "total", get: c => fmtNs(s(c.time_ns, "sum")) },
    { title: "creation (mean)", get: c => fmtNs(s(c.creation_ns, "mean")) },
    { title: "start delay (mean)", get: c => fmtNs(s(c.start_delay_ns, "mean")) },
    { title: "fragments", get: c => fmtCount(c.fragments) },
    { title: "migrations", get: c => fmtCount(c.migrations) },
  ], tasks));
  if (!tl) return;
  body.append(el("h3", {}, "Task durations per construct (time on a thread, log-scaled bins)"));
  const charts = el("div", { class: "charts" });
  for (const c of tasks) {
    const codes = new Set([c.codeptr, ...(c.codeptrs || [])]);
    const regions = new Set();
    tl.regions.forEach((r, i) => { if (r.kind.includes("task") && codes.has(r.codeptr)) regions.add(i + 1); });
    const values = [];
    for (let i = 0; i < tl.taskCount; ++i) if (regions.has(tl.taskRegion[i])) values.push(tl.taskTime[i]);
    charts.append(el("div", {}, el("div", {}, `${c.location || c.codeptr} (${fmtCount(values.length)} tasks)`),
                     logHistogram(values, { width: 320, height: 90, color: tl.regionColor(regions.values().next().value || 0) })));
  }
  body.append(charts);
}
