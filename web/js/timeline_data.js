// The timeline's data (the `timeline` object, docs/HTML-REPORT.md) decoded into typed arrays:
// per thread its states and the task on top of its stack as change lists; per task its
// construct, parent, creator, creation time, and what the change lists say of it (time on a
// thread, first start, last end).

// [dt, value, dt, value, ...] -> {time: Float64Array, value: Int32Array, n}
function decodeChanges(flat) {
  const n = flat.length >> 1, time = new Float64Array(n), value = new Int32Array(n);
  let t = 0;
  for (let i = 0; i < n; ++i) { t += flat[2 * i]; time[i] = t; value[i] = flat[2 * i + 1]; }
  return { time, value, n };
}

// The last index i with time[i] <= t (0 when none).
function changeAt(ch, t) {
  let lo = 0, hi = ch.n - 1;
  if (hi < 0 || ch.time[0] > t) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ch.time[mid] <= t) lo = mid; else hi = mid - 1;
  }
  return lo;
}

const TASK_PALETTE = ["#3949ab", "#00897b", "#c0ca33", "#8e24aa", "#f4511e", "#039be5", "#6d4c41",
                      "#d81b60", "#7cb342", "#5e35b1", "#00acc1", "#fdd835", "#546e7a", "#e53935"];
const STATE_COLORS = { "not created": null, "idle": "--idle", "running": "--work",
                       "synchronization": "--sync", "runtime overhead": "--overhead" };

function decodeTimeline(t) {
  const tl = { runNs: t.run_ns, threads: t.threads, stateNames: t.state_names, regions: t.regions };
  tl.states = t.states.map(decodeChanges);
  tl.tops = t.switches.map(decodeChanges);
  tl.stateColors = t.state_names.map(n => (STATE_COLORS[n] ? cssVar(STATE_COLORS[n]) : null));
  const n = t.tasks.count;
  tl.taskCount = n;
  tl.taskRegion = Int32Array.from(t.tasks.region);
  tl.taskParent = new Int32Array(n);
  tl.taskCreator = Int32Array.from(t.tasks.creator);
  tl.taskCreated = new Float64Array(n);
  let c = 0;
  for (let i = 0; i < n; ++i) {
    c += t.tasks.created[i];
    tl.taskCreated[i] = c;
    const back = t.tasks.parent[i];
    tl.taskParent[i] = back ? i + 1 - back : 0;
  }
  // Explicit task constructs get a compact index (1..K) and a colour; other regions 0.
  tl.constructOf = new Int32Array(t.regions.length + 1);
  tl.constructs = [];  // region numbers, by compact index - 1
  t.regions.forEach((r, i) => {
    if (r.kind === "task" || r.kind === "untied task") {
      tl.constructs.push(i + 1);
      tl.constructOf[i + 1] = tl.constructs.length;
    }
  });
  tl.regionColor = r => (tl.constructOf[r] ? TASK_PALETTE[(tl.constructOf[r] - 1) % TASK_PALETTE.length] : "#cfd8dc");
  tl.taskTime = new Float64Array(n);
  tl.taskFirstStart = new Float64Array(n).fill(Infinity);
  tl.taskFirstThread = new Int32Array(n).fill(-1);
  tl.taskLastEnd = new Float64Array(n).fill(-Infinity);
  tl.taskLastThread = new Int32Array(n).fill(-1);
  tl.fragments = 0;
  tl.tops.forEach((ch, th) => {
    for (let i = 0; i < ch.n; ++i) {
      const task = ch.value[i];
      if (!task) continue;
      const k = task - 1, a = ch.time[i], b = i + 1 < ch.n ? ch.time[i + 1] : tl.runNs;
      tl.fragments++;
      tl.taskTime[k] += b - a;
      if (a < tl.taskFirstStart[k]) { tl.taskFirstStart[k] = a; tl.taskFirstThread[k] = th; }
      if (b > tl.taskLastEnd[k]) { tl.taskLastEnd[k] = b; tl.taskLastThread[k] = th; }
    }
  });
  tl.deps = t.dependences || [];
  // The critical path's tasks (task numbers), for the highlight.
  tl.onPath = new Uint8Array(n + 1);
  for (const task of t.path || []) if (task >= 1 && task <= n) tl.onPath[task] = 1;
  tl.pathTasks = (t.path || []).length;
  return tl;
}

function taskText(tl, number) {
  const k = number - 1, r = tl.regions[tl.taskRegion[k] - 1] || {};
  const where = [r.function, r.file ? r.file + (r.line ? ":" + r.line : "") : ""].filter(Boolean).join(", ");
  let s = `task #${number}: ${r.name || "?"}` + (where ? `\n  at ${where}` : "");
  s += `\n  created ${fmtNs(tl.taskCreated[k])}` + (tl.taskCreator[k] >= 0 ? ` on thread ${tl.taskCreator[k]}` : "");
  if (tl.taskParent[k]) s += ` by task #${tl.taskParent[k]}`;
  if (isFinite(tl.taskFirstStart[k])) {
    s += `\n  first start ${fmtNs(tl.taskFirstStart[k])}, last end ${fmtNs(tl.taskLastEnd[k])}` +
         `\n  on threads ${fmtNs(tl.taskTime[k])} in all`;
  }
  return s;
}
