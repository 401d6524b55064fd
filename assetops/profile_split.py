"""Where a turn's wall time went, measured: every instant of the turn is given to one category.

The profile records intervals (LLM calls, tool calls, database queries, and the graph's own stages:
the supervisor's routing, the specialists' dispatch, the answer). They overlap: a query runs inside
a tool call, an LLM call inside the routing stage, tool calls run in parallel. A sweep over the
interval boundaries gives each instant to the most specific category running then (LLM, then
tools, then database, then the stage), so the parts add up to the wall time and nothing is
inferred as "whatever is left": the remainder is the time no recorded interval covers (`other`:
graph bookkeeping, checkpoints, the turn record).
"""

from __future__ import annotations

from typing import Any

from assetops.profiling import Profile

# Most specific first: an instant covered by several intervals counts for the first of these.
CATEGORIES = ("llm", "tools", "db", "routing", "specialists", "answer")
STAGE_CATEGORY = {"supervisor": "routing", "dispatch": "specialists", "respond": "answer"}


def intervals(profile: Profile) -> list[tuple[float, float, str]]:
    """(start, end, category) in perf_counter seconds for everything the profile timed."""
    out = [(c.started_at, c.started_at + c.latency_ms / 1000.0, "llm") for c in profile.llm_calls if c.started_at]
    out += [(t.started_at, t.finished_at, "tools") for t in profile.tool_calls]  # cache hits take time too
    out += [(q.started_at, q.started_at + q.latency_ms / 1000.0, "db") for q in profile.queries if q.started_at]
    out += [(s.started_at, s.finished_at, STAGE_CATEGORY.get(s.name, s.name)) for s in profile.stages]
    return out


def split_wall(spans: list[tuple[float, float, str]], start: float, end: float) -> dict[str, float]:
    """Milliseconds of [start, end] per category (CATEGORIES + `other`); the values sum to the wall time."""
    rank = {name: i for i, name in enumerate(CATEGORIES)}
    events: list[tuple[float, int, int]] = []
    for s, e, category in spans:
        s, e = max(s, start), min(e, end)
        if e > s and category in rank:
            events += [(s, 1, rank[category]), (e, -1, rank[category])]
    events.sort()
    active = [0] * len(CATEGORIES)
    totals = [0.0] * (len(CATEGORIES) + 1)  # last slot: other
    cursor = start
    for moment, delta, index in events:
        if moment > cursor:
            winner = next((i for i, n in enumerate(active) if n > 0), len(CATEGORIES))
            totals[winner] += moment - cursor
            cursor = moment
        active[index] += delta
    totals[-1] += max(end - cursor, 0.0)
    names = (*CATEGORIES, "other")
    return {name: round(seconds * 1000.0, 3) for name, seconds in zip(names, totals, strict=True)}


def call_rows(profile: Profile, start: float) -> list[dict[str, Any]]:
    """The turn's tool calls for the drill-down: offset from the turn start, latency, db time, reuse."""
    return [{"name": f"{t.server}.{t.tool}", "specialist": t.specialist, "status": t.status, "reused": t.reused,
             "start_ms": round((t.started_at - start) * 1000.0, 1), "latency_ms": round(t.latency_ms, 1),
             "db_ms": round(t.db_ms, 1), "db_queries": t.db_queries, "rows": t.rows}
            for t in sorted(profile.tool_calls, key=lambda t: t.started_at)]


def turn_profile(profile: Profile, start: float, end: float) -> dict[str, Any]:
    """What the turn stores next to its totals: the measured split and the call list."""
    return {"split_ms": split_wall(intervals(profile), start, end), "calls": call_rows(profile, start)}
