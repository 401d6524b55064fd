// The artifacts panel: every finding, structured results as tables, charts that open full size,
// and download links for data files and reports.
"use strict";

const ARTIFACT_LABELS = {
  telemetry_window: "Telemetry window", anomaly_report: "Anomalies", forecast: "Forecast", failure_modes: "Failure modes",
  hypotheses: "Diagnosis", work_order_summary: "Work orders", work_order_draft: "Work order draft", management_report: "Report",
};
const MAX_TABLE_COLUMNS = 7;

function titleOf(a) { return ARTIFACT_LABELS[a.kind] || a.kind.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase()); }
function humanKey(k) { return k.replace(/_/g, " "); }
function scalar(v) {
  if (v == null) return "";
  if (typeof v === "number") return Number.isInteger(v) ? v.toLocaleString() : (Math.abs(v) < 1 ? v.toFixed(3) : v.toFixed(2));
  if (typeof v === "object") return Array.isArray(v) && v.every((x) => typeof x !== "object") ? v.join(", ") : JSON.stringify(v);
  return String(v);
}

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text != null) node.textContent = text;
  return node;
}

/** A table of a list of records (columns: the scalar fields, most common first). */
function recordTable(rows) {
  const counts = new Map();
  for (const r of rows) for (const [k, v] of Object.entries(r)) if (v == null || typeof v !== "object" || Array.isArray(v)) counts.set(k, (counts.get(k) || 0) + 1);
  const columns = [...counts.keys()].slice(0, MAX_TABLE_COLUMNS);
  const table = el("table", { class: "records" });
  const head = table.createTHead().insertRow();
  for (const c of columns) head.appendChild(el("th", { scope: "col" }, humanKey(c)));
  const body = table.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    for (const c of columns) { const td = tr.insertCell(); td.textContent = scalar(r[c]); if (typeof r[c] === "number") td.className = "num"; }
  }
  const wrap = el("div", { class: "table-wrap" });
  wrap.appendChild(table);
  return wrap;
}

/** The structured results: lists of records as tables, other values as a key/value table. */
function resultsBlock(results) {
  const box = el("div", { class: "results" });
  const pairs = el("table", { class: "pairs" });
  for (const [key, value] of Object.entries(results || {})) {
    if (key === "report" || value == null || value === "" || (Array.isArray(value) && !value.length)) continue;
    if (Array.isArray(value) && value.every((x) => x && typeof x === "object" && !Array.isArray(x))) {
      box.appendChild(el("h4", {}, `${humanKey(key)} (${value.length})`));
      box.appendChild(recordTable(value));
    } else if (typeof value === "object" && !Array.isArray(value) && Object.values(value).every((x) => x && typeof x === "object" && !Array.isArray(x))) {
      box.appendChild(el("h4", {}, humanKey(key)));
      box.appendChild(recordTable(Object.entries(value).map(([k, v]) => ({ name: k, ...v }))));
    } else {
      const tr = pairs.insertRow();
      tr.appendChild(el("th", { scope: "row" }, humanKey(key)));
      tr.insertCell().textContent = scalar(value);
    }
  }
  if (pairs.rows.length) box.prepend(pairs);
  return box;
}

function chartAlt(a) {
  const sensors = (a.sensors || []).map((s) => s.replace(/^Chiller \d+ /, "")).slice(0, 6).join(", ");
  const windowText = (a.window || []).filter(Boolean).map((w) => w.slice(0, 10)).join(" to ");
  return `${titleOf(a)} chart for ${(a.asset_ids || []).join(", ") || "the fleet"}${sensors ? `: ${sensors}` : ""}${windowText ? `, ${windowText}` : ""}`;
}

function downloadLink(label, makeBlob, filename) {
  const link = el("a", { href: "#", class: "download" }, label);
  link.addEventListener("click", async (event) => {
    event.preventDefault();
    try {
      const a = el("a", { href: URL.createObjectURL(await makeBlob()), download: filename });
      a.click();
    } catch (e) { showStatus(e.message, "error"); }
  });
  return link;
}

/** One artifact card; `openChart(src, alt)` shows a chart full size. */
function artifactCard(a, key, openChart) {
  const card = el("article", { class: "artifact", id: `art-${a.id}`, tabindex: "-1" });
  const h = el("h3", {}, titleOf(a) + " ");
  h.appendChild(el("small", {}, (a.asset_ids || []).join(", ")));
  card.appendChild(h);
  const windowText = (a.window || []).filter(Boolean).map((w) => w.slice(0, 16).replace("T", " ")).join(" → ");
  card.appendChild(el("p", { class: "meta" }, [a.producer, windowText, a.confidence == null ? "" : `confidence ${scalar(a.confidence)}`, a.id].filter(Boolean).join(" · ")));
  if (a.kind === "management_report" && a.results && a.results.report) {
    const body = el("div", { class: "md" });
    body.innerHTML = renderMarkdown(a.results.report);
    card.appendChild(body);
    card.appendChild(downloadLink("Download report (.md)", async () => new Blob([a.results.report], { type: "text/markdown" }), `${a.id}.md`));
  } else if ((a.observations || []).length) {
    const list = el("ul", { class: "findings" });
    for (const o of a.observations) list.appendChild(el("li", {}, o));
    card.appendChild(list);
  }
  if (a.results && Object.keys(a.results).length) {
    const more = el("details", { class: "more" });
    more.open = !["telemetry_window", "anomaly_report", "forecast"].includes(a.kind); // tables first where they are the finding
    more.appendChild(el("summary", {}, "Results table"));
    more.appendChild(resultsBlock(a.results));
    card.appendChild(more);
  }
  if (a.data_ref) {
    const figure = el("figure", { class: "chart" });
    const button = el("button", { type: "button", class: "chart-open", "aria-label": `Open full size: ${chartAlt(a)}` });
    const img = el("img", { alt: chartAlt(a), loading: "lazy" });
    button.appendChild(img);
    button.addEventListener("click", () => openChart(img.src, img.alt));
    figure.appendChild(button);
    figure.appendChild(el("figcaption", {}, "Click to enlarge"));
    apiFetch(key, `/v1/artifacts/${a.id}/chart.png`).then((r) => r.blob()).then((b) => { img.src = URL.createObjectURL(b); })
      .catch(() => figure.remove());
    card.appendChild(figure);
    const ext = a.data_format || "csv";
    card.appendChild(downloadLink(`Download data (.${ext})`, async () => (await apiFetch(key, `/v1/artifacts/${a.id}/data`)).blob(), `${a.id}.${ext}`));
  }
  return card;
}
