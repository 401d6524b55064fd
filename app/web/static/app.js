// AssetOps web chat: sessions, streamed turns (server-sent events over fetch), artifacts with charts.
"use strict";
const state = { key: localStorage.getItem("assetopsKey") || "", session: null };
const $ = (id) => document.getElementById(id);

function headers(json) {
  const h = {};
  if (state.key) h["Authorization"] = "Bearer " + state.key;
  if (json) h["Content-Type"] = "application/json";
  return h;
}

async function api(path, options = {}) {
  const response = await fetch(path, { ...options, headers: { ...headers(options.body), ...(options.headers || {}) } });
  if (!response.ok) {
    let detail = response.statusText;
    try { detail = (await response.json()).detail || detail; } catch (e) { /* not JSON */ }
    throw new Error(`${response.status}: ${typeof detail === "string" ? detail : JSON.stringify(detail)}`);
  }
  return response;
}

function note(text, cls = "") {
  const div = document.createElement("div");
  div.className = "progress " + cls;
  div.textContent = text;
  $("messages").appendChild(div);
  $("messages").scrollTop = $("messages").scrollHeight;
  return div;
}

function bubble(role, text) {
  const div = document.createElement("div");
  div.className = "msg " + role;
  div.textContent = text;
  $("messages").appendChild(div);
  $("messages").scrollTop = $("messages").scrollHeight;
  return div;
}

async function loadSessions() {
  const list = $("sessions");
  list.innerHTML = "";
  try {
    const sessions = await (await api("/v1/sessions")).json();
    for (const s of sessions) {
      const li = document.createElement("li");
      li.textContent = (s.title || s.id) + " · " + s.reference_date;
      li.dataset.id = s.id;
      if (state.session && state.session.id === s.id) li.classList.add("active");
      li.onclick = () => openSession(s);
      list.appendChild(li);
    }
  } catch (e) {
    list.innerHTML = `<li class="error">${e.message}</li>`;
  }
}

async function openSession(session) {
  state.session = session;
  $("session-title").textContent = `${session.title || session.id} (reference date ${session.reference_date})`;
  $("messages").innerHTML = "";
  const link = $("rollout-link");
  link.hidden = false;
  const detail = await (await api(`/v1/sessions/${session.id}`)).json();
  for (const turn of detail.turns) {
    bubble("user", turn.user_message);
    bubble("assistant", turn.answer);
  }
  await loadSessions();
  await loadArtifacts();
}

function describe(event) {
  const d = event.data || {};
  const who = event.specialist || d.specialist || "";
  switch (event.type) {
    case "supervisor_decision":
      return [`supervisor: ${d.kind}${d.tasks && d.tasks.length ? " → " + d.tasks.map((t) => `${t.specialist}.${t.action}`).join(", ") : ""}`, "run"];
    case "specialist_started": return [`${who} working: ${d.goal || d.action}`, "run"];
    case "specialist_finished": return [`${who} ${d.status}: ${(d.summary || "").slice(0, 160)}`, d.status === "failed" ? "fail" : "ok"];
    case "tool_call_started": return [`  ${event.data.name} …`, "run"];
    case "tool_call_finished":
      return [`  ${d.name} ${d.reused ? "reused" : d.status} ${d.latency_ms != null ? Math.round(d.latency_ms) + " ms" : ""}${d.error ? " — " + d.error : ""}`, d.status === "ok" ? "ok" : "fail"];
    case "artifact_created": return [`  artifact ${d.artifact_id}`, "ok"];
    case "artifact_reused": return [`  reused ${d.artifact_id}`, "ok"];
    case "error": return [`error: ${d.message}`, "fail"];
    default: return null;
  }
}

async function send(text) {
  if (!state.session) { alert("Create or select a session first."); return; }
  bubble("user", text);
  $("send").disabled = true;
  let answer = null;
  try {
    const response = await api(`/v1/sessions/${state.session.id}/messages?stream=true`, {
      method: "POST", body: JSON.stringify({ content: text }),
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const chunk = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const line = chunk.split("\n").find((l) => l.startsWith("data: "));
        if (!line) continue;
        const event = JSON.parse(line.slice(6));
        if (event.type === "partial_text") {
          answer = answer || bubble("assistant", "");
          answer.textContent += event.data.text;
        } else if (event.type === "final_answer") {
          answer = answer || bubble("assistant", "");
          answer.textContent = event.data.text;
          answer.dataset.final = "true";
        } else {
          const d = describe(event);
          if (d) note(d[0], d[1]);
        }
      }
    }
  } catch (e) {
    bubble("assistant", e.message).classList.add("error");
  } finally {
    $("send").disabled = false;
    await loadArtifacts();
  }
}

async function loadArtifacts() {
  const box = $("artifact-list");
  box.innerHTML = "";
  if (!state.session) return;
  const artifacts = await (await api(`/v1/sessions/${state.session.id}/artifacts`)).json();
  for (const a of artifacts.slice().reverse()) {
    const div = document.createElement("div");
    div.className = "artifact";
    const rows = [["producer", a.producer], ["assets", (a.asset_ids || []).join(", ")],
      ["window", (a.window || []).filter(Boolean).map((w) => w.slice(0, 16)).join(" → ")],
      ["sensors", (a.sensors || []).length], ["confidence", a.confidence == null ? "" : a.confidence]]
      .concat((a.observations || []).slice(0, 4).map((o, i) => [i === 0 ? "findings" : "", o]));
    div.innerHTML = `<h3>${a.kind} <small>${a.id}</small></h3><p>${a.summary || ""}</p><table></table>`;
    const table = div.querySelector("table");
    for (const [k, v] of rows) {
      if (v === "" || v == null) continue;
      const tr = table.insertRow();
      tr.insertCell().textContent = k;
      tr.insertCell().textContent = v;
    }
    if (a.data_ref) {
      const img = document.createElement("img");
      img.alt = `chart of ${a.id}`;
      api(`/v1/artifacts/${a.id}/chart.png`).then((r) => r.blob()).then((b) => { img.src = URL.createObjectURL(b); })
        .catch(() => img.remove());
      div.appendChild(img);
    }
    box.appendChild(div);
  }
}

$("rollout-link").onclick = async (event) => {
  event.preventDefault();
  if (!state.session) return;
  const blob = await (await api(`/v1/sessions/${state.session.id}/rollout`)).blob();
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `dialog_${state.session.id}.jsonl`;
  a.click();
};

$("key-form").onsubmit = (event) => {
  event.preventDefault();
  state.key = $("api-key").value.trim();
  localStorage.setItem("assetopsKey", state.key);
  loadSessions();
};

$("new-session").onsubmit = async (event) => {
  event.preventDefault();
  try {
    const session = await (await api("/v1/sessions", {
      method: "POST", body: JSON.stringify({ reference_date: $("ref-date").value || null, title: "Chat " + new Date().toLocaleTimeString() }),
    })).json();
    await openSession(session);
  } catch (e) { alert(e.message); }
};

$("composer").onsubmit = (event) => {
  event.preventDefault();
  const text = $("message").value.trim();
  if (!text) return;
  $("message").value = "";
  send(text);
};

$("api-key").value = state.key;
loadSessions();
