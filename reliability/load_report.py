"""Figures of a load run (pure), and the check that every turn was stored in order with its artifacts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

OK_STATUSES = {"ok", "partial"}


@dataclass(frozen=True)
class TurnSample:
    """One turn as the client saw it, with the server's own timings."""

    session_id: str
    position: int
    latency_s: float
    status: str
    wall_ms: float
    tool_ms: float        # tool calls other than TTM inference (summed; parallel calls overlap)
    inference_ms: float   # TTM inference (tsfm.* tools) and LLM calls
    artifact_ids: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return self.status in OK_STATUSES

    @classmethod
    def of(cls, session_id: str, position: int, latency_s: float, reply: dict[str, Any]) -> TurnSample:
        """Read a REST reply (or the same shape rebuilt from websocket events)."""
        timings = reply.get("timings") or {}
        tsfm = sum(float(e["data"].get("latency_ms") or 0) for e in reply.get("events", [])
                   if e.get("type") == "tool_call_finished" and str(e["data"].get("name", "")).startswith("tsfm."))
        return cls(session_id, position, latency_s, str(reply.get("status")), float(timings.get("wall_ms") or 0),
                   max(0.0, float(timings.get("tool_ms") or 0) - tsfm), tsfm + float(timings.get("llm_ms") or 0),
                   tuple(str(a["id"]) for a in reply.get("artifacts", []) if a.get("id")))


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of `values` (0 when empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def report(samples: list[TurnSample], seconds: float, sessions: int, turns: int) -> str:
    """The run's figures as text: throughput, latency by turn position, errors, time split."""
    lines = [f"{len(samples)} turns of {sessions} sessions x {turns} in {seconds:.1f} s: "
             f"{len(samples) / seconds if seconds else 0:.2f} turns/s"]
    lines.append("position   n   p50 s   p95 s   p99 s")
    for position in range(1, turns + 1):
        lat = [s.latency_s for s in samples if s.position == position]
        lines.append(f"turn {position}   {len(lat):3d} {percentile(lat, 50):7.1f} {percentile(lat, 95):7.1f} "
                     f"{percentile(lat, 99):7.1f}")
    every = [s.latency_s for s in samples]
    lines.append(f"all      {len(every):3d} {percentile(every, 50):7.1f} {percentile(every, 95):7.1f} "
                 f"{percentile(every, 99):7.1f}")
    errors: dict[str, int] = {}
    for s in samples:
        if not s.ok:
            errors[s.status] = errors.get(s.status, 0) + 1
    lines.append(f"errors: {sum(errors.values())} {errors if errors else ''}".rstrip())
    client_s = sum(s.latency_s for s in samples)
    wall_s = sum(s.wall_ms for s in samples) / 1000
    tools_s = sum(s.tool_ms for s in samples) / 1000
    infer_s = sum(s.inference_ms for s in samples) / 1000
    if client_s:
        lines.append(f"time split over {client_s:.0f} turn-seconds seen by clients: model inference {infer_s / client_s:.0%}, "
                     f"other tools {tools_s / client_s:.0%} (tool sums overlap when calls run in parallel), waiting "
                     f"before/after the server ran the turn {max(0.0, client_s - wall_s) / client_s:.0%}, rest of the "
                     f"turn (routing, answer, storage) {max(0.0, wall_s - tools_s - infer_s) / client_s:.0%}")
    return "\n".join(lines)


def verify_sessions(url: str, key: str, sids: dict[str, list[str]], samples: list[TurnSample]) -> list[str]:
    """Problems with what was stored: every session's turns, in order, finished, with the artifacts the replies named."""
    problems: list[str] = []
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=url, headers=headers, timeout=60) as client:
        for sid, messages in sids.items():
            turns = client.get(f"/v1/sessions/{sid}").json().get("turns", [])
            if [t["user_message"] for t in turns] != messages or [t["index"] for t in turns] != list(range(1, len(messages) + 1)):
                problems.append(f"{sid}: stored turns {[(t['index'], t['user_message'][:20]) for t in turns]}")
            stuck = [t["index"] for t in turns if t["status"] == "running"]
            if stuck:
                problems.append(f"{sid}: turns {stuck} still running")
            stored = {a["id"] for a in client.get(f"/v1/sessions/{sid}/artifacts").json()}
            named = {a for s in samples if s.session_id == sid for a in s.artifact_ids}
            if named - stored:
                problems.append(f"{sid}: artifacts named in replies but not stored: {sorted(named - stored)[:3]}")
    return problems
