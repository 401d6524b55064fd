"""The evidence base: a telemetry window per asset, reused from the store whenever possible.

Per asset: an artifact that already covers the window (same asset, window inside, sensors
included) is reused as is or sliced locally (no tool call); otherwise the window is fetched with
`iot.history_csv` in chunks under the tool's 5000-row cap, all assets and chunks in one parallel
batch, merged, summarised with `utilities.csv_stats`, and written as a `telemetry_window` artifact.
"""

from __future__ import annotations

import asyncio
import copy
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd

from artifacts.matching import CoverageQuery, best_cover
from artifacts.model import Artifact, ArtifactToolCall, new_artifact_id
from assetops.domain.catalog import FleetCatalog
from specialists.base import SpecialistContext, ToolOutcome
from specialists.data import frames, shared_files
from specialists.data.evidence import TelemetryFacts, artifact_fields
from specialists.data.retry import run_with_retry

KIND = "telemetry_window"
_ASSET_PREFIX = re.compile(r"^Chiller \d+ (.+)$")


@dataclass
class AssetHistory:
    """The outcome for one asset: an artifact (new or reused) or an error message."""

    asset_id: str
    artifact: Artifact | None = None
    created: bool = False
    reused_id: str | None = None
    error: str | None = None
    calls: list[ToolOutcome] = field(default_factory=list)


def requested_sensors(asset_id: str, sensors: list[str], catalog: FleetCatalog) -> list[str]:
    """Full sensor names of `asset_id` for the requested ones (any asset's prefix or bare names)."""
    known = [f"{asset_id} {name}" for name in catalog.sensors_of(asset_id)]
    if not sensors:
        return known
    wanted = []
    for sensor in sensors:
        match = _ASSET_PREFIX.match(sensor)
        full = f"{asset_id} {match.group(1) if match else sensor}"
        if full not in wanted:
            wanted.append(full)
    return wanted


def _covers_sensors(artifact: Artifact, sensors: list[str]) -> bool:
    known_missing = set(artifact.results.get("sensors_without_data") or [])
    return set(sensors) <= set(artifact.sensors) | known_missing


async def find_reusable(ctx: SpecialistContext, asset_id: str, start: datetime, end: datetime,
                        sensors: list[str]) -> Artifact | None:
    """The tightest telemetry artifact of the session covering this asset, window and sensors."""
    query = CoverageQuery(session_id=ctx.session_id, asset_id=asset_id, start=start, end=end,
                          kinds=frozenset({KIND}))
    candidates = [a for a in await ctx.store.find_covering(query) if _covers_sensors(a, sensors)]
    return best_cover(candidates, query)


def _frame_facts(frame: pd.DataFrame, asset_id: str, end: datetime, requested: tuple[str, ...]) -> dict[str, Any]:
    """The facts that depend on the window's CSV alone (computed once per file, asset, end, sensors)."""
    columns = frames.sensor_columns(frame)
    available = [c for c in columns if frame[c].notna().any()]
    share, means = frames.running_means(frame, asset_id, available)
    ran, last = frames.last_running(frame, asset_id)
    return {"columns": columns, "rows": len(frame), "available": available, "last_running": ran, "last_sample": last,
            "stopped_at": frames.stopped_at(frame, asset_id),
            "trends": {c: frames.trend_per_day(frame, c) for c in available},
            # every sensor's presence, not only the requested ones': a later turn reusing this window asks
            # whether another reading went silent ("evap refrig temp still reading nothing?")
            "presence": frames.presence(frame, list(dict.fromkeys([*requested, *columns])), end),
            "running_share": share,
            "running_means": means}


def _facts(asset_id: str, start: datetime, end: datetime, csv_path: str, stats: dict[str, Any],
           requested: list[str], **extra: Any) -> TelemetryFacts:
    what = ("facts", asset_id, end, tuple(requested))
    facts = shared_files.derived(csv_path, what, lambda f: _frame_facts(f, asset_id, end, tuple(requested)))
    return TelemetryFacts(
        asset_id=asset_id, start=start, end=end, csv_path=csv_path, rows=facts["rows"], requested=requested,
        available=list(facts["available"]), stats={k: v for k, v in stats.items() if k in facts["columns"]},
        trends=dict(facts["trends"]), presence=copy.deepcopy(facts["presence"]),
        running_share=facts["running_share"], running_means=dict(facts["running_means"]),
        last_running=facts.get("last_running"), last_sample=facts.get("last_sample"),
        stopped_at=facts.get("stopped_at"), **extra)


