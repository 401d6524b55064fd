"""Inventory (sites and assets) and sensor listings with data coverage."""

from __future__ import annotations

from typing import Any

from artifacts.model import Artifact, new_artifact_id
from assetops.domain.turn import SpecialistTask
from specialists.base import SpecialistContext, SpecialistResult, ToolOutcome
from specialists.data import coverage
from specialists.data.evidence import result_status
from specialists.data.retry import run_with_retry


def _calls(outcomes: list[ToolOutcome], retried: list[ToolOutcome]) -> list[Any]:
    return [o.as_artifact_call() for o in [*retried, *outcomes]]


async def inventory(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """Sites and the assets of the site (iot.sites and iot.assets in one parallel batch)."""
    site = str(task.params.get("site") or ctx.catalog.site)
    outcomes, retried = await run_with_retry(
        ctx.tools, [("iot.sites", {}), ("iot.assets", {"site_name": site})], specialist="data",
        catalog=ctx.catalog,
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
    equipment = {a: ctx.catalog.equipment_id_of(a) or "" for a in assets}
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


def _sensor_inventory(ctx: SpecialistContext, asset_id: str, listing: ToolOutcome,
                      span: coverage.Coverage) -> Artifact:
    """The `sensor_inventory` artifact: the sensors by name and the telemetry span, in one line."""
    names = list(listing.output.get("sensors", []))
    bare_names = ", ".join(n.removeprefix(f"{asset_id} ") for n in names)
    reach = coverage.coverage_text(span, ctx.reference_date)
    line = f"{asset_id} has {len(names)} sensors ({bare_names}); {reach}."
    return Artifact(
        id=new_artifact_id("data"),
        producer="data",
        kind="sensor_inventory",
        site=ctx.catalog.site,
        asset_ids=[asset_id],
        equipment_ids=ctx.catalog.equipment_ids_of([asset_id]),
        sensors=names,
        observations=[line],
        results={"sensors": names, "units": listing.output.get("units", {}), "coverage": span.as_dict()},
        assumptions=[] if span.samples_exact else [
            "Coverage from two iot.history probes (first samples; the day before the reference date); "
            "the sample count is estimated at the 15-minute grid."],
        summary=line,
        **ctx.new_artifact_fields(),
    )


async def sensors(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """Each asset's sensors (iot.sensors) and how far its data reaches (two iot.history probes),
    all assets in one parallel batch."""
    assets = task.asset_ids
    if not assets:
        return SpecialistResult(
            "data",
            task.action,
            "failed",
            "Which asset? No asset was given.",
            errors=["no asset_ids in the task"],
        )
    calls = [("iot.sensors", {"site_name": ctx.catalog.site, "asset_id": a}) for a in assets]
    for asset_id in assets:
        calls += coverage.probe_calls(asset_id, ctx.reference_date, ctx.catalog.site)
    outcomes, retried = await run_with_retry(ctx.tools, calls, specialist="data", catalog=ctx.catalog)
    listed, probes = outcomes[: len(assets)], outcomes[len(assets) :]
    artifact_ids, errors, lines = [], [], []
    for index, (asset_id, listing) in enumerate(zip(assets, listed, strict=True)):
        if not listing.ok:
            errors.append(f"{asset_id}: {listing.error}")
            continue
        first_probe, last_probe = probes[2 * index], probes[2 * index + 1]
        span = coverage.coverage_from_probes(first_probe, last_probe, ctx.reference_date, ctx.catalog.zone)
        artifact = _sensor_inventory(ctx, asset_id, listing, span)
        artifact.tool_calls = _calls([listing, first_probe, last_probe],
                                     [r for r in retried if r.args.get("asset_id") == asset_id])
        await ctx.store.put(artifact)
        artifact_ids.append(artifact.id)
        lines.append(artifact.summary)
    status = result_status(errors, bool(artifact_ids))
    summary = " ".join(lines) or "No sensor listing could be obtained."
    return SpecialistResult("data", task.action, status, summary, artifact_ids=artifact_ids, errors=errors)
