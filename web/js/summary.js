// Summary: program, threads, run time, events, the verdict with its meaning and advice, warnings.

function renderSummary(data, body) {
  const run = data.run || {}, bd = data.breakdown || {};
  const args = (run.args || []).join(" ") || run.program || "?";
  document.title = "tasklens report: " + (run.program || "");
  document.getElementById("title").textContent = "tasklens report: " + args;
  const fact = (k, v) => el("div", { class: "fact" }, el("div", { class: "k" }, k), el("div", { class: "v" }, v));
  body.append(el("div", { class: "facts" },
    fact("program", run.program || "?"),
    fact("threads", fmtCount(run.threads)),
    fact("run time", fmtNs(run.run_ns)),
    fact("events", fmtCount(run.events)),
    fact("recording", run.status || "?"),
    fact("trace check", run.check ? (run.check.sound ? "sound" : "not sound") : "?"),
    fact("work", fmtPct(bd.total_ns ? bd.work_ns / bd.total_ns : null)),
    fact("overhead", fmtPct(bd.overhead_share)),
    fact("idle", fmtPct(bd.idle_share))));
  if (bd.verdict) {
    body.append(el("p", { class: "verdict" }, "Verdict ", el("b", {}, bd.verdict), " ", bd.verdict_meaning || ""));
  }
  if (bd.advice) body.append(el("p", {}, el("b", {}, "Advice: "), bd.advice));
  if (bd.verdict_note) body.append(el("p", { class: "warnings" }, bd.verdict_note));
  if (run.check && !run.check.sound) body.append(el("p", {}, "tasklens check: " + run.check.reason));
  if (run.runtime) body.append(el("p", { class: "muted" }, "runtime: " + run.runtime));
  const warnings = run.warnings || [];
  if (warnings.length) {
    body.append(el("h3", {}, "Warnings"), el("ul", { class: "warnings" }, ...warnings.map(w => el("li", {}, w))));
  }
}
