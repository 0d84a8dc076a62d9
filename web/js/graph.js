// Task graph: work, span, parallelism, Brent's bounds, the critical path as a list, cut-off advice.

function renderGraph(data, body) {
  const g = data.graph;
  if (!g) { body.append(el("p", { class: "muted" }, "No task graph in this report.")); return; }
  const fact = (k, v) => el("div", { class: "fact" }, el("div", { class: "k" }, k), el("div", { class: "v" }, v));
  body.append(el("div", { class: "facts" },
    fact("tasks", fmtCount(g.tasks)), fact("work", fmtNs(g.work_ns)), fact("span (critical path)", fmtNs(g.span_ns)),
    fact("parallelism", fmtNum(g.parallelism, 2)), fact("lower bound on " + g.threads + " threads", fmtNs(g.bound_ns)),
    fact("greedy bound (Brent)", fmtNs(g.greedy_bound_ns)), fact("run time", fmtNs(g.run_ns)),
    fact("dependences", fmtCount(g.dependence_edges))));
  if (g.preempted_ns) {
    body.append(el("p", { class: "muted" }, `${fmtNs(g.preempted_ns)} of the threads' time off the CPU while runnable is left out of the tasks (the machine's, not the program's).`));
  }
  if (g.advice) body.append(el("p", {}, el("b", {}, "Advice: "), g.advice));
  for (const gr of g.grains || []) if (gr.advice) body.append(el("p", {}, el("b", {}, `Cut-off (${gr.location || gr.codeptr}): `), gr.advice));
  const runs = g.critical_path_runs || [];
  if (runs.length) {
    body.append(el("h3", {}, "Critical path"),
      el("ol", { class: "path" }, ...runs.map(r => el("li", {}, `${fmtNs(r.ns)}  ${r.label}` + (r.via ? ` (${r.via})` : "")))));
    if (g.critical_path_runs_left_off) body.append(el("p", { class: "muted" }, `${fmtCount(g.critical_path_runs_left_off)} more runs left off`));
  }
}
