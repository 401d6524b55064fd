// AssetOps web chat: sessions, streamed turns (server-sent events over fetch), artifacts with charts.
// Remembers the key, the open session and the reference date across reloads (localStorage).
"use strict";
const MAX_MESSAGE_CHARS = 20000;
const store = {
  get: (k) => localStorage.getItem("assetops." + k) || "",
  set: (k, v) => (v ? localStorage.setItem("assetops." + k, v) : localStorage.removeItem("assetops." + k)),
};
const state = { key: store.get("key") || localStorage.getItem("assetopsKey") || "", session: null, busy: false };
const $ = (id) => document.getElementById(id);
const api = (path, options) => apiFetch(state.key, path, options);

function showStatus(text, cls = "") {
  const box = $("status");
  box.textContent = text;
  box.className = cls;
}

function turnBox() {
  const div = document.createElement("div");
  div.className = "turn";
  $("messages").appendChild(div);
  return div;
}

function bubble(parent, role, text, markdown = false) {
  const div = document.createElement("div");
  div.className = "msg " + role;
  if (markdown) div.innerHTML = renderMarkdown(text);
  else div.textContent = text;
  parent.appendChild(div);
  return div;
}

/** Bring a turn's answer to the top of the chat pane (the progress stays below it, folded). */
function revealAnswer(answer) {
  const pane = $("messages");
  pane.scrollTop = answer.offsetTop - pane.offsetTop - 8;
}

async function loadSessions() {
  const list = $("sessions");
  let sessions;
  try {
    sessions = await (await api("/v1/sessions")).json();
  } catch (e) {
    list.textContent = "";
    list.appendChild(Object.assign(document.createElement("li"), { className: "error", textContent: e.message }));
    return null;
  }
  list.textContent = "";
  if (!sessions.length) list.appendChild(Object.assign(document.createElement("li"), { className: "hint", textContent: "No sessions yet: start one above." }));
  for (const s of sessions) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "session" + (state.session && state.session.id === s.id ? " active" : "");
    if (state.session && state.session.id === s.id) button.setAttribute("aria-current", "true");
    button.append(Object.assign(document.createElement("span"), { textContent: s.title || s.id }),
      Object.assign(document.createElement("small"), { textContent: `reference ${s.reference_date}` }));
    button.addEventListener("click", () => openSession(s));
    li.appendChild(button);
    list.appendChild(li);
  }
  return sessions;
}

async function openSession(session) {
  state.session = session;
  store.set("session", session.id);
  $("session-title").textContent = `${session.title || session.id} · reference date ${session.reference_date}`;
  $("messages").textContent = "";
  showStatus("");
  $("rollout-link").hidden = false;
  try {
    const detail = await (await api(`/v1/sessions/${session.id}`)).json();
    let last = null;
    for (const turn of detail.turns) {
      const box = turnBox();
      bubble(box, "user", turn.user_message);
      last = bubble(box, "assistant", turn.answer || "(no answer stored)", true);
    }
    if (last) last.scrollIntoView({ block: "end" });
  } catch (e) { showStatus(e.message, "error"); }
  await loadSessions();
  await loadArtifacts();
}

function readEvents(buffer, onEvent) {
  let cut;
  while ((cut = buffer.indexOf("\n\n")) >= 0) {
    const line = buffer.slice(0, cut).split("\n").find((l) => l.startsWith("data: "));
    buffer = buffer.slice(cut + 2);
    if (line) onEvent(JSON.parse(line.slice(6)));
  }
  return buffer;
}

async function send(text) {
  if (!state.session) { showStatus("Create or select a session first (left column).", "error"); return false; }
  const box = turnBox();
  bubble(box, "user", text);
  const progress = new TurnProgress(box);
  box.scrollIntoView({ block: "start" });
  state.busy = true;
  $("send").disabled = true;
  showStatus("");
  let answer = null;
  let timings = null;
  const answerBubble = () => answer || (answer = Object.assign(document.createElement("div"), { className: "msg assistant" }), box.insertBefore(answer, progress.box), answer);
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
      buffer = readEvents(buffer + decoder.decode(value, { stream: true }), (event) => {
        if (event.type === "partial_text") answerBubble().textContent += event.data.text;
        else if (event.type === "final_answer") {
          const a = answerBubble();
          a.innerHTML = renderMarkdown(event.data.text);
          a.dataset.final = "true";
        } else if (event.type === "done") timings = event.data.timings;
        else progress.add(event);
      });
    }
  } catch (e) {
    answerBubble().textContent = e.message;
    answer.classList.add("error");
    answer.dataset.final = "true";
  } finally {
    progress.finish(timings);
    state.busy = false;
    $("send").disabled = false;
    if (answer) revealAnswer(answer);
  }
  await loadArtifacts();
  if (answer) revealAnswer(answer);
  return true;
}

