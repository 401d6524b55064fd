// The profiling dashboard: measured wall-time split per turn (bars to scale), filters, drill-down.
"use strict";
const SPLIT = [["llm", "LLM"], ["tools", "tools"], ["db", "database"], ["routing", "routing (supervisor)"],
  ["specialists", "specialist code"], ["answer", "answer composition"], ["other", "other (graph, storage)"]];
const $ = (id) => document.getElementById(id);
const key = () => localStorage.getItem("assetops.key") || localStorage.getItem("assetopsKey") || "";
const get = async (path) => (await apiFetch(key(), path)).json();
const ms = (v) => (v >= 10000 ? `${(v / 1000).toFixed(1)} s` : v < 10 ? `${v.toFixed(1)} ms` : `${Math.round(v).toLocaleString()} ms`);
const node = (tag, attrs = {}, text) => { const n = document.createElement(tag); Object.assign(n, attrs); if (text != null) n.textContent = text; return n; };

function bar(split, width) {
  const box = node("div", { className: "bar" });
  box.style.width = `${Math.max(width, 1)}px`;
  const total = SPLIT.reduce((s, [k]) => s + (split[k] || 0), 0) || 1;
  for (const [k, label] of SPLIT) {
    if (!split[k]) continue;
    const part = node("span", { className: `c-${k}`, title: `${label}: ${ms(split[k])}` });
    part.style.width = `${(100 * split[k]) / total}%`;
    box.appendChild(part);
  }
  return box;
}

function row(table, cells, header = false) {
  const tr = table.insertRow();
  for (const c of cells) {
    const cell = node(header ? "th" : "td");
    if (c instanceof Node) cell.appendChild(c);
    else if (c && typeof c === "object") { cell.textContent = c.text; if (c.cls) cell.className = c.cls; }
    else cell.textContent = c;
    tr.appendChild(cell);
  }
  return tr;
}

function filters() {
  const q = new URLSearchParams();
  const iso = (v) => (v ? new Date(v).toISOString() : "");
  if ($("f-session").value) q.set("session_id", $("f-session").value);
  if ($("f-since").value) q.set("since", iso($("f-since").value));
  if ($("f-until").value) q.set("until", iso($("f-until").value));
  q.set("limit", $("f-limit").value || "200");
  return q;
}

function describeCoverage(data) {
  const f = data.filters;
  const scope = [f.session_id ? `session “${$("f-session").selectedOptions[0].textContent}”` : "all your sessions",
    f.since ? `from ${new Date(f.since).toLocaleString()}` : "", f.until ? `to ${new Date(f.until).toLocaleString()}` : ""].filter(Boolean).join(", ");
  const t = data.totals;
  const shown = data.turns.length < data.matching ? `the newest ${data.turns.length} of ${data.matching} matching turns` : `all ${data.matching} matching turns`;
  return `Showing ${shown} (${scope}); ${t.turns_with_split} of them have a measured split (turns recorded before the split was measured show wall time only).`;
}

function summary(t) {
  const box = $("summary");
  box.textContent = "";
  const cards = node("div", { className: "cards" });
  const card = (value, label) => { const c = node("div", { className: "card" }); c.append(node("b", {}, value), node("small", {}, label)); cards.appendChild(c); };
  card(`${t.turns}`, `turns in ${t.sessions} session${t.sessions === 1 ? "" : "s"}`);
  card(ms(t.wall_ms), "wall time, all shown turns");
  card(ms(t.first_turn_ms), `mean first turn (${t.first_turns})`);
  card(ms(t.follow_up_ms), `mean follow-up (${t.follow_ups})`);
  card(`${t.tool_calls}`, `tool calls (${t.reused_calls} reused)`);
  card(`${t.llm_calls}`, `LLM calls, ${t.tokens.toLocaleString()} tokens`);
  card(`${t.db_queries}`, `database queries, ${ms(t.db_ms)}`);
  box.appendChild(cards);
  box.appendChild(bar(t.split_ms, 900));
  $("legend").textContent = "";
  const measured = SPLIT.reduce((s, [k]) => s + t.split_ms[k], 0) || 1;
  for (const [k, label] of SPLIT) {
    $("legend").append(node("span", { className: `sw c-${k}` }), `${label} ${ms(t.split_ms[k])} (${Math.round((100 * t.split_ms[k]) / measured)}%)`);
  }
}

function timeline(turns) {
  const box = $("timeline");
  box.textContent = "";
  const points = turns.filter((t) => t.started_at).map((t) => ({ x: Date.parse(t.started_at), y: t.wall_ms, first: t.index === 1, t }));
  if (!points.length) { box.textContent = "No turns in this range."; return; }
  const W = 900, H = 200, P = 40;
  const [x0, x1] = [Math.min(...points.map((p) => p.x)), Math.max(...points.map((p) => p.x))];
  const yMax = Math.max(...points.map((p) => p.y), 1);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("width", W); svg.setAttribute("height", H);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Wall time of ${points.length} turns over time; first turns in red, follow-ups in blue; up to ${ms(yMax)}`);
  const text = (x, y, s, anchor = "start") => { const t = document.createElementNS(ns, "text"); t.setAttribute("x", x); t.setAttribute("y", y); t.setAttribute("font-size", "11"); t.setAttribute("text-anchor", anchor); t.textContent = s; svg.appendChild(t); };
  text(4, 14, `wall time (max ${ms(yMax)})`); text(W - 4, H - 6, new Date(x1).toLocaleString(), "end"); text(P, H - 6, new Date(x0).toLocaleString());
  for (const p of points) {
    const c = document.createElementNS(ns, "circle");
    c.setAttribute("cx", P + ((W - 2 * P) * (p.x - x0)) / Math.max(x1 - x0, 1));
    c.setAttribute("cy", H - P + 10 - ((H - 2 * P) * p.y) / yMax);
    c.setAttribute("r", 4);
    c.setAttribute("class", p.first ? "first" : "follow");
    const title = document.createElementNS(ns, "title");
    title.textContent = `${p.t.session_title} #${p.t.index}: ${ms(p.y)}`;
    c.appendChild(title);
    svg.appendChild(c);
  }
  box.appendChild(svg);
}

