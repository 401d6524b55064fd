"use strict";
const key = () => localStorage.getItem("assetopsKey") || "";
document.getElementById("api-key").value = key();
document.getElementById("key-form").onsubmit = (e) => { e.preventDefault(); localStorage.setItem("assetopsKey", document.getElementById("api-key").value.trim()); load(); };
function row(table, cells, header = false) {
  const tr = table.insertRow();
  for (const c of cells) { const cell = document.createElement(header ? "th" : "td"); cell.innerHTML = c; tr.appendChild(cell); }
}
async function load() {
  const r = await fetch("/v1/profiling/summary", { headers: key() ? { Authorization: "Bearer " + key() } : {} });
  if (!r.ok) { document.getElementById("summary").textContent = `${r.status}: ${(await r.json()).detail}`; return; }
  const data = await r.json();
  const s = data.totals;
  document.getElementById("summary").innerHTML = `${s.turns} turns in ${s.sessions} sessions · wall ${(s.wall_ms / 1000).toFixed(1)} s = LLM ${(s.llm_ms / 1000).toFixed(1)} s + tools ${(s.tool_ms / 1000).toFixed(1)} s + routing ${(s.routing_ms / 1000).toFixed(1)} s · ${s.llm_calls} LLM calls, ${s.prompt_tokens + s.completion_tokens} tokens · ${s.tool_calls} tool calls (${s.reused_calls} reused) · first turns ${s.first_turn_ms.toFixed(0)} ms vs follow-ups ${s.follow_up_ms.toFixed(0)} ms (mean)`;
  const servers = document.getElementById("servers"); servers.innerHTML = "";
  row(servers, ["server", "calls", "failed", "mean ms", "p95 ms"], true);
  for (const x of data.servers) row(servers, [x.server, x.calls, x.failed, x.mean_ms.toFixed(1), x.p95_ms.toFixed(1)]);
  const turns = document.getElementById("turns"); turns.innerHTML = "";
  row(turns, ["session / turn", "status", "wall ms", "split", "tool calls", "db queries", "answer chars"], true);
  for (const t of data.turns) {
    const scale = 300 / Math.max(1, t.wall_ms);
    const split = `<span class="bar llm" style="width:${t.llm_ms * scale}px"></span><span class="bar tool" style="width:${t.tool_ms * scale}px"></span><span class="bar route" style="width:${Math.max(0, t.routing_ms) * scale}px"></span>`;
    row(turns, [`${t.session_id} #${t.index}`, t.status, t.wall_ms.toFixed(0), split, t.tool_calls, t.db_queries, t.answer_chars]);
  }
}
load();