async function loadArtifacts() {
  const box = $("artifact-list");
  if (!state.session) return;
  let artifacts;
  try { artifacts = await (await api(`/v1/sessions/${state.session.id}/artifacts`)).json(); } catch (e) { showStatus(e.message, "error"); return; }
  box.textContent = "";
  if (!artifacts.length) box.appendChild(Object.assign(document.createElement("p"), { className: "hint", textContent: "No artifacts yet in this session." }));
  for (const a of artifacts.slice().reverse()) box.appendChild(artifactCard(a, state.key, openChart));
}

function openChart(src, alt) {
  if (!src) return;
  const img = $("chart-full");
  img.src = src;
  img.alt = alt;
  $("chart-caption").textContent = alt;
  $("chart-dialog").showModal();
}

function validDate(value) {
  const year = Number((value || "").slice(0, 4));
  return /^\d{4}-\d{2}-\d{2}$/.test(value || "") && year >= 2000 && year <= 2100;
}

$("rollout-link").addEventListener("click", async (event) => {
  event.preventDefault();
  if (!state.session) return;
  try {
    const blob = await (await api(`/v1/sessions/${state.session.id}/rollout`)).blob();
    const a = Object.assign(document.createElement("a"), { href: URL.createObjectURL(blob), download: `dialog_${state.session.id}.jsonl` });
    a.click();
  } catch (e) { showStatus(e.message, "error"); }
});

$("key-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  state.key = $("api-key").value.trim();
  store.set("key", state.key);
  const sessions = await loadSessions();
  $("key-status").textContent = sessions ? `✓ Key accepted · ${sessions.length} session${sessions.length === 1 ? "" : "s"}` : "✗ Key not accepted";
  $("key-status").className = sessions ? "ok" : "error";
});

$("ref-date").addEventListener("change", () => { if (validDate($("ref-date").value)) store.set("refDate", $("ref-date").value); });

$("new-session").addEventListener("submit", async (event) => {
  event.preventDefault();
  const date = $("ref-date").value;
  if (!validDate(date)) { showStatus("The reference date must be a date between 2000-01-01 and 2100-12-31.", "error"); $("ref-date").focus(); return; }
  store.set("refDate", date);
  try {
    const title = $("session-name").value.trim() || `Chat ${new Date().toLocaleString([], { dateStyle: "short", timeStyle: "short" })}`;
    const session = await (await api("/v1/sessions", { method: "POST", body: JSON.stringify({ reference_date: date, title }) })).json();
    $("session-name").value = "";
    await openSession(session);
    $("message").focus();
  } catch (e) { showStatus(e.message, "error"); }
});

function updateCount() {
  const n = $("message").value.length;
  $("char-count").textContent = `${n.toLocaleString()} / ${MAX_MESSAGE_CHARS.toLocaleString()}`;
  $("char-count").className = n > MAX_MESSAGE_CHARS * 0.9 ? "warn" : "";
}

function submitMessage() {
  const text = $("message").value.trim();
  if (!text || state.busy) return;
  if (text.length > MAX_MESSAGE_CHARS) {
    showStatus(`The message is ${text.length.toLocaleString()} characters long; the limit is ${MAX_MESSAGE_CHARS.toLocaleString()}. Shorten it and send again.`, "error");
    return;
  }
  if (!state.session) { showStatus("Create or select a session first (left column).", "error"); return; }
  $("message").value = "";
  updateCount();
  send(text);
}

$("composer").addEventListener("submit", (event) => { event.preventDefault(); submitMessage(); });
$("message").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) { event.preventDefault(); submitMessage(); }
});
$("message").addEventListener("input", updateCount);

async function start() {
  $("api-key").value = state.key;
  if (validDate(store.get("refDate"))) $("ref-date").value = store.get("refDate");
  if (!state.key) {
    $("sessions").appendChild(Object.assign(document.createElement("li"), { className: "hint", textContent: "Paste your API key above and press Use key." }));
    return;
  }
  const sessions = await loadSessions();
  const remembered = sessions && sessions.find((s) => s.id === store.get("session"));
  if (remembered) await openSession(remembered);
}
start();
