"""`ArtifactSummary`: what the planner may know about an earlier artifact, and the questions it asks of them.

The supervisor adapts its real artifacts into these; the planner only reads them, so it stays a
pure function of (message, focus, reference date, artifact summaries).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from artifacts.readings import running_mean
from assetops.domain.specialists import SpecialistId
from assetops.domain.turn import TimeWindow

_RULE_ID = re.compile(r"\bRUL\d{4}\b")
# Data artifacts that hold telemetry samples a later task can slice.
TELEMETRY_KINDS = frozenset({"history", "compare", "point_value"})
# Time-series artifacts that count as "this sensor has been analysed".
ANALYSIS_KINDS = frozenset({"anomaly_detection", "trend_stats", "load_bins", "forecast", "evaluate_forecast"})


@dataclass(frozen=True)
class ArtifactSummary:
    """One visible artifact: who made it (`producer`, `kind` = the action name), on what, and key results.

    `sensors` are full names ("Chiller 9 Supply Temperature"); an empty tuple on a telemetry
    artifact means every sensor of its assets. Known `key_results` keys the planner reads:
    "hypotheses" (ranked failure modes, strings or dicts with "failure_mode"), "rule_ids",
    "rules" (dicts with "rule_id"), "event_time" / "trip_time" (ISO), "model_checkpoint".
    """

    id: str
    producer: SpecialistId
    kind: str
    asset_ids: tuple[str, ...] = ()
    window: TimeWindow | None = None
    sensors: tuple[str, ...] = ()
    summary: str = ""
    key_results: Mapping[str, Any] = field(default_factory=dict)


def _inside(inner: TimeWindow, outer: TimeWindow | None) -> bool:
    return outer is not None and outer.start <= inner.start and inner.end <= outer.end


def _overlaps(left: TimeWindow | None, right: TimeWindow | None) -> bool:
    if left is None or right is None:
        return True
    return left.start < right.end and right.start < left.end


def uncovered_sensors(artifacts: Sequence[ArtifactSummary], asset: str, window: TimeWindow,
                      sensors: Iterable[str], *, exact: bool = False) -> list[str]:
    """Full sensor names of `asset` that no telemetry artifact holds over the whole `window` (with `exact`,
    over that very window: a wider one holds the samples but not the figures of the period asked)."""
    held: set[str] = set()
    for artifact in artifacts:
        if artifact.producer != "data" or artifact.kind not in TELEMETRY_KINDS:
            continue
        if asset not in artifact.asset_ids or not _inside(window, artifact.window):
            continue
        if exact and artifact.window is not None and (artifact.window.start, artifact.window.end) != (window.start, window.end):
            continue
        if not artifact.sensors:
            return []
        held.update(artifact.sensors)
    return [s for s in sensors if s not in held]


def analysed_sensors(artifacts: Sequence[ArtifactSummary], asset: str, window: TimeWindow | None) -> set[str]:
    """Full sensor names of `asset` a time-series analysis already covered in an overlapping window."""
    done: set[str] = set()
    for artifact in artifacts:
        if artifact.producer == "timeseries" and artifact.kind in ANALYSIS_KINDS and asset in artifact.asset_ids \
                and _overlaps(artifact.window, window):
            done.update(artifact.sensors)
    return done


def latest(artifacts: Sequence[ArtifactSummary], producer: str, kinds: Iterable[str],
           asset: str | None = None) -> ArtifactSummary | None:
    """The most recent artifact (list order is chronological) of `producer` and one of `kinds`."""
    wanted = set(kinds)
    for artifact in reversed(artifacts):
        if artifact.producer == producer and artifact.kind in wanted and (asset is None or asset in artifact.asset_ids):
            return artifact
    return None


def hypotheses_from(artifacts: Sequence[ArtifactSummary], assets: Sequence[str]) -> list[str]:
    """Ranked hypotheses of the latest diagnosis about one of `assets`, most likely first."""
    for asset in [*assets, None]:
        diagnosis = latest(artifacts, "failure", ("diagnose",), asset)
        if diagnosis is None:
            continue
        ranked = []
        for item in diagnosis.key_results.get("hypotheses", ()):
            name = item.get("failure_mode") or item.get("name") if isinstance(item, Mapping) else item
            if name:
                ranked.append(str(name))
        if ranked:
            return ranked
    return []


def rule_ids_from(artifacts: Sequence[ArtifactSummary], assets: Sequence[str]) -> list[str]:
    """Alert rule ids named by alert artifacts about `assets` (key results first, then the summary text)."""
    found: list[str] = []
    for artifact in artifacts:
        if artifact.producer != "maintenance" or artifact.kind != "alert_rules":
            continue
        if assets and not set(assets) & set(artifact.asset_ids):
            continue
        found.extend(str(r) for r in artifact.key_results.get("rule_ids", ()))
        found.extend(str(r["rule_id"]) for r in artifact.key_results.get("rules", ())
                     if isinstance(r, Mapping) and "rule_id" in r)
        found.extend(_RULE_ID.findall(artifact.summary))
    return list(dict.fromkeys(found))


def fired_rule_ids_from(artifacts: Sequence[ArtifactSummary], asset: str) -> list[str] | None:
    """Rule ids that fired on `asset` in the latest alert listing with counts (None: no such listing).

    "Do they lead to maintenance?" is asked of the rules that fired; a rule with no alert in the window
    has nothing to analyse."""
    for artifact in reversed(artifacts):
        if artifact.producer != "maintenance" or artifact.kind != "alert_rules" or asset not in artifact.asset_ids:
            continue
        rules = [r for r in artifact.key_results.get("rules", ()) if isinstance(r, Mapping) and "count" in r]
        if rules:
            return [str(r["rule_id"]) for r in rules if isinstance(r.get("count"), int) and r["count"] > 0]
    return None


def fired_rules_by_count(artifacts: Sequence[ArtifactSummary], assets: Sequence[str]) -> list[str]:
    """The rules that fired in the latest alert listing of `assets`, most alerts first (what "that same alarm"
    and "any of those" point at when no rule was named)."""
    for artifact in reversed(artifacts):
        if artifact.producer != "maintenance" or artifact.kind != "alert_rules" \
                or not set(assets) & set(artifact.asset_ids):
            continue
        rules = [r for r in artifact.key_results.get("rules", ()) if isinstance(r, Mapping)
                 and isinstance(r.get("count"), int) and r["count"] > 0 and "rule_id" in r]
        if rules:
            return [str(r["rule_id"]) for r in sorted(rules, key=lambda r: -int(r["count"]))]
    return []


def alert_totals(artifacts: Sequence[ArtifactSummary], assets: Sequence[str]) -> dict[str, int]:
    """Each asset's alert count in its latest alert listing with counts (assets without one left out): what "the
    one with the most alerts" is read from."""
    totals: dict[str, int] = {}
    for artifact in reversed(artifacts):
        if artifact.producer != "maintenance" or artifact.kind != "alert_rules" or len(artifact.asset_ids) != 1:
            continue
        asset = artifact.asset_ids[0]
        rules = [r for r in artifact.key_results.get("rules", ()) if isinstance(r, Mapping)]
        if asset in assets and asset not in totals and rules:
            totals[asset] = sum(int(r["count"]) for r in rules if isinstance(r.get("count"), int))
    return totals