async function drill(t, tr, button) {
  const next = tr.nextElementSibling;
  if (next && next.classList.contains("drill")) { next.remove(); button.setAttribute("aria-expanded", "false"); return; }
  button.setAttribute("aria-expanded", "true");
  const detail = tr.parentNode.insertRow(tr.sectionRowIndex + 1);
  detail.className = "drill";
  const cell = detail.insertCell();
  cell.colSpan = 9;
  cell.textContent = "loading…";
  try {
    const profile = await get(`/v1/sessions/${encodeURIComponent(t.session_id)}/profile`);
    const turn = profile.turns.find((x) => x.index === t.index);
    cell.textContent = "";
    const split = turn.split_ms ? SPLIT.map(([k, label]) => `${label} ${ms(turn.split_ms[k])}`).join(" · ") : "split not measured for this turn";
    cell.appendChild(node("p", {}, `“${turn.message}” — ${split}`));
    if (!turn.calls.length) { cell.appendChild(node("p", {}, "No tool calls in this turn.")); return; }
    const table = node("table", { className: "grid" });
    row(table, [{ text: "tool", cls: "l" }, { text: "specialist", cls: "l" }, "starts at", "latency", "db time", "db queries", "rows", { text: "status", cls: "l" }], true);
    for (const c of turn.calls) {
      row(table, [{ text: c.name, cls: "l" }, { text: c.specialist || "", cls: "l" }, `+${ms(c.start_ms)}`, c.reused ? "reused" : ms(c.latency_ms),
        ms(c.db_ms), c.db_queries, c.rows == null ? "" : c.rows.toLocaleString(), { text: c.reused ? "reused (memo)" : c.status, cls: "l" }]);
    }
    cell.appendChild(table);
  } catch (e) { cell.textContent = e.message; }
}

function turnsTable(turns) {
  const table = $("turns");
  table.textContent = "";
  row(table, [{ text: "session / turn", cls: "l" }, { text: "started", cls: "l" }, { text: "message", cls: "l" }, "status", "wall", { text: "split (to scale)", cls: "l" }, "tool calls", "reused", "db queries"], true);
  const maxWall = Math.max(...turns.map((t) => t.wall_ms), 1);
  for (const t of turns) {
    const button = node("button", { type: "button", className: "turn-link" }, `${t.session_title} #${t.index}`);
    button.setAttribute("aria-expanded", "false");
    const width = (420 * t.wall_ms) / maxWall;
    const cellBar = t.split_ms ? bar(t.split_ms, width) : bar({ other: t.wall_ms }, width);
    const tr = row(table, [button, { text: t.started_at ? new Date(t.started_at).toLocaleString() : "", cls: "l" }, { text: t.message, cls: "msg-cell" },
      t.status, ms(t.wall_ms), cellBar, t.tool_calls, t.reused_calls, t.db_queries]);
    tr.cells[5].className = "bar-cell";
    button.addEventListener("click", () => drill(t, tr, button));
  }
}

function serversTable(servers) {
  const table = $("servers");
  table.textContent = "";
  row(table, [{ text: "server", cls: "l" }, "calls run", "failed", "mean", "p95"], true);
  for (const s of servers) row(table, [{ text: s.server, cls: "l" }, s.calls, s.failed, ms(s.mean_ms), ms(s.p95_ms)]);
}

async function loadSessions() {
  const select = $("f-session");
  const chosen = select.value;
  const sessions = await get("/v1/sessions");
  select.length = 1;
  for (const s of sessions) select.appendChild(node("option", { value: s.id }, `${s.title || s.id} (${s.reference_date})`));
  select.value = chosen;
  return sessions;
}

async function load() {
  try {
    await loadSessions();
    const data = await get(`/v1/profiling/summary?${filters()}`);
    $("coverage").textContent = describeCoverage(data);
    summary(data.totals);
    timeline(data.turns);
    turnsTable(data.turns);
    serversTable(data.servers);
    return true;
  } catch (e) {
    $("coverage").textContent = e.message;
    return false;
  }
}

$("api-key").value = key();
$("key-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  localStorage.setItem("assetops.key", $("api-key").value.trim());
  const ok = await load();
  $("key-status").textContent = ok ? "✓ Key accepted" : "✗ Key not accepted";
  $("key-status").className = ok ? "ok" : "error";
});
$("filters").addEventListener("submit", (e) => { e.preventDefault(); load(); });
load();
