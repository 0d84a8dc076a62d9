// Inline SVG charts: a stacked area over time, stacked horizontal bars, a histogram. Small data
// only (the report's series and tables); the timeline draws on a canvas instead.

// The largest of `values`, at least `floor` (no spread: series can be long).
function maxOf(values, floor) {
  let m = floor;
  for (const v of values) if (v > m) m = v;
  return m;
}

// points: [{x0, x1, values: {key: number}}], keys: [[key, name, color]]; y is the sum's scale.
function stackedArea(points, keys, opts) {
  const W = opts.width || 640, H = opts.height || 200, L = 44, B = 22, T = 8, R = 8;
  const xMax = points.length ? points[points.length - 1].x1 : 1;
  const yMax = maxOf(points.map(p => keys.reduce((s, [k]) => s + (p.values[k] || 0), 0)), 1e-9);
  const X = x => L + (W - L - R) * x / xMax, Y = y => T + (H - T - B) * (1 - y / yMax);
  const root = svg("svg", { class: "chart", width: W, height: H, viewBox: `0 0 ${W} ${H}` });
  const base = points.map(() => 0);
  for (const [k, name, color] of keys) {
    const top = points.map((p, i) => base[i] + (p.values[k] || 0));
    let d = "";
    points.forEach((p, i) => { d += (i ? "L" : "M") + X(p.x0) + "," + Y(top[i]) + "L" + X(p.x1) + "," + Y(top[i]); });
    for (let i = points.length - 1; i >= 0; --i) d += "L" + X(points[i].x1) + "," + Y(base[i]) + "L" + X(points[i].x0) + "," + Y(base[i]);
    if (points.length) root.append(svg("path", { d: d + "Z", fill: color, stroke: "none" }, svgTitle(name)));
    top.forEach((v, i) => { base[i] = v; });
  }
  root.append(svg("line", { x1: L, y1: Y(0), x2: W - R, y2: Y(0), stroke: "#999" }));
  root.append(svg("line", { x1: L, y1: T, x2: L, y2: Y(0), stroke: "#999" }));
  const yt = svg("text", { x: L + 4, y: T + 10 }); yt.textContent = opts.yLabel ? opts.yLabel(yMax) : fmtNum(yMax, 1);
  const xt = svg("text", { x: W - R, y: H - 6, "text-anchor": "end" }); xt.textContent = opts.xLabel ? opts.xLabel(xMax) : String(xMax);
  const x0 = svg("text", { x: L, y: H - 6 }); x0.textContent = "0";
  root.append(yt, xt, x0);
  return root;
}

// rows: [{label, parts: [[value, name, color]]}]; bars scaled to the largest row's sum.
function stackedBars(rows, opts) {
  const W = opts.width || 640, rowH = 20, L = opts.labelWidth || 150, R = 90;
  const H = rows.length * rowH + 6;
  const max = maxOf(rows.map(r => r.parts.reduce((s, p) => s + p[0], 0)), 1e-9);
  const root = svg("svg", { class: "chart", width: W, height: H, viewBox: `0 0 ${W} ${H}` });
  rows.forEach((r, i) => {
    const y = 3 + i * rowH;
    const label = svg("text", { x: L - 6, y: y + 13, "text-anchor": "end" });
    label.textContent = r.label.length > 26 ? r.label.slice(0, 25) + "\u2026" : r.label;
    root.append(label);
    let x = L;
    let sum = 0;
    for (const [v, name, color] of r.parts) {
      const w = (W - L - R) * v / max;
      if (w > 0) root.append(svg("rect", { x, y: y + 2, width: w, height: rowH - 6, fill: color },
                                 svgTitle(`${r.label}: ${name} ${opts.format ? opts.format(v) : v}`)));
      x += w;
      sum += v;
    }
    const total = svg("text", { x: x + 4, y: y + 13 });
    total.textContent = opts.format ? opts.format(sum) : String(sum);
    root.append(total);
  });
  return root;
}

// A histogram of positive values over log-scaled bins (powers of 10^(1/4)).
function logHistogram(values, opts) {
  const W = opts.width || 300, H = opts.height || 90, B = 16, T = 4;
  const pos = values.filter(v => v > 0);
  const root = svg("svg", { class: "chart", width: W, height: H, viewBox: `0 0 ${W} ${H}` });
  if (!pos.length) return root;
  let lo = Infinity, hi = -Infinity;
  for (const v of pos) { const l = Math.log10(v); if (l < lo) lo = l; if (l > hi) hi = l; }
  lo = Math.floor(lo * 4) / 4; hi = Math.max(lo + 0.25, Math.ceil(hi * 4) / 4 + (hi * 4 % 1 === 0 ? 0.25 : 0));
  const n = Math.round((hi - lo) * 4);
  const bins = new Array(n).fill(0);
  for (const v of pos) bins[Math.min(n - 1, Math.floor((Math.log10(v) - lo) * 4))]++;
  const max = maxOf(bins, 1), bw = W / n;
  bins.forEach((c, i) => {
    const h = (H - B - T) * c / max;
    const from = Math.pow(10, lo + i / 4), to = Math.pow(10, lo + (i + 1) / 4);
    root.append(svg("rect", { x: i * bw + 0.5, y: H - B - h, width: Math.max(1, bw - 1), height: h, fill: opts.color || "#5c6bc0" },
                    svgTitle(`${fmtNs(from)} .. ${fmtNs(to)}: ${fmtCount(c)} tasks`)));
  });
  const a = svg("text", { x: 0, y: H - 3 }); a.textContent = fmtNs(Math.pow(10, lo));
  const b = svg("text", { x: W, y: H - 3, "text-anchor": "end" }); b.textContent = fmtNs(Math.pow(10, hi));
  root.append(a, b);
  return root;
}
