// Overheads: ompP's classes per parallel region as stacked bars, with the table.

const OVERHEAD_CLASSES = [
  ['work_ns', 'work', '--work'],
  ['synchronization_ns', 'synchronization', '--sync'],
  ['imbalance_ns', 'imbalance', '--imbalance'],
  ['limited_parallelism_ns', 'limited parallelism', '--limited'],
  ['thread_management_ns', 'thread management', '--thread-mgmt'],
  ['task_management_ns', 'task management', '--task-mgmt'],
  ['preempted_ns', 'preempted (off the CPU)', '--preempted'],
];

function renderOverheads(data, body) {
  const ov = data.overheads;
  if (!ov) { body.append(el("p", { class: "muted" }, "No overheads in this report.")); return; }
  const classes = OVERHEAD_CLASSES.map(([k, n, v]) => [k, n, cssVar(v)]);
  body.append(el("p", {}, `${fmtCount(ov.parallel_regions)} parallel regions (${fmtCount(ov.instances)} instances) cover `,
                 fmtPct(ov.parallel_coverage), " of the run."));
  body.append(legend(classes.map(([, n, c]) => [n, c])));
  const rows = [];
  if (ov.program) rows.push({ label: "program", r: ov.program });
  for (const r of ov.regions || []) rows.push({ label: `${r.id} ${r.location || r.codeptr || ""}`, r });
  body.append(stackedBars(rows.map(x => ({ label: x.label, parts: classes.map(([k, n, c]) => [x.r[k] || 0, n, c]) })),
                          { width: 760, labelWidth: 170, format: fmtNs }));
  body.append(table([
    { title: "region", left: true, get: x => x.label },
    { title: "wall", get: x => fmtNs(x.r.wall_ns) },
    { title: "total", get: x => fmtNs(x.r.total_ns) },
    ...classes.map(([k, n]) => ({ title: n, get: x => fmtNs(x.r[k]) })),
    { title: "overhead", get: x => fmtPct(x.r.overhead_share) },
  ], rows));
  if (ov.amdahl && ov.amdahl.predicted) {
    const a = ov.amdahl;
    body.append(el("h3", {}, "Amdahl"), el("p", {}, `serial fraction ${fmtNum(a.alpha, 3)}, at most ${fmtNum(a.max_speedup, 2)}x faster`),
      table([{ title: "threads", get: p => p.threads }, { title: "time", get: p => fmtNs(p.time_ns) },
             { title: "speedup", get: p => fmtNum(p.speedup, 2) + "x" }], a.predicted));
  }
}
