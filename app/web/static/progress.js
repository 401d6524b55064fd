// A turn's progress folded into one live line per specialist (click a line for its tool calls).
// Events only update this model; the DOM is redrawn at most once per animation frame, so a turn
// with hundreds of tool calls does not make typing in the page lag.
"use strict";

function formatMs(ms) { return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`; }

class TurnProgress {
  constructor(container) {
    this.box = document.createElement("details");
    this.box.className = "progress-box";
    this.box.open = true;
    this.summary = document.createElement("summary");
    this.summary.textContent = "Working…";
    this.list = document.createElement("ul");
    this.list.className = "specialists";
    this.box.append(this.summary, this.list);
    container.appendChild(this.box);
    this.plan = "";
    this.specialists = new Map(); // name -> {goal, status, summary, calls: Map(call_id -> call), line}
    this.started = performance.now();
    this.errors = [];
    this.dirty = new Set();
    this.frame = null;
  }

  entry(name) {
    if (!this.specialists.has(name)) {
      const line = document.createElement("li");
      const details = document.createElement("details");
      const head = document.createElement("summary");
      const calls = document.createElement("ol");
      calls.className = "calls";
      details.append(head, calls);
      details.addEventListener("toggle", () => { if (details.open) this.drawCalls(name); });
      line.appendChild(details);
      this.list.appendChild(line);
      this.specialists.set(name, { goal: "", status: "running", summary: "", calls: new Map(), line, head, details, list: calls });
    }
    return this.specialists.get(name);
  }

  /** Fold one turn event into the model; returns true when the event was a progress event. */
  add(event) {
    const d = event.data || {};
    const who = event.specialist || d.specialist || "supervisor";
    switch (event.type) {
      case "supervisor_decision":
        this.plan = d.tasks && d.tasks.length ? d.tasks.map((t) => `${t.specialist}.${t.action}`).join(", ") : (d.kind || "");
        break;
      case "specialist_started": Object.assign(this.entry(who), { goal: d.goal || d.action || "", status: "running" }); break;
      case "specialist_finished": Object.assign(this.entry(who), { status: d.status || "ok", summary: d.summary || "" }); break;
      case "tool_call_started": this.entry(who).calls.set(d.call_id || d.name + Math.random(), { name: d.name, status: "running" }); break;
      case "tool_call_finished":
        this.entry(who).calls.set(d.call_id || d.name + Math.random(), {
          name: d.name, status: d.reused ? "reused" : d.status, ms: d.latency_ms, error: d.error });
        break;
      case "error": this.errors.push(d.message || "error"); break;
      default: return false;
    }
    this.dirty.add(who);
    this.schedule();
    return true;
  }

  schedule() {
    if (this.frame === null) this.frame = requestAnimationFrame(() => { this.frame = null; this.draw(); });
  }

  line(name, s) {
    const calls = [...s.calls.values()];
    const byName = new Map();
    for (const c of calls) byName.set(c.name, (byName.get(c.name) || 0) + 1);
    const names = [...byName].map(([n, k]) => (k > 1 ? `${n} ×${k}` : n)).join(", ");
    const running = calls.filter((c) => c.status === "running").length;
    const reused = calls.filter((c) => c.status === "reused").length;
    const failed = calls.filter((c) => c.status && !["ok", "running", "reused"].includes(c.status)).length;
    const icon = s.status === "running" ? "…" : s.status === "ok" ? "✓" : "✗";
    const parts = [`${icon} ${name}`, s.status === "running" ? s.goal : s.summary || s.goal];
    if (calls.length) parts.push(`${calls.length} tool call${calls.length > 1 ? "s" : ""}${running ? ` (${running} running)` : ""}`
      + `${reused ? `, ${reused} reused` : ""}${failed ? `, ${failed} failed` : ""}: ${names}`);
    return parts.filter(Boolean).join(" — ");
  }

  draw() {
    for (const name of this.dirty) {
      const s = this.specialists.get(name);
      if (!s) continue;
      s.head.textContent = this.line(name, s);
      s.line.className = s.status === "running" ? "run" : s.status === "ok" ? "ok" : "fail";
      if (s.details.open) this.drawCalls(name);
    }
    this.dirty.clear();
    const running = [...this.specialists.values()].filter((s) => s.status === "running").length;
    this.summary.textContent = `Working… ${running ? `${running} specialist${running > 1 ? "s" : ""} running` : ""}`
      + `${this.plan ? ` · plan: ${this.plan}` : ""} · ${formatMs(performance.now() - this.started)}`;
  }

  drawCalls(name) {
    const s = this.specialists.get(name);
    s.list.textContent = "";
    for (const c of s.calls.values()) {
      const li = document.createElement("li");
      li.className = c.status === "ok" || c.status === "reused" ? "ok" : c.status === "running" ? "run" : "fail";
      li.textContent = `${c.name} ${c.status}${c.ms != null && c.status !== "reused" ? " " + formatMs(c.ms) : ""}${c.error ? " — " + c.error : ""}`;
      s.list.appendChild(li);
    }
  }

  /** The turn is over: one summary line, collapsed (its specialists stay one click away). */
  finish(timings) {
    if (this.frame !== null) { cancelAnimationFrame(this.frame); this.frame = null; }
    this.draw();
    const calls = [...this.specialists.values()].reduce((n, s) => n + s.calls.size, 0);
    const reused = [...this.specialists.values()].reduce((n, s) => n + [...s.calls.values()].filter((c) => c.status === "reused").length, 0);
    const wall = timings && timings.wall_ms != null ? timings.wall_ms : performance.now() - this.started;
    const names = [...this.specialists.keys()].filter((n) => n !== "supervisor");
    this.summary.textContent = `How this was answered: ${names.length ? names.join(", ") : "no specialist"} · ${calls} tool call${calls === 1 ? "" : "s"}`
      + `${reused ? ` (${reused} reused)` : ""} · ${formatMs(wall)}${this.errors.length ? ` · ${this.errors.length} error(s)` : ""} (click for details)`;
    this.box.open = false;
  }
}
