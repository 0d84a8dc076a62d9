// The timeline: a canvas with one row per thread (its state on top, the task it runs below,
// coloured by construct) or one row per task construct (how many threads run it). Zoom with the
// mouse wheel (anywhere over the section) or the buttons, pan by dragging; tooltips name the
// task, its construct, location and times; creation and dependence arrows for the tasks in view
// when few are.
// What is smaller than a pixel is aggregated per row and pixel column: the column shows the
// value that covers most of it. #timeline's data-view-start / data-view-end hold the window
// (ns from the run's start).

const AXIS_H = 22, ARROW_LIMIT = 400, MIN_WINDOW_NS = 50;

class Timeline {
  constructor(section, body, tl) {
    this.section = section;
    this.tl = tl;
    this.mode = "threads";
    this.arrows = true;
    this.v0 = 0;
    this.v1 = Math.max(1, tl.runNs);
    const button = (text, title, fn) => el("button", { type: "button", title, onclick: fn }, text);
    this.modeButton = button("task view", "Switch between one row per thread and one row per task construct", () => this.toggleMode());
    this.arrowButton = button("arrows", "Creation and dependence arrows of the tasks in view (when fewer than " + ARROW_LIMIT + ")", () => {
      this.arrows = !this.arrows;
      this.arrowButton.classList.toggle("on", this.arrows);
      this.draw();
    });
    this.arrowButton.classList.add("on");
    // The critical path: its tasks' fragments marked in red on every thread (off by default).
    this.path = false;
    this.pathButton = button("critical path", "Mark the fragments of the tasks on the critical path (" + tl.pathTasks + " tasks)", () => {
      this.path = !this.path;
      this.pathButton.classList.toggle("on", this.path);
      this.section.dataset.pathHighlight = this.path ? "on" : "off";
      this.draw();
    });
    this.pathButton.disabled = !tl.pathTasks;
    this.section.dataset.pathHighlight = "off";
    this.section.dataset.pathTasks = String(tl.pathTasks);
    this.windowText = el("span", { class: "window" });
    body.append(el("div", { class: "toolbar" },
      button("+", "Zoom in", () => this.zoom(0.5, 0.5)), button("\u2212", "Zoom out", () => this.zoom(2, 0.5)),
      button("\u2190", "Pan left", () => this.pan(-0.25)), button("\u2192", "Pan right", () => this.pan(0.25)),
      button("whole run", "Show the whole run", () => this.setView(0, this.tl.runNs)),
      this.modeButton, this.arrowButton, this.pathButton, this.windowText));
    this.canvas = el("canvas", { "aria-label": "timeline" });
    this.wrap = el("div", { class: "tl-wrap" }, this.canvas);
    body.append(this.wrap);
    this.legend = el("div");
    body.append(this.legend);
    this.tip = el("div", { class: "tip" });
    document.body.append(this.tip);
    body.append(el("p", { class: "muted" }, "Wheel: zoom at the pointer; drag: pan; hover: details. " +
      "Thread rows: the thread's state above, the task on top of its stack below (implicit tasks grey)."));
    this.listen();
    this.setLegend();
    this.setView(0, tl.runNs);
    window.addEventListener("resize", () => this.draw());
  }

  setLegend() {
    this.legend.replaceChildren();
    const tl = this.tl;
    const states = tl.stateNames.map((n, i) => [n, tl.stateColors[i]]).filter(([, c]) => c);
    const constructs = tl.constructs.slice(0, 24).map(r => [tl.regions[r - 1].name, tl.regionColor(r)]);
    if (this.mode === "threads") this.legend.append(legend(states));
    this.legend.append(legend(constructs));
  }

  toggleMode() {
    this.mode = this.mode === "threads" ? "tasks" : "threads";
    this.modeButton.textContent = this.mode === "threads" ? "task view" : "thread view";
    this.setLegend();
    this.draw();
  }

