// Opens a `tasklens report --html` page in headless Chromium (puppeteer-core from web/node_modules,
// the system's chromium) from file:// with every network request refused, and checks the page's
// contract (docs/HTML-REPORT.md). Prints one JSON object of what it measured and every failure;
// exits 1 when something failed, 2 when it could not run.
//
//   node page_check.mjs --page P.html [--report R.json] [--screenshot S.png] [--chromium PATH]
//                       [--modules DIR] [--max-seconds 15] [--page-screenshot TOP.png]
//                       [--timeline-screenshot TL.png]
// --report: `tasklens report --all --json` of the same run; the data element must equal it.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import util from "node:util";

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
const modules = args.modules || path.join(path.dirname(new URL(import.meta.url).pathname), "../../web/node_modules");
let puppeteer;
try {
  puppeteer = createRequire(path.join(modules, "x.js"))("puppeteer-core");
} catch (e) {
  console.log(JSON.stringify({ error: `puppeteer-core not found under ${modules} (run scripts/setup.sh): ${e.message}` }));
  process.exit(2);
}

const SECTIONS = ["summary", "breakdown", "overheads", "constructs", "profile", "graph", "timeline"];
const REPORT_KEYS = ["run", "breakdown", "overheads", "tasks", "profile", "graph"];
const failures = [];
const out = { failures };
const fail = msg => failures.push(msg);