def _new_artifact(ctx: SpecialistContext, facts: TelemetryFacts, calls: list[ToolOutcome]) -> Artifact:
    return Artifact(id=new_artifact_id("data"), producer="data", site=ctx.catalog.site,
                    equipment_ids=ctx.catalog.equipment_ids_of([facts.asset_id]),
                    tool_calls=[c.as_artifact_call() for c in calls], **artifact_fields(facts, ctx.catalog.zone),
                    **ctx.new_artifact_fields())


async def _slice(ctx: SpecialistContext, cover: Artifact, asset_id: str, start: datetime, end: datetime,
                 requested: list[str]) -> AssetHistory:
    """A narrower window cut from a covering artifact's CSV: no tool call at all."""
    from tools.utilities import summarise_csv

    source = Path(str(cover.data_ref))
    target = source.with_name(f"{source.stem}__{frames.tool_time(start)}_{frames.tool_time(end)}.csv".replace(":", ""))
    await asyncio.to_thread(frames.slice_history, source, start, end, target)
    stats = (await asyncio.to_thread(summarise_csv, target, None))["stats"]
    facts = await asyncio.to_thread(
        _facts, asset_id, start, end, str(target), stats, requested,
        assumptions=[f"Cut from {cover.id} (same asset, wider window); no new tool call."])
    artifact = _new_artifact(ctx, facts, [])
    artifact.tool_calls = [ArtifactToolCall(**c.model_dump()) for c in cover.tool_calls]
    artifact.results["cut_from"] = cover.id  # the wider window is its source, not evidence for what is asked
    await ctx.store.put(artifact)
    return AssetHistory(asset_id, artifact, created=True, reused_id=cover.id)


def _chunk_calls(site: str, asset_id: str, start: datetime, end: datetime) -> list[tuple[str, dict[str, Any]]]:
    return [("iot.history_csv", {"site_name": site, "asset_id": asset_id, "start": frames.tool_time(c.start),
                                 "final": frames.tool_time(c.end)}) for c in frames.split_window(start, end)]


async def _merged_path(asset_id: str, start: datetime, end: datetime, outcomes: list[ToolOutcome]) -> str:
    paths = [str(o.output["csv_path"]) for o in outcomes]
    if len(paths) == 1:
        return paths[0]
    first = Path(paths[0])
    name = f"{asset_id.replace(' ', '_')}_{frames.tool_time(start)}_{frames.tool_time(end)}_merged.csv"
    target = first.with_name(name.replace(":", ""))
    await shared_files.merge_once(paths, target)
    return str(target)


async def collect_histories(ctx: SpecialistContext, asset_ids: list[str], start: datetime, end: datetime,
                            sensors: list[str], *, specialist: str = "data") -> list[AssetHistory]:
    """The telemetry window of each asset: reused, sliced, or fetched (all fetches in parallel). The
    tool calls are `specialist`'s: another specialist fetching what it needs makes them itself."""
    results: dict[str, AssetHistory] = {}
    to_fetch: list[str] = []
    for asset_id in asset_ids:
        wanted = requested_sensors(asset_id, sensors, ctx.catalog)
        cover = await find_reusable(ctx, asset_id, start, end, wanted)
        if cover is None:
            to_fetch.append(asset_id)
        elif cover.window_start == start and cover.window_end == end:
            results[asset_id] = AssetHistory(asset_id, cover, reused_id=cover.id)
        else:
            results[asset_id] = await _slice(ctx, cover, asset_id, start, end, wanted)
    if to_fetch:
        for history in await _fetch(ctx, to_fetch, start, end, sensors, specialist):
            results[history.asset_id] = history
    return [results[a] for a in asset_ids]