  setView(a, b) {
    const run = Math.max(1, this.tl.runNs);
    let w = Math.min(run, Math.max(MIN_WINDOW_NS, b - a));
    a = Math.max(0, Math.min(a, run - w));
    this.v0 = a;
    this.v1 = a + w;
    this.section.dataset.viewStart = String(Math.round(this.v0));
    this.section.dataset.viewEnd = String(Math.round(this.v1));
    this.windowText.textContent = `window ${fmtNs(this.v0)} .. ${fmtNs(this.v1)} (${fmtNs(this.v1 - this.v0)})`;
    this.draw();
  }

  // Scales the window by `factor` around the point at fraction `at` of its width.
  zoom(factor, at) {
    const w = this.v1 - this.v0, t = this.v0 + at * w, nw = w * factor;
    this.setView(t - at * nw, t - at * nw + nw);
  }

  pan(fraction) {
    const w = this.v1 - this.v0;
    this.setView(this.v0 + fraction * w, this.v1 + fraction * w);
  }

  rowHeight() {
    const rows = this.mode === "threads" ? this.tl.threads : Math.max(1, this.tl.constructs.length);
    return Math.max(12, Math.min(34, Math.floor(560 / Math.max(1, rows))));
  }

  listen() {
    const c = this.canvas;
    // The wheel zooms anywhere over the section (toolbar and legend too), at the pointer's time
    // when it is over the canvas, else at the nearest edge's; the page does not scroll meanwhile.
    this.section.addEventListener("wheel", e => {
      e.preventDefault();
      const scale = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? 800 : 1;
      const dy = Math.max(-500, Math.min(500, e.deltaY * scale));
      const rect = c.getBoundingClientRect();
      this.zoom(Math.exp(dy * 0.002), Math.max(0, Math.min(1, (e.clientX - rect.left) / rect.width)));
    }, { passive: false, capture: true });  // capture: also wheel events that do not bubble
    let drag = null;
    c.addEventListener("pointerdown", e => {
      drag = { x: e.clientX, v0: this.v0, v1: this.v1 };
      c.setPointerCapture(e.pointerId);
      c.classList.add("dragging");
    });
    c.addEventListener("pointermove", e => {
      if (drag) {
        const dt = (e.clientX - drag.x) / c.getBoundingClientRect().width * (drag.v1 - drag.v0);
        this.setView(drag.v0 - dt, drag.v1 - dt);
        this.tip.style.display = "none";
      } else {
        this.hover(e);
      }
    });
    const end = e => { drag = null; c.classList.remove("dragging"); };
    c.addEventListener("pointerup", end);
    c.addEventListener("pointercancel", end);
    c.addEventListener("pointerleave", () => { this.tip.style.display = "none"; });
  }

  hover(e) {
    const rect = this.canvas.getBoundingClientRect(), x = e.clientX - rect.left, y = e.clientY - rect.top;
    const row = Math.floor((y - AXIS_H) / this.rowHeight());
    const t = this.v0 + x / rect.width * (this.v1 - this.v0);
    const text = this.describe(row, t, (y - AXIS_H) % this.rowHeight());
    if (!text) { this.tip.style.display = "none"; return; }
    this.tip.textContent = text;
    this.tip.style.display = "block";
    this.tip.style.left = Math.min(window.innerWidth - 430, e.clientX + 14) + "px";
    const below = e.clientY + 14, height = this.tip.offsetHeight;
    this.tip.style.top = (below + height > window.innerHeight ? Math.max(0, e.clientY - 14 - height) : below) + "px";
  }

  describe(row, t, yInRow) {
    const tl = this.tl;
    if (row < 0 || t < 0 || t > tl.runNs) return null;
    if (this.mode === "threads") {
      if (row >= tl.threads) return null;
      const st = tl.states[row], top = tl.tops[row];
      let s = `thread ${row} at ${fmtNs(t)}`;
      if (st.n) s += `\nstate: ${tl.stateNames[st.value[changeAt(st, t)]]}`;
      if (top.n && top.time[0] <= t) {
        const i = changeAt(top, t), task = top.value[i];
        if (task) {
          const b = i + 1 < top.n ? top.time[i + 1] : tl.runNs;
          s += `\nfragment ${fmtNs(top.time[i])} .. ${fmtNs(b)} (${fmtNs(b - top.time[i])})\n` + taskText(tl, task);
        }
      }
      return s;
    }
    if (row >= tl.constructs.length) return null;
    const r = tl.regions[tl.constructs[row] - 1];
    return `${r.name}\n${r.function || ""}` + (this.lastConcurrency ? `\nthreads running it here: ${fmtNum(this.lastConcurrency[row](t), 2)}` : "");
  }

