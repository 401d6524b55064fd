"""Dialog bench: the development dialogs (docs/DIALOGS.md) through the real turn runner, offline.

Per turn it records latency, tool calls executed vs answered from the session memo, and artifacts
created vs reused; then it prints first-turn vs follow-up latency, tool calls per turn and the
reuse rates. It runs on the configured database (the fleet loaded by `assetops setup`), in sessions
it removes afterwards, and prints figures only (no assertions).

    python -m bench dialog
    python bench/dialog_bench.py --dialogs D1 D10
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import uuid
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import delete, func, select

from assetops.db.tables import FaultEpisodeRow, SessionRow, TelemetryRow
from assetops.settings import Settings, get_settings

DEFAULT_REFERENCE = date(2021, 7, 1)
DIALOGS: dict[str, list[str]] = {
    "D1": ["Chiller 4 at MAIN has been drawing more power than usual this spring. What's going on?",
           "Which failure modes could explain that?", "Rank them using the other sensors.",
           "Draft a work order for the most likely one."],
    "D2": ["Compare how Chillers 3 and 4 performed in August 2020.", "Forecast both for the next two weeks.",
           "Which one needs attention first and why?"],
    "D3": ["Give me a summary of corrective maintenance on CWC04006 since 2018.",
           "Any of those that should have been done in one visit?", "What is likely to come next?"],
    "D4": ["We keep getting alerts on Chiller 3. Which rules fire and how often?",
           "Do any of them actually lead to maintenance?", "Suggest better thresholds."],
    "D5": ["Chiller 9 just tripped. Investigate.", "What happened before the trip?", "Cause?",
           "How do we restart safely, and how do we know it's fixed?"],
    "D6": ["What can you do?", "What data do you have on Chiller 6?", "And what models can I run on it?"],
    "D7": ["Fine-tune a forecaster for Chiller 3 tonnage on 2019 data.",
           "Use it to forecast the first week of 2020 and tell me how far off it was."],
    "D8": ["Are any Chiller 6 sensors unreliable over the last quarter?", "Is the supply temperature drift real?",
           "Plan the fix."],
    "D9": ["Check the chiller.", "The one we talked about.", "Show Chiller 99 data for 2035."],
    "D10": ["Review Chiller 9's last two months.", "Any anomalies or rule violations?", "Root cause and severity?",
            "Existing work orders for it?", "Summarise all of this for management."],
}


@dataclass
class TurnFigures:
    """What one turn cost and reused."""

    dialog: str
    index: int
    wall_ms: float
    executed: int
    reused_calls: int
    created: int
    reused_artifacts: int
    status: str


async def _trip_day(deps: Any) -> date:
    """The site-local day of a Chiller 9 trip that left a sensor offline (D5's reference date)."""
    async with deps.db.session() as session:
        rows = (await session.execute(select(FaultEpisodeRow).where(
            FaultEpisodeRow.asset_id == "Chiller 9", FaultEpisodeRow.fault_type == "trip"))).scalars().all()
    for row in sorted(rows, key=lambda r: r.onset):
        if (row.details or {}).get("offline_sensors"):
            return row.onset.astimezone(deps.catalog.zone).date()
    return DEFAULT_REFERENCE


async def _run_dialog(deps: Any, name: str, session_id: str, reference: date) -> list[TurnFigures]:
    from graph.runner import run_turn

    figures = []
    for index, message in enumerate(DIALOGS[name], start=1):
        events = [e async for e in run_turn(deps, session_id, message, reference_date=reference)]
        calls = [e.data for e in events if e.type == "tool_call_finished"]
        done = events[-1].data
        figures.append(TurnFigures(
            dialog=name, index=index, wall_ms=float(done.get("timings", {}).get("wall_ms", 0.0)),
            executed=sum(not c["reused"] for c in calls), reused_calls=sum(bool(c["reused"]) for c in calls),
            created=sum(e.type == "artifact_created" for e in events),
            reused_artifacts=sum(e.type == "artifact_reused" for e in events), status=str(done.get("status"))))
    return figures


async def _cleanup(deps: Any, session_ids: list[str]) -> None:
    for session_id in session_ids:
        await deps.store.delete_session(session_id)
    async with deps.db.session() as session:
        await session.execute(delete(SessionRow).where(SessionRow.id.in_(session_ids)))


async def run_bench(settings: Settings, names: list[str]) -> list[TurnFigures]:
    """Run the named dialogs (fresh sessions) and return per-turn figures."""
    from graph.deps import open_deps

    async with open_deps(settings, llm=False) as deps:
        async with deps.db.session() as session:
            rows = await session.scalar(select(func.count()).select_from(TelemetryRow))
        if not rows:
            print("No telemetry in the configured database: run `assetops setup` (or `assetops fleet load`) first.")
            return []
        run_id = uuid.uuid4().hex[:6]
        sessions, figures = [], []
        for name in names:
            reference = await _trip_day(deps) if name == "D5" else DEFAULT_REFERENCE
            session_id = f"bench-{run_id}-{name}"
            sessions.append(session_id)
            figures += await _run_dialog(deps, name, session_id, reference)
        await _cleanup(deps, sessions)
    return figures


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def report(figures: list[TurnFigures]) -> dict[str, float]:
    """Print the per-turn table and the summary; return the summary figures."""
    print(f"{'dialog':<7}{'turn':>5}{'ms':>10}{'exec':>6}{'memo':>6}{'new art':>9}{'reused':>8}  status")
    for f in figures:
        print(f"{f.dialog:<7}{f.index:>5}{f.wall_ms:>10.0f}{f.executed:>6}{f.reused_calls:>6}{f.created:>9}"
              f"{f.reused_artifacts:>8}  {f.status}")
    first = [f.wall_ms for f in figures if f.index == 1]
    follow = [f.wall_ms for f in figures if f.index > 1]
    calls = [f.executed + f.reused_calls for f in figures]
    follow_art = [f for f in figures if f.index > 1]
    created = sum(f.created for f in follow_art)
    reused = sum(f.reused_artifacts for f in follow_art)
    total_calls = sum(calls)
    summary = {
        "turns": float(len(figures)), "first_turn_ms_mean": _mean(first), "follow_up_ms_mean": _mean(follow),
        "first_over_follow_up": _mean(first) / _mean(follow) if follow and _mean(follow) else 0.0,
        "tool_calls_per_turn": _mean([float(c) for c in calls]),
        "tool_call_reuse_rate": sum(f.reused_calls for f in figures) / total_calls if total_calls else 0.0,
        "follow_up_artifact_reuse_rate": reused / (created + reused) if created + reused else 0.0,
    }
    print(f"\nturns {len(figures)}; first turn {summary['first_turn_ms_mean']:.0f} ms vs follow-up "
          f"{summary['follow_up_ms_mean']:.0f} ms (x{summary['first_over_follow_up']:.1f}); "
          f"{summary['tool_calls_per_turn']:.1f} tool calls per turn; tool-call reuse "
          f"{summary['tool_call_reuse_rate']:.0%}; follow-up artifact reuse {summary['follow_up_artifact_reuse_rate']:.0%}")
    return summary


def main(argv: list[str] | None = None) -> None:
    """Entry point of `python -m bench dialog` (all dialogs) and of the script (selected ones)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dialogs", nargs="*", default=list(DIALOGS), help="Dialog names, e.g. D1 D10.")
    args = parser.parse_args(argv if argv is not None else [])
    unknown = [n for n in args.dialogs if n not in DIALOGS]
    if unknown:
        parser.error(f"unknown dialogs {unknown}; choose from {', '.join(DIALOGS)}")
    report(asyncio.run(run_bench(get_settings(), args.dialogs)))


if __name__ == "__main__":
    main(sys.argv[1:])