async def _fetch(
    ctx: SpecialistContext, asset_ids: list[str], start: datetime, end: datetime, sensors: list[str], specialist: str
) -> list[AssetHistory]:
    plan = {a: _chunk_calls(ctx.catalog.site, a, start, end) for a in asset_ids}
    if ctx.llm is not None:
        from specialists.data.llm_calls import propose_history_calls

        plan = await propose_history_calls(
            ctx.llm, asset_ids, frames.tool_time(start), frames.tool_time(end), plan
        )
    calls = [call for a in asset_ids for call in plan[a]]
    outcomes, retried = await run_with_retry(ctx.tools, calls, specialist=specialist, catalog=ctx.catalog)
    histories, ready = [], []
    for (asset_id, calls_of), offset in zip(plan.items(), _offsets(plan), strict=True):
        mine = outcomes[offset : offset + len(calls_of)]
        good = [o for o in mine if o.ok]
        mine_retried = [r for r in retried if r.args.get("asset_id") == asset_id]
        if not good:
            failure = next(o for o in mine if not o.ok)
            histories.append(
                AssetHistory(asset_id, error=failure.error or failure.status, calls=[*mine_retried, *mine])
            )
            continue
        # Chunks without data are reported and the analysis continues on the rest of the window.
        gaps = gap_lines([o for o in mine if not o.ok])
        path = await _merged_path(asset_id, start, end, good)
        ready.append((asset_id, [*mine_retried, *mine], path, good, gaps))
    stats_outcomes, _ = await run_with_retry(
        ctx.tools, [("utilities.csv_stats", {"csv_path": item[2]}) for item in ready], specialist=specialist,
        catalog=ctx.catalog,
    )
    for (asset_id, made, path, good, gaps), stats in zip(ready, stats_outcomes, strict=True):
        histories.append(
            await _finish(ctx, asset_id, (start, end), sensors, path, good, [*made, stats], stats, gaps)
        )
    order = {a: i for i, a in enumerate(asset_ids)}
    return sorted(histories, key=lambda h: order[h.asset_id])


def gap_lines(failed: list[ToolOutcome]) -> list[str]:
    """One line per run of consecutive chunks without data, with what the store does cover."""
    runs: list[list[str]] = []
    for outcome in failed:
        start, final = str(outcome.args.get("start")), str(outcome.args.get("final"))
        if runs and runs[-1][1] == start:
            runs[-1][1] = final
        else:
            runs.append([start, final])
    error = str(failed[0].error or "") if failed else ""
    days = (
        re.findall(r"\d{4}-\d{2}-\d{2}", error.split("its data covers", 1)[1])
        if "its data covers" in error
        else []
    )
    covers = f"{days[0]} to {days[1]}" if len(days) >= 2 else ""
    detail = f" (the stored data covers {covers})" if covers else f" ({error[:120]})" if error else ""
    return [
        f"No telemetry from {a} to {b}{detail}; the statistics cover the rest of the window." for a, b in runs
    ]


def _offsets(plan: dict[str, list[Any]]) -> list[int]:
    offsets, total = [], 0
    for calls in plan.values():
        offsets.append(total)
        total += len(calls)
    return offsets


async def _finish(
    ctx: SpecialistContext,
    asset_id: str,
    window: tuple[datetime, datetime],
    sensors: list[str],
    path: str,
    fetched: list[ToolOutcome],
    calls: list[ToolOutcome],
    stats: ToolOutcome,
    gaps: list[str],
) -> AssetHistory:
    start, end = window
    stat_values = stats.output.get("stats", {}) if stats.ok and isinstance(stats.output, dict) else {}
    truncated = any(bool(o.output.get("truncated")) for o in fetched)
    assumptions = ["Times are site-local; trends are least-squares slopes per day."]
    if truncated:
        assumptions.append("A chunk hit the 5000-row cap; the tail of that chunk is missing.")
    if not stats.ok:
        assumptions.append(f"csv_stats failed ({stats.error}); statistics were computed locally.")
        from tools.utilities import summarise_csv

        stat_values = (await asyncio.to_thread(summarise_csv, Path(path), None))["stats"]
    facts = await asyncio.to_thread(
        _facts,
        asset_id,
        start,
        end,
        path,
        stat_values,
        requested_sensors(asset_id, sensors, ctx.catalog),
        chunks=len(fetched),
        truncated=truncated,
        assumptions=assumptions,
        window_gaps=gaps,
    )
    artifact = _new_artifact(ctx, facts, calls)
    await ctx.store.put(artifact)
    return AssetHistory(asset_id, artifact, created=True, calls=calls)