const page_path = path.resolve(args.page);
const html = fs.readFileSync(page_path, "utf8");
out.bytes = Buffer.byteLength(html);
if (/https?:\/\//i.test(html)) fail("the page holds an http(s):// address");

const browser = await puppeteer.launch({
  executablePath: args.chromium || "/usr/bin/chromium",
  headless: true,
  // --disable-dev-shm-usage: containers often have a small /dev/shm, which a 12 MB page can exhaust.
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions",
         "--window-size=1400,1000"],
  defaultViewport: { width: 1400, height: 1000 },
});
try {
  const page = await browser.newPage();
  // The network off: offline emulation, and every request other than the page itself refused.
  await page.setOfflineMode(true);
  await page.setRequestInterception(true);
  const pageUrl = "file://" + page_path;
  page.on("request", req => {
    const url = req.url();
    if (url === pageUrl || url.startsWith("data:")) return req.continue();
    fail("the page requested " + url);
    req.abort();
  });
  page.on("console", msg => {
    if (msg.type() === "error" || msg.type() === "assert") fail("console " + msg.type() + ": " + msg.text());
  });
  page.on("pageerror", err => fail("page error: " + err.message));

  const limit = Number(args["max-seconds"] || 15);
  const t0 = Date.now();
  await page.goto(pageUrl, { waitUntil: "load", timeout: 120000 });
  await page.waitForSelector("body[data-ready]", { timeout: 120000 });
  out.load_seconds = (Date.now() - t0) / 1000;
  if (out.load_seconds > limit) fail(`loaded and drawn in ${out.load_seconds} s, over ${limit} s`);

  // Every section visible and not empty.
  out.sections = await page.evaluate(ids => ids.map(id => {
    const s = document.getElementById(id);
    if (!s) return { id, missing: true };
    const r = s.getBoundingClientRect(), body = s.querySelector(".body");
    return { id, height: r.height, width: r.width, text: body ? body.innerText.trim().length : 0,
             drawn: body ? body.querySelectorAll("svg, canvas, table").length : 0 };
  }), SECTIONS);
  for (const s of out.sections) {
    if (s.missing) { fail(`no #${s.id}`); continue; }
    if (!(s.height > 20 && s.width > 20)) fail(`#${s.id} is not visible (${s.width}x${s.height})`);
    if (!(s.text > 0 || s.drawn > 0)) fail(`#${s.id} is empty`);
  }

  // The data element holds the report's objects.
  const data = await page.evaluate(() => JSON.parse(document.getElementById("tasklens-data").textContent));
  if (args.report) {
    const report = JSON.parse(fs.readFileSync(args.report, "utf8"));
    for (const k of REPORT_KEYS) {
      if (!(k in report)) fail(`the --json report has no ${k}`);
      else if (!util.isDeepStrictEqual(data[k], report[k])) fail(`the page's ${k} differs from the --json report's`);
    }
  }
  if (!data.timeline || !Array.isArray(data.timeline.states)) fail("the data holds no timeline");
  out.tasks = data.timeline ? data.timeline.tasks.count : 0;

  // The timeline drew something: not one colour.
  const canvas = await page.$("#timeline canvas");
  if (!canvas) fail("no timeline canvas");
  out.timeline_colors = await page.evaluate(() => {
    const c = document.querySelector("#timeline canvas");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data, seen = new Set();
    for (let i = 0; i < d.length && seen.size < 64; i += 4 * 7) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  });
  if (out.timeline_colors < 3) fail(`the timeline shows ${out.timeline_colors} colours`);
  if (args.screenshot && canvas) await canvas.screenshot({ path: args.screenshot });

  // Wheel zoom over the centre shrinks the window, inside the old one; a drag pans it.
  const view = () => page.evaluate(() => {
    const t = document.getElementById("timeline");
    return [Number(t.dataset.viewStart), Number(t.dataset.viewEnd)];
  });
  const frame = () => page.evaluate(() => new Promise(r => requestAnimationFrame(() => r())));
  out.view_before = await view();
  await canvas.scrollIntoView();
  const box = await canvas.boundingBox();
  const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
  await page.mouse.move(cx, cy);
  await page.mouse.wheel({ deltaY: -400 });
  await frame();
  out.view_zoomed = await view();
  const [a0, b0] = out.view_before, [a1, b1] = out.view_zoomed;
  if (!(b1 - a1 < b0 - a0)) fail(`a wheel zoom did not shrink the window: ${out.view_before} -> ${out.view_zoomed}`);
  if (!(a1 >= a0 && b1 <= b0)) fail(`the zoomed window ${out.view_zoomed} is not inside ${out.view_before}`);
  // The same over the centre of the #timeline section (its toolbar, canvas and legend).
  const sbox = await (await page.$("#timeline")).boundingBox();
  await page.mouse.move(sbox.x + sbox.width / 2, sbox.y + sbox.height / 2);
  await page.mouse.wheel({ deltaY: -200 });
  await frame();
  out.view_zoomed_section = await view();
  const [a2, b2] = out.view_zoomed_section;
  if (!(b2 - a2 < b1 - a1 && a2 >= a1 && b2 <= b1)) {
    fail(`a wheel zoom over the section's centre did not shrink the window: ${out.view_zoomed} -> ${out.view_zoomed_section}`);
  }
  // A script's own wheel event on the canvas, one that does not bubble, zooms as well.
  await page.evaluate(() => {
    const c = document.querySelector("#timeline canvas"), r = c.getBoundingClientRect();
    c.dispatchEvent(new WheelEvent("wheel", { deltaY: -100, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 }));
  });
  out.view_zoomed_script = await view();
  const [a3, b3] = out.view_zoomed_script;
  if (!(b3 - a3 < b2 - a2 && a3 >= a2 && b3 <= b2)) {
    fail(`a dispatched wheel event did not shrink the window: ${out.view_zoomed_section} -> ${out.view_zoomed_script}`);
  }
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  await page.mouse.move(cx - box.width / 4, cy, { steps: 5 });
  await page.mouse.up();
  await frame();
  out.view_panned = await view();
  if (!(out.view_panned[0] > a3)) fail(`dragging left did not move the window later: ${out.view_zoomed_script} -> ${out.view_panned}`);
  // A tooltip where the pointer rests on a thread row.
  await page.mouse.move(cx, box.y + 40);
  await frame();
  out.tooltip = await page.evaluate(() => {
    const t = document.querySelector(".tip");
    return t && t.style.display === "block" ? t.textContent : "";
  });
  if (!out.tooltip.includes("thread")) fail("no tooltip over a thread row");
  // The critical path on demand: its tasks' fragments marked in red, the canvas changes.
  await page.mouse.move(0, 0);
  await page.click("#timeline button[title='Show the whole run']");
  await frame();
  // The canvas's pixels kept in the page; the second call counts the ones that changed.
  const pixels = () => page.evaluate(() => {
    const c = document.querySelector("#timeline canvas");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data, old = window.__pathPixels;
    window.__pathPixels = d;
    if (!old || old.length !== d.length) return 0;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] !== old[i] || d[i + 1] !== old[i + 1] || d[i + 2] !== old[i + 2]) ++n;
    return n;
  });
  out.path_tasks = await page.evaluate(() => Number(document.getElementById("timeline").dataset.pathTasks));
  if (out.path_tasks > 0) {
    await pixels();
    await page.click("#timeline button[title^='Mark the fragments of the tasks on the critical path']");
    await frame();
    out.path_highlight = await page.evaluate(() => document.getElementById("timeline").dataset.pathHighlight);
    if (out.path_highlight !== "on") fail(`the critical path button left data-path-highlight ${out.path_highlight}`);
    out.path_pixels_changed = await pixels();
    if (!out.path_pixels_changed) fail("marking the critical path changed nothing on the canvas");
    await page.click("#timeline button[title^='Mark the fragments of the tasks on the critical path']");
    await frame();
  }
  if (args["timeline-screenshot"]) {
    await page.mouse.move(0, 0);  // no tooltip
    await frame();
    await (await page.$("#timeline")).screenshot({ path: args["timeline-screenshot"] });
  }
  if (args["page-screenshot"]) {
    await page.click("#timeline button[title='Show the whole run']");
    await page.evaluate(() => window.scrollTo(0, 0));
    await frame();
    await page.screenshot({ path: args["page-screenshot"] });
  }
} catch (e) {
  fail("the check stopped: " + (e && e.stack ? e.stack : e));
} finally {
  await browser.close();
}
console.log(JSON.stringify(out, null, 1));
process.exit(failures.length ? 1 : 0);
