"""Several assets side by side over one window: efficiency, tonnage, load and power."""

from __future__ import annotations

from typing import Any

from artifacts.model import Artifact, new_artifact_id
from specialists.base import SpecialistContext
from specialists.common.frames import RUNNING_LOAD_PCT
from specialists.data.evidence import unit_of
from specialists.data.history import AssetHistory

METRICS = ("Chiller Efficiency", "Power Input", "Tonnage", "Chiller % Loaded")
SUMMARY_LINES = 3  # efficiency, power and tonnage: what "how did they stack up" is answered with
# For efficiency (kW/ton) lower is better; for the others the comparison is descriptive.
LOWER_IS_BETTER = {"Chiller Efficiency"}


def metric_table(histories: list[AssetHistory]) -> dict[str, dict[str, Any]]:
    """{asset: {metric: running mean (or mean), running_share}} from the assets' telemetry artifacts."""
    table: dict[str, dict[str, Any]] = {}
    for history in histories:
        if history.artifact is None:
            continue
        stats = history.artifact.results.get("stats") or {}
        row: dict[str, Any] = {"running_share": history.artifact.results.get("running_share")}
        for metric in METRICS:
            entry = stats.get(f"{history.asset_id} {metric}") or {}
            value = entry.get("running_mean") if entry.get("running_mean") is not None else entry.get("mean")
            row[metric] = value
        table[history.asset_id] = row
    return table


def metric_lines(table: dict[str, dict[str, Any]]) -> list[str]:
    """One line per metric: every asset's value, and which is better where that is meaningful."""
    lines = []
    assets = list(table)
    for metric in METRICS:
        values: dict[str, float] = {
            a: float(table[a][metric]) for a in assets if table[a].get(metric) is not None
        }
        if len(values) < 2:
            continue
        unit = unit_of(assets[0], metric)
        parts = ", ".join(f"{a} {v:,.2f}" for a, v in values.items())
        line = f"{metric} ({unit}, while running): {parts}"
        if metric in LOWER_IS_BETTER:
            best = min(values, key=lambda a: values[a])
            worst = max(values, key=lambda a: values[a])
            if values[worst] > 0:
                line += (
                    f"; {best} is {100 * (values[worst] - values[best]) / values[worst]:.0f}% more efficient"
                )
        lines.append(line + ".")
    shares = ", ".join(
        f"{a} {table[a]['running_share']:.0%}" for a in assets if table[a].get("running_share") is not None
    )
    if shares:
        lines.append(f"Share of time running: {shares}.")
    return lines


async def comparison_artifact(ctx: SpecialistContext, histories: list[AssetHistory]) -> Artifact:
    """The `asset_comparison` artifact over the assets' telemetry windows."""
    table = metric_table(histories)
    lines = metric_lines(table)
    usable = [h for h in histories if h.artifact is not None]
    first = usable[0].artifact
    assert first is not None
    artifact = Artifact(
        id=new_artifact_id("data"),
        producer="data",
        kind="asset_comparison",
        site=ctx.catalog.site,
        asset_ids=list(table),
        equipment_ids=ctx.catalog.equipment_ids_of(list(table)),
        window_start=first.window_start,
        window_end=first.window_end,
        sensors=[f"{a} {m}" for a in table for m in METRICS],
        observations=lines,
        results={"metrics": table, "sources": [h.artifact.id for h in usable if h.artifact]},
        assumptions=[f"Means are over running periods (load above {RUNNING_LOAD_PCT:.0f}%)."],
        summary=" ".join(lines[:SUMMARY_LINES]) or "No comparable metrics.",
        **ctx.new_artifact_fields(),
    )
    await ctx.store.put(artifact)
    return artifact
