// Reads the page's data element and draws every section; a section that fails says so in place
// (and on the console) without stopping the others. body[data-ready] is set once all are drawn.

function main() {
  const data = JSON.parse(document.getElementById("tasklens-data").textContent);
  let tl = null;
  try {
    if (data.timeline) tl = decodeTimeline(data.timeline);
  } catch (e) {
    console.error("tasklens: the timeline data could not be read:", e);
  }
  const sections = [
    ["summary", renderSummary], ["breakdown", renderBreakdown], ["overheads", renderOverheads],
    ["constructs", renderConstructs], ["profile", renderProfile], ["graph", renderGraph],
    ["timeline", renderTimeline],
  ];
  for (const [id, render] of sections) {
    const body = document.querySelector(`#${id} > .body`);
    try {
      render(data, body, tl);
    } catch (e) {
      console.error(`tasklens: the ${id} section failed:`, e);
      body.append(el("p", { class: "warnings" }, `This section could not be drawn: ${e}`));
    }
  }
  requestAnimationFrame(() => requestAnimationFrame(() => { document.body.dataset.ready = "1"; }));
}

main();
