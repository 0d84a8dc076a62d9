// Numbers as the text report writes them: durations, shares, counts.

function fmtNs(ns) {
  if (ns === null || ns === undefined || !isFinite(ns)) return "-";
  const a = Math.abs(ns);
  if (a >= 1e9) return (ns / 1e9).toFixed(3) + " s";
  if (a >= 1e6) return (ns / 1e6).toFixed(3) + " ms";
  if (a >= 1e3) return (ns / 1e3).toFixed(3) + " us";
  return Math.round(ns) + " ns";
}

function fmtPct(share) {
  if (share === null || share === undefined || !isFinite(share)) return "-";
  return (100 * share).toFixed(1) + "%";
}

function fmtCount(n) {
  if (n === null || n === undefined) return "-";
  return Number(n).toLocaleString("en-US");
}

function fmtNum(x, digits) {
  if (x === null || x === undefined || !isFinite(x)) return "-";
  return Number(x).toFixed(digits === undefined ? 2 : digits);
}
