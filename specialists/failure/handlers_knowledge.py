"""Failure actions backed by the FMSR knowledge tools: failure_modes, sensor_mapping.

The sensor mapping tool takes at most 5 failure modes and 10 sensors per call (contract hint), so a
larger request is split into chunks that run as one parallel batch and are merged back.
"""

from __future__ import annotations

from typing import Any

from artifacts.model import Artifact
from assetops.domain.catalog import FleetCatalog
from assetops.domain.turn import SpecialistTask
from specialists.base import SpecialistContext, SpecialistResult, ToolOutcome
from specialists.common.frames import full_name
from specialists.common.results import build_artifact, tool_errors
from specialists.common.telemetry_source import task_assets

MAX_MODES_PER_CALL = 5
MAX_SENSORS_PER_CALL = 10


def chunks(items: list[str], size: int) -> list[list[str]]:
    """Consecutive chunks of at most `size` items."""
    return [items[i : i + size] for i in range(0, len(items), size)] or [[]]


def mapping_calls(asset: str, modes: list[str], sensors: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """One get_failure_mode_sensor_mapping call per (<=5 modes) x (<=10 sensors) chunk."""
    return [
        ("fmsr.get_failure_mode_sensor_mapping", {"asset_name": asset, "failure_modes": m, "sensors": s})
        for m in chunks(modes, MAX_MODES_PER_CALL)
        for s in chunks(sensors, MAX_SENSORS_PER_CALL)
    ]


def merge_mappings(outputs: list[dict[str, Any]]) -> dict[str, Any]:
    """Merge chunked mapping outputs: relevance[mode][sensor] = bool, plus reasons and behaviours."""
    relevance: dict[str, dict[str, bool]] = {}
    details: dict[str, dict[str, dict[str, str]]] = {}
    for output in outputs:
        for row in output.get("full_relevancy", []):
            mode, sensor = str(row["failure_mode"]), str(row["sensor"])
            relevance.setdefault(mode, {})[sensor] = (
                str(row.get("relevancy_answer", "")).lower().startswith("yes")
            )
            details.setdefault(mode, {})[sensor] = {
                "reason": str(row.get("relevancy_reason", "")),
                "temporal_behavior": str(row.get("temporal_behavior", "")),
            }
    fm2sensor = {mode: [s for s, yes in sensors.items() if yes] for mode, sensors in relevance.items()}
    return {"relevance": relevance, "fm2sensor": fm2sensor, "details": details}


def _asset(task: SpecialistTask, catalog: FleetCatalog) -> str:
    assets = task_assets(task, catalog)
    return assets[0] if assets else str(task.params.get("asset_name", "Chiller"))


def _earlier(ctx: SpecialistContext, kind: str, asset: str) -> Artifact | None:
    own = [a for a in ctx.visible_artifacts if a.kind == kind and (asset in a.asset_ids or not a.asset_ids)]
    return max(own, key=lambda a: a.created_at) if own else None


async def known_failure_modes(
    ctx: SpecialistContext, asset: str
) -> tuple[list[str], Artifact | None, list[ToolOutcome]]:
    """The asset's failure modes: from an earlier artifact of the session, else from the tool."""
    earlier = _earlier(ctx, "failure_modes", asset)
    if earlier is not None:
        return list(earlier.results.get("failure_modes", [])), earlier, []
    outcome = await ctx.tools.run_one("fmsr.get_failure_modes", {"asset_name": asset}, specialist="failure")
    modes = list(outcome.output.get("failure_modes", [])) if outcome.ok else []
    return modes, None, [outcome]


async def failure_modes(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """The failure modes of the task's asset (curated for chillers)."""
    asset = _asset(task, ctx.catalog)
    modes, earlier, calls = await known_failure_modes(ctx, asset)
    if earlier is not None:
        return SpecialistResult(
            "failure", task.action, "ok", earlier.summary, reused_artifact_ids=[earlier.id]
        )
    if not modes:
        return SpecialistResult(
            "failure",
            task.action,
            "failed",
            f"No failure modes for {asset}.",
            errors=tool_errors(calls) or [f"no failure modes for {asset}"],
        )
    summary = f"{asset}: {len(modes)} failure modes: " + "; ".join(modes) + "."
    artifact = build_artifact(
        ctx,
        "failure",
        "failure_modes",
        asset_ids=[asset] if task_assets(task, ctx.catalog) else [],
        window=None,
        sensors=[],
        summary=summary,
        observations=modes,
        results={"failure_modes": modes, "asset_name": asset},
        calls=calls,
    )
    await ctx.store.put(artifact)
    return SpecialistResult("failure", task.action, "ok", summary, artifact_ids=[artifact.id])


def _covered(artifact: Artifact, modes: list[str], sensors: list[str]) -> bool:
    relevance = artifact.results.get("relevance", {})
    return all(mode in relevance and all(s in relevance[mode] for s in sensors) for mode in modes)


def _covering_mapping(ctx: SpecialistContext, asset: str, modes: list[str], sensors: list[str]) -> Artifact | None:
    """The newest mapping of the session that covers `modes` x `sensors` (a narrow one may be the newest)."""
    own = [a for a in ctx.visible_artifacts if a.kind == "sensor_mapping" and asset in a.asset_ids]
    return max((a for a in own if _covered(a, modes, sensors)), key=lambda a: a.created_at, default=None)


def _only(merged: dict[str, Any], modes: list[str], sensors: list[str]) -> dict[str, Any]:
    """A merged mapping cut down to `modes` x `sensors` (an earlier, wider mapping answers a narrow question)."""
    wanted = set(sensors)

    def cut(table: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        return {m: {s: v for s, v in table.get(m, {}).items() if s in wanted} for m in modes if m in table}

    relevance, details = cut(merged.get("relevance", {})), cut(merged.get("details", {}))
    fm2sensor = {mode: [s for s, yes in found.items() if yes] for mode, found in relevance.items()}
    return {"relevance": relevance, "fm2sensor": fm2sensor, "details": details}


def _reveal_lines(asset: str, merged: dict[str, Any]) -> list[str]:
    """"Purge Unit Excessive purge: Liquid Refrigerant Evaporator Temperature, ..." per mode."""
    return [
        f"{mode}: {', '.join(s.removeprefix(asset + ' ') for s in found) or 'no sensor'}"
        for mode, found in merged["fm2sensor"].items()
    ]


def _named_summary(asset: str, merged: dict[str, Any]) -> str:
    """"Chiller 6: sensors that reveal Purge Unit Excessive purge: ...": the answer to a question about named modes."""
    return f"{asset}: sensors that reveal " + "; ".join(_reveal_lines(asset, merged)) + "."


async def _store_mapping(
    ctx: SpecialistContext,
    asset: str,
    sensors: list[str],
    merged: dict[str, Any],
    calls: list[ToolOutcome],
    summary: str,
) -> Artifact:
    """Store a sensor-mapping artifact (one observation line per failure mode)."""
    artifact = build_artifact(
        ctx,
        "failure",
        "sensor_mapping",
        asset_ids=[asset],
        window=None,
        sensors=sensors,
        summary=summary,
        observations=_reveal_lines(asset, merged),
        results=merged,
        calls=calls,
    )
    await ctx.store.put(artifact)
    return artifact


async def sensor_mapping(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """Which sensors reveal which failure modes, with reasons; chunked calls run in one parallel batch.

    Named modes that an earlier, wider mapping already covers are answered from it (no tool call),
    as their own artifact: repeating the whole earlier mapping would not answer the question.
    """
    asset = _asset(task, ctx.catalog)
    named = list(task.params.get("failure_modes") or [])
    modes = list(named)
    calls: list[ToolOutcome] = []
    if not modes:
        modes, _, calls = await known_failure_modes(ctx, asset)
    sensors = [full_name(s, asset) for s in task.sensors] or [f"{asset} {s}" for s in ctx.catalog.sensors_of(asset)]
    earlier = _covering_mapping(ctx, asset, modes, sensors)
    if earlier is not None:
        if not named or set(earlier.results.get("relevance", {})) <= set(named):
            return SpecialistResult(
                "failure", task.action, "ok", earlier.summary, reused_artifact_ids=[earlier.id]
            )
        narrowed = _only(earlier.results, named, sensors)
        focused = await _store_mapping(ctx, asset, sensors, narrowed, [], _named_summary(asset, narrowed))
        return SpecialistResult("failure", task.action, "ok", focused.summary, artifact_ids=[focused.id])
    if not modes:
        return SpecialistResult(
            "failure",
            task.action,
            "failed",
            f"No failure modes known for {asset}.",
            errors=tool_errors(calls) or ["no failure modes"],
        )
    outcomes = await ctx.tools.run(mapping_calls(asset, modes, sensors), specialist="failure")
    merged = merge_mappings([o.output for o in outcomes if o.ok])
    if not merged["relevance"]:
        return SpecialistResult(
            "failure", task.action, "failed", "The sensor mapping tool failed.", errors=tool_errors(outcomes)
        )
    summary = _named_summary(asset, merged) if named else (
        f"{asset}: mapped {len(merged['relevance'])} failure modes to {len(sensors)} sensors ({len(outcomes)} call(s))."
    )
    artifact = await _store_mapping(ctx, asset, sensors, merged, [*calls, *outcomes], summary)
    errors = tool_errors(outcomes)
    return SpecialistResult(
        "failure",
        task.action,
        "partial" if errors else "ok",
        artifact.summary,
        artifact_ids=[artifact.id],
        errors=errors,
    )