def reading_means(artifacts: Sequence[ArtifactSummary], assets: Sequence[str], sensor: str) -> dict[str, float]:
    """Each asset's running mean of `sensor` (bare name) in its latest telemetry window holding it (assets without
    one left out): what "the one with the worst kW/ton" is read from."""
    means: dict[str, float] = {}
    for artifact in reversed(artifacts):
        if artifact.kind not in ("history", "telemetry_window") or len(artifact.asset_ids) != 1:
            continue
        asset = artifact.asset_ids[0]
        stats = artifact.key_results.get("stats")
        entry = stats.get(f"{asset} {sensor}") if isinstance(stats, Mapping) else None
        value = running_mean(entry) if isinstance(entry, Mapping) else None
        if asset in assets and asset not in means and isinstance(value, int | float) and value > 0:
            means[asset] = float(value)
    return means


def event_time_from(artifacts: Sequence[ArtifactSummary], *, stops: bool = False) -> datetime | None:
    """The time of the latest trip/event an artifact reported ("event_time" or "trip_time", ISO-8601). With
    `stops`, a telemetry window's stop counts too ("stopped_at": it sat off from then to the window's end), so
    "the hour before it dropped" after "is it still down?" reads back from that stop."""
    # (of the stops, only the latest in time: a year-earlier window read for comparison stops too)
    stops_seen = [t for a in artifacts if (t := _time_of(a.key_results.get("stopped_at"))) is not None]
    latest_stop = max(stops_seen) if stops and stops_seen else None
    for artifact in reversed(artifacts):
        for key in ("trip_time", "event_time"):
            found = _time_of(artifact.key_results.get(key))
            if found is not None:
                return found
        if latest_stop is not None and _time_of(artifact.key_results.get("stopped_at")) == latest_stop:
            return latest_stop
    return None


def _time_of(value: object) -> datetime | None:
    if isinstance(value, datetime):
        return value
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            return None
    return None


def drifting_sensors(artifacts: Sequence[ArtifactSummary], asset: str) -> list[str]:
    """Canonical sensors of `asset` the latest check judged to drift on their own (sensor, not process).

    A sensor-validity verdict wins over the sensor-health screen ("moved_alone" lines of trend stats,
    "Return Temperature moved +0.71 degF ...: sensor drift").
    """
    for artifact in reversed(artifacts):
        if asset not in artifact.asset_ids:
            continue
        if artifact.producer == "failure" and artifact.kind == "sensor_validity":
            verdicts = artifact.key_results.get("verdicts", ())
            return [str(v["sensor"]) for v in verdicts
                    if isinstance(v, Mapping) and v.get("verdict") == "sensor_drift" and v.get("sensor")]
        if artifact.producer == "timeseries" and artifact.kind == "trend_stats":
            lines = artifact.key_results.get("moved_alone", ())
            found = [line.split(" moved ", 1)[0] for line in lines
                     if isinstance(line, str) and " moved " in line and line.rstrip(".").endswith("sensor drift")]
            if found:
                return found
    return []


def ranked_assets(artifacts: Sequence[ArtifactSummary], assets: Sequence[str]) -> list[str]:
    """`assets` most-in-need first: the latest priority ranking over them, else their anomaly shares.

    What "that one" / "the worst one" means after a whole-site look; empty when nothing ranks them.
    """
    wanted = set(assets)
    for artifact in reversed(artifacts):
        ranking = artifact.key_results.get("ranking") if artifact.kind == "prioritize" else None
        if isinstance(ranking, list):
            order = [str(row.get("asset_id")) for row in ranking if isinstance(row, dict)]
            if wanted <= set(order):
                return [a for a in order if a in wanted]
    shares: dict[str, float] = {}
    for artifact in artifacts:
        rate = artifact.key_results.get("anomaly_rate")
        if artifact.producer == "timeseries" and isinstance(rate, int | float):
            for asset in artifact.asset_ids:
                if asset in wanted:
                    shares[asset] = max(shares.get(asset, 0.0), float(rate))
    if len(shares) < len(wanted) or len(set(shares.values())) < 2:
        return []
    return sorted(shares, key=lambda a: (-shares[a], a))
