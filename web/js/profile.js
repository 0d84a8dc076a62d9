// Profile: the task-aware call-path trees, collapsible, inclusive / exclusive time and visits;
// stub nodes marked. Children are built when a node is first opened (trees can be large).

function profileNode(n, total, depth) {
  const m = n.metrics || {};
  const inc = m.inclusive_ns ? m.inclusive_ns.sum : 0, exc = m.exclusive_ns ? m.exclusive_ns.sum : 0;
  const kids = n.children || [];
  const d = el("details", { class: "node" + (kids.length ? "" : " leaf") });
  const w = total > 0 ? Math.max(1, Math.round(80 * inc / total)) : 0;
  d.append(el("summary", {}, el("span", { class: "bar", style: `width:${w}px` }),
              el("span", { class: n.kind === "stub" ? "stub" : null }, (n.kind === "stub" ? "[stub] " : "") + n.label),
              el("span", { class: "m" }, `  incl ${fmtNs(inc)}  excl ${fmtNs(exc)}  visits ${fmtCount(m.visits)}`)));
  let built = false;
  const build = () => {
    if (built) return;
    built = true;
    for (const c of kids) d.append(profileNode(c, total, depth + 1));
  };
  d.addEventListener("toggle", build);
  if (depth < 2 && kids.length) { d.open = true; build(); }
  return d;
}

function renderProfile(data, body) {
  const p = data.profile;
  if (!p) { body.append(el("p", { class: "muted" }, "No profile in this report.")); return; }
  body.append(el("p", { class: "muted" }, `Time on threads ${fmtNs(p.total_time_ns)}. Click a node to open it; ` +
                 "[stub] marks where explicit tasks ran below an implicit task (their own trees follow)."));
  const total = p.total_time_ns || 1;
  const trees = el("div", { class: "tree" });
  for (const t of p.trees || []) trees.append(profileNode(t, total, 0));
  body.append(el("h3", {}, "Call paths"), trees);
  if ((p.task_trees || []).length) {
    const tt = el("div", { class: "tree" });
    for (const t of p.task_trees) tt.append(profileNode(t, total, 0));
    body.append(el("h3", {}, "Task trees (one per task construct)"), tt);
  }
}
