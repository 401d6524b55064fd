"""Inventory (sites and assets) and sensor listings with data coverage."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from artifacts.model import Artifact, new_artifact_id
from fleet.model import EQUIPMENT_IDS, SITE
from graph.types import SpecialistTask
from specialists.base import SpecialistContext, SpecialistResult, ToolOutcome
from specialists.data.evidence import result_status
from specialists.data.retry import run_with_retry


def _calls(outcomes: list[ToolOutcome], retried: list[ToolOutcome]) -> list[Any]:
    return [o.as_artifact_call() for o in [*retried, *outcomes]]


async def inventory(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """Sites and the assets of the site (iot.sites and iot.assets in one parallel batch)."""
    site = str(task.params.get("site") or SITE)
    outcomes, retried = await run_with_retry(
        ctx.tools, [("iot.sites", {}), ("iot.assets", {"site_name": site})], specialist="data"
    )
    sites_out, assets_out = outcomes
    if not assets_out.ok:
        return SpecialistResult(
            "data",
            task.action,
            "failed",
            f"Could not list the assets of site {site}.",
            errors=[assets_out.error or assets_out.status],
        )
    sites = list(sites_out.output.get("sites", [])) if sites_out.ok else [site]
    assets = list(assets_out.output.get("assets", []))
    equipment = {a: EQUIPMENT_IDS.get(a, "") for a in assets}
    listing = ", ".join(f"{a} ({equipment[a]})" if equipment[a] else a for a in assets)
    artifact = Artifact(
        id=new_artifact_id("data"),
        producer="data",
        kind="inventory",
        site=site,
        asset_ids=assets,
        equipment_ids=[e for e in equipment.values() if e],
        tool_calls=_calls(outcomes, retried),
        observations=[
            f"Sites: {', '.join(sites)}.",
            f"{len(assets)} assets with telemetry at {site}: {listing}.",
        ],
        results={"sites": sites, "assets": assets, "equipment_ids": equipment},
        summary=f"Site {site} has {len(assets)} monitored chillers: {listing}.",
        **ctx.new_artifact_fields(),
    )
    await ctx.store.put(artifact)
    return SpecialistResult("data", task.action, "ok", artifact.summary, artifact_ids=[artifact.id])


def _coverage_text(asset_id: str, output: dict[str, Any]) -> str:
    coverage = output.get("coverage") or {}
    if coverage.get("first") and coverage.get("last"):
        return f"data from {coverage['first'][:10]} to {coverage['last'][:10]}"
    return ""


def _probe_args(asset_id: str, reference: date) -> dict[str, Any]:
    # The latest day before the reference date: cheap (96 rows) and tells whether data is current;
    # when the day is empty, the tool's message states the asset's full coverage.
    return {
        "site_name": SITE,
        "asset_id": asset_id,
        "start": (reference - timedelta(days=1)).isoformat(),
        "final": reference.isoformat(),
    }


def _probe_text(outcome: ToolOutcome) -> str:
    if outcome.ok:
        output = outcome.output
        last = output.get("last_timestamp") or (output.get("observations") or [{}])[-1].get("timestamp", "")
        return f"{output.get('total_observations', 0)} samples on the day before the reference date (latest {last})"
    return str(outcome.error or "no recent data")


async def sensors(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """Each asset's sensors (iot.sensors) and how far its data reaches, all assets in parallel."""
    assets = task.asset_ids
    if not assets:
        return SpecialistResult(
            "data",
            task.action,
            "failed",
            "Which asset? No asset was given.",
            errors=["no asset_ids in the task"],
        )
    calls = [("iot.sensors", {"site_name": SITE, "asset_id": a}) for a in assets]
    calls += [("iot.history", _probe_args(a, ctx.reference_date)) for a in assets]
    outcomes, retried = await run_with_retry(ctx.tools, calls, specialist="data")
    listed, probes = outcomes[: len(assets)], outcomes[len(assets) :]
    artifact_ids, errors, lines = [], [], []
    for asset_id, listing, probe in zip(assets, listed, probes, strict=True):
        if not listing.ok:
            errors.append(f"{asset_id}: {listing.error}")
            continue
        names = list(listing.output.get("sensors", []))
        coverage = _coverage_text(asset_id, listing.output) or _probe_text(probe)
        line = f"{asset_id} has {len(names)} sensors; {coverage}."
        lines.append(line)
        artifact = Artifact(
            id=new_artifact_id("data"),
            producer="data",
            kind="sensor_inventory",
            site=SITE,
            asset_ids=[asset_id],
            equipment_ids=[EQUIPMENT_IDS[asset_id]] if asset_id in EQUIPMENT_IDS else [],
            sensors=names,
            tool_calls=_calls([listing, probe], [r for r in retried if r.args.get("asset_id") == asset_id]),
            observations=[line, "Sensors: " + ", ".join(n.removeprefix(f"{asset_id} ") for n in names) + "."],
            results={"sensors": names, "units": listing.output.get("units", {}), "coverage": coverage},
            summary=line,
            **ctx.new_artifact_fields(),
        )
        await ctx.store.put(artifact)
        artifact_ids.append(artifact.id)
    status = result_status(errors, bool(artifact_ids))
    summary = " ".join(lines) or "No sensor listing could be obtained."
    return SpecialistResult("data", task.action, status, summary, artifact_ids=artifact_ids, errors=errors)
