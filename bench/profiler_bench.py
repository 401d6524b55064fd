"""Profiler overhead: the same dialog turns with profiling on and off, through the real turn runner.

"On" is the service's normal mode: every LLM call, tool call (with its own database time), query
and graph stage is recorded, the wall-time split is swept and the call list stored with the turn.
"Off" switches recording off process-wide (assetops.profiling.set_profiling_enabled). Two warm-up
rounds fill the tool result cache and the model caches for both; then rounds alternate on/off
(ABBA order, fresh sessions each time) so machine drift hits both sides alike. It prints each
round's total and the overhead (see `report`); no assertion.

    python -m bench profiler
    python bench/profiler_bench.py --dialogs D6 D10 --rounds 4
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import delete, func, select

from assetops.db.tables import SessionRow, TelemetryRow
from assetops.profiling import set_profiling_enabled
from assetops.settings import Settings, get_settings
from bench.dialog_bench import DEFAULT_REFERENCE, DIALOGS

DEFAULT_DIALOGS = ["D6", "D9", "D10"]


async def _round(deps: Any, names: list[str], tag: str) -> tuple[list[float], list[str]]:
    """Seconds of each of the dialogs' turns (fresh sessions), and the session ids to remove."""
    from graph.runner import run_turn

    sessions, seconds = [], []
    for name in names:
        session_id = f"bench-prof-{tag}-{name}"
        sessions.append(session_id)
        for message in DIALOGS[name]:
            started = time.perf_counter()
            async for _ in run_turn(deps, session_id, message, reference_date=DEFAULT_REFERENCE):
                pass
            seconds.append(time.perf_counter() - started)
    return seconds, sessions


async def run_bench(settings: Settings, names: list[str], rounds: int) -> dict[str, list[list[float]]]:
    """Per round, each turn's seconds with profiling on and off (after discarded warm-up rounds)."""
    from graph.deps import open_deps

    results: dict[str, list[list[float]]] = {"on": [], "off": []}
    async with open_deps(settings, llm=False) as deps:
        async with deps.db.session() as session:
            if not await session.scalar(select(func.count()).select_from(TelemetryRow)):
                print("No telemetry in the configured database: run `assetops setup` first.")
                return results
        run_id, cleanup = uuid.uuid4().hex[:6], []
        try:
            for warm in range(2):
                _, ids = await _round(deps, names, f"{run_id}-warm{warm}")
                cleanup += ids
            order = [mode for i in range(rounds) for mode in (("on", "off") if i % 2 == 0 else ("off", "on"))]
            for i, mode in enumerate(order):
                set_profiling_enabled(mode == "on")
                seconds, ids = await _round(deps, names, f"{run_id}-{i}-{mode}")
                cleanup += ids
                results[mode].append(seconds)
                print(f"round {i // 2 + 1} profiling {mode:<3} {sum(seconds) * 1000:8.0f} ms", flush=True)
        finally:
            set_profiling_enabled(True)
            for session_id in cleanup:
                await deps.store.delete_session(session_id)
            async with deps.db.session() as session:
                await session.execute(delete(SessionRow).where(SessionRow.id.in_(cleanup)))
    return results


def report(results: dict[str, list[list[float]]], turns: int) -> float:
    """Print the overhead in percent and return it. The estimate sums each turn's fastest run per
    mode: on a shared machine other work only ever adds time, so the minimum is the least disturbed
    figure (the medians of the round totals are printed too)."""
    if not results["on"] or not results["off"]:
        return 0.0
    best = {mode: sum(min(run[i] for run in results[mode]) for i in range(turns)) for mode in ("on", "off")}
    medians = {mode: statistics.median(sum(run) for run in results[mode]) for mode in ("on", "off")}
    overhead = (best["on"] - best["off"]) / best["off"] * 100.0
    median_overhead = (medians["on"] - medians["off"]) / medians["off"] * 100.0
    print(f"\n{turns} turns per round, {len(results['on'])} rounds per mode. Sum of each turn's fastest run: "
          f"{best['on'] * 1000:.0f} ms with profiling, {best['off'] * 1000:.0f} ms without: overhead {overhead:+.1f}% "
          f"(target < 5%). Median round total: {medians['on'] * 1000:.0f} vs {medians['off'] * 1000:.0f} ms "
          f"({median_overhead:+.1f}%).")
    return overhead


def main(argv: list[str] | None = None) -> None:
    """Entry point of `python -m bench profiler` and of the script."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dialogs", nargs="*", default=DEFAULT_DIALOGS, help="Dialog names (bench/dialog_bench.py).")
    parser.add_argument("--rounds", type=int, default=5, help="Rounds per mode.")
    args = parser.parse_args(argv if argv is not None else [])
    unknown = [n for n in args.dialogs if n not in DIALOGS]
    if unknown:
        parser.error(f"unknown dialogs {unknown}; choose from {', '.join(DIALOGS)}")
    results = asyncio.run(run_bench(get_settings(), args.dialogs, args.rounds))
    report(results, sum(len(DIALOGS[n]) for n in args.dialogs))


if __name__ == "__main__":
    main(sys.argv[1:])