  draw() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.paint(); });
  }

  // Per row, per pixel column, the time each value covers; returns the dominant value per column.
  // `changes` lists (time, value); key(value) maps it to 0..keys-1 (0: nothing to draw).
  dominant(changes, key, keys, W, scale) {
    const bins = new Float64Array(W * keys), v0 = this.v0, v1 = this.v1, end = this.tl.runNs;
    if (changes.n) {
      for (let i = changeAt(changes, v0); i < changes.n; ++i) {
        const a = changes.time[i];
        if (a >= v1) break;
        const b = i + 1 < changes.n ? changes.time[i + 1] : end;
        if (b <= v0) continue;
        const k = key(changes.value[i]);
        if (!k) continue;
        const xa = (Math.max(a, v0) - v0) * scale, xb = (Math.min(b, v1) - v0) * scale;
        const ca = Math.floor(xa), cb = Math.min(W - 1, Math.ceil(xb) - 1);
        for (let col = ca; col <= cb; ++col) {
          bins[col * keys + k] += Math.min(xb, col + 1) - Math.max(xa, col);
        }
      }
    }
    const out = new Int32Array(W);
    for (let col = 0; col < W; ++col) {
      let best = 0, bestV = 0.05;  // a column less than 5% covered stays empty
      for (let k = 1; k < keys; ++k) if (bins[col * keys + k] > bestV) { bestV = bins[col * keys + k]; best = k; }
      out[col] = best;
    }
    return out;
  }

  // Draws runs of equal values of `cols` as rectangles.
  fillColumns(g, cols, color, y, h) {
    let start = 0;
    for (let col = 1; col <= cols.length; ++col) {
      if (col < cols.length && cols[col] === cols[start]) continue;
      const c = color(cols[start]);
      if (c) { g.fillStyle = c; g.fillRect(start, y, col - start, h); }
      start = col;
    }
  }

  paint() {
    const tl = this.tl, dpr = window.devicePixelRatio || 1;
    const W = Math.max(200, Math.floor(this.wrap.clientWidth)), rowH = this.rowHeight();
    const rows = this.mode === "threads" ? tl.threads : tl.constructs.length;
    const H = AXIS_H + rows * rowH + 4;
    const c = this.canvas;
    if (c.width !== W * dpr || c.height !== H * dpr) {
      c.width = W * dpr; c.height = H * dpr; c.style.height = H + "px";
    }
    const g = c.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.fillStyle = "#fff";
    g.fillRect(0, 0, W, H);
    const scale = W / (this.v1 - this.v0);
    this.axis(g, W, H, scale);
    if (this.mode === "threads") this.paintThreads(g, W, rowH, scale);
    else this.paintConstructs(g, W, rowH, scale);
  }

  axis(g, W, H, scale) {
    const span = this.v1 - this.v0, raw = span / 8, p = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = raw / p < 2 ? 2 * p : raw / p < 5 ? 5 * p : 10 * p;
    g.fillStyle = "#616161";
    g.font = "11px system-ui, sans-serif";
    g.strokeStyle = "#eeeeee";
    g.beginPath();
    for (let t = Math.ceil(this.v0 / step) * step; t <= this.v1; t += step) {
      const x = Math.round((t - this.v0) * scale) + 0.5;
      g.moveTo(x, AXIS_H - 4); g.lineTo(x, H);
      g.fillText(fmtNs(t), x + 3, 12);
    }
    g.stroke();
  }

  paintThreads(g, W, rowH, scale) {
    const tl = this.tl, S = tl.stateNames.length, stateH = Math.max(4, Math.floor(rowH * 0.35));
    const K = tl.constructs.length + 2;  // 0 none, 1 implicit task, 2.. constructs
    const key = task => (task ? tl.constructOf[tl.taskRegion[task - 1]] + 1 : 0);
    const colorOf = k => (k === 0 ? null : k === 1 ? "#cfd8dc" : TASK_PALETTE[(k - 2) % TASK_PALETTE.length]);
    for (let th = 0; th < tl.threads; ++th) {
      const y = AXIS_H + th * rowH;
      const states = this.dominant(tl.states[th], v => v, S, W, scale);
      this.fillColumns(g, states, k => tl.stateColors[k], y + 1, stateH);
      const tasks = this.dominant(tl.tops[th], key, K, W, scale);
      this.fillColumns(g, tasks, colorOf, y + stateH + 2, rowH - stateH - 4);
      // Borders between fragments wide enough to show them.
      const top = tl.tops[th];
      g.fillStyle = "rgba(255,255,255,0.9)";
      for (let i = changeAt(top, this.v0); i < top.n && top.time[i] < this.v1; ++i) {
        const b = i + 1 < top.n ? top.time[i + 1] : tl.runNs;
        if ((b - top.time[i]) * scale >= 4 && top.value[i]) g.fillRect(Math.floor((top.time[i] - this.v0) * scale), y + stateH + 2, 1, rowH - stateH - 4);
      }
    }
    if (this.path) this.paintPath(g, rowH, scale, stateH);
    for (let th = 0; th < tl.threads; ++th) this.label(g, "thread " + th, AXIS_H + th * rowH + stateH + 2);
    if (this.arrows) this.paintArrows(g, rowH, scale, stateH);
  }

  // A red bar under every fragment of a task on the critical path, at least a pixel wide.
  paintPath(g, rowH, scale, stateH) {
    const tl = this.tl;
    g.fillStyle = "rgba(198,40,40,0.95)";
    for (let th = 0; th < tl.threads; ++th) {
      const top = tl.tops[th], y = AXIS_H + th * rowH + rowH - 5;
      for (let i = changeAt(top, this.v0); i < top.n && top.time[i] < this.v1; ++i) {
        if (!tl.onPath[top.value[i]]) continue;
        const b = i + 1 < top.n ? top.time[i + 1] : tl.runNs;
        const xa = Math.floor((Math.max(top.time[i], this.v0) - this.v0) * scale);
        const xb = Math.ceil((Math.min(b, this.v1) - this.v0) * scale);
        g.fillRect(xa, y, Math.max(1, xb - xa), 4);
      }
    }
  }

  // A row's name at the left edge, on a light box over what is drawn there.
  label(g, text, y) {
    g.font = "10px system-ui, sans-serif";
    g.fillStyle = "rgba(255,255,255,0.85)";
    g.fillRect(0, y, g.measureText(text).width + 6, 13);
    g.fillStyle = "#212121";
    g.fillText(text, 3, y + 10);
  }

  paintArrows(g, rowH, scale, stateH) {
    const tl = this.tl, v0 = this.v0, v1 = this.v1;
    const visible = [];
    for (let k = 0; k < tl.taskCount && visible.length <= ARROW_LIMIT; ++k) {
      if (tl.constructOf[tl.taskRegion[k]] && tl.taskFirstStart[k] >= v0 && tl.taskFirstStart[k] <= v1) visible.push(k);
    }
    if (visible.length > ARROW_LIMIT) return;
    const X = t => (t - v0) * scale, Y = th => AXIS_H + th * rowH + stateH + 2 + (rowH - stateH - 4) / 2;
    // Between rows a straight line; within a row an arc above it, so that it does not hide the row.
    const arrow = (x0, y0, x1, y1) => {
      g.beginPath(); g.moveTo(x0, y0);
      let a;
      if (y0 === y1) {
        const lift = Math.min(rowH * 0.45, 4 + Math.abs(x1 - x0) / 4);
        g.quadraticCurveTo((x0 + x1) / 2, y0 - 2 * lift, x1, y1);
        a = Math.atan2(2 * lift, x1 - (x0 + x1) / 2);
      } else {
        g.lineTo(x1, y1);
        a = Math.atan2(y1 - y0, x1 - x0);
      }
      g.stroke();
      g.beginPath(); g.moveTo(x1, y1);
      g.lineTo(x1 - 6 * Math.cos(a - 0.4), y1 - 6 * Math.sin(a - 0.4));
      g.lineTo(x1 - 6 * Math.cos(a + 0.4), y1 - 6 * Math.sin(a + 0.4));
      g.closePath(); g.fill();
    };
    g.lineWidth = 1;
    g.strokeStyle = g.fillStyle = "rgba(33,33,33,0.55)";
    for (const k of visible) {
      if (tl.taskCreator[k] < 0) continue;
      arrow(X(tl.taskCreated[k]), Y(tl.taskCreator[k]), X(tl.taskFirstStart[k]), Y(tl.taskFirstThread[k]));
    }
    g.strokeStyle = g.fillStyle = "rgba(198,40,40,0.8)";
    const shown = new Set(visible);
    for (let i = 0; i + 1 < tl.deps.length; i += 2) {
      const p = tl.deps[i] - 1, s = tl.deps[i + 1] - 1;
      if (!shown.has(s) || !isFinite(tl.taskLastEnd[p])) continue;
      arrow(X(tl.taskLastEnd[p]), Y(tl.taskLastThread[p]), X(tl.taskFirstStart[s]), Y(tl.taskFirstThread[s]));
    }
  }

  paintConstructs(g, W, rowH, scale) {
    const tl = this.tl, K = tl.constructs.length, v0 = this.v0, v1 = this.v1;
    const busy = new Float64Array(W * (K + 1));  // per construct and column: thread-pixels running it
    tl.tops.forEach(ch => {
      for (let i = changeAt(ch, v0); i < ch.n; ++i) {
        const a = ch.time[i];
        if (a >= v1) break;
        const b = i + 1 < ch.n ? ch.time[i + 1] : tl.runNs, task = ch.value[i];
        if (b <= v0 || !task) continue;
        const k = tl.constructOf[tl.taskRegion[task - 1]];
        if (!k) continue;
        const xa = (Math.max(a, v0) - v0) * scale, xb = (Math.min(b, v1) - v0) * scale;
        for (let col = Math.floor(xa), cb = Math.min(W - 1, Math.ceil(xb) - 1); col <= cb; ++col) {
          busy[col * (K + 1) + k] += Math.min(xb, col + 1) - Math.max(xa, col);
        }
      }
    });
    const threads = Math.max(1, tl.threads);
    for (let k = 1; k <= K; ++k) {
      const y = AXIS_H + (k - 1) * rowH;
      g.fillStyle = TASK_PALETTE[(k - 1) % TASK_PALETTE.length];
      for (let col = 0; col < W; ++col) {
        const h = Math.min(1, busy[col * (K + 1) + k] / threads) * (rowH - 4);
        if (h > 0) g.fillRect(col, y + rowH - 2 - h, 1, h);
      }
      this.label(g, tl.regions[tl.constructs[k - 1] - 1].name, y + 1);
    }
    this.lastConcurrency = tl.constructs.map((_, i) => t => {
      const col = Math.max(0, Math.min(W - 1, Math.floor((t - v0) * scale)));
      return busy[col * (K + 1) + i + 1];
    });
  }
}

function renderTimeline(data, body, tl) {
  const section = document.getElementById("timeline");
  if (!tl) {
    body.append(el("p", { class: "muted" }, "No timeline data in this page."));
    return null;
  }
  body.append(el("p", {}, `${fmtCount(tl.threads)} threads, ${fmtCount(tl.taskCount)} tasks, ` +
                 `${fmtCount(tl.fragments)} task fragments over ${fmtNs(tl.runNs)}.`));
  return new Timeline(section, body, tl);
}
