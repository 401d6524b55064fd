"""Failure actions that reason over the session's evidence: diagnose, sensor_validity.

No tool calls: the telemetry window (from the data specialist), anomaly results (timeseries) and the
sensor-mapping knowledge (sensor_mapping) already in the session are the evidence; the pure modules
evidence / scoring / validity / reasoning do the work.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

import pandas as pd

from artifacts.model import Artifact
from assetops.domain.turn import SpecialistTask, TimeWindow
from specialists.base import SpecialistContext, SpecialistResult
from specialists.common.evidence import TEMPERATURE_SENSORS, Evidence, build_evidence, trip_time
from specialists.common.frames import full_name, running_mask, short_name
from specialists.common.results import build_artifact, no_telemetry
from specialists.common.telemetry_source import Telemetry, fetch_telemetry, obtain_telemetry, task_assets
from specialists.common.validity import SUSPECT_Z, sensor_validity, suspect_sensors
from specialists.common.windows import Window, recent_against_weeks_before, split_by_running
from specialists.failure.reasoning import discriminating_measurement, headline, revise
from specialists.failure.scoring import TEMPERATURE, Hypothesis, rank_hypotheses
from specialists.failure.signatures import NO_FAULT

SHORT_DIAGNOSIS_DAYS = 7  # a window shorter than this is widened for diagnosis
# The months before a short window: room for the last running week (an idle lag machine ran weeks
# earlier), a six-week gap and a four-week baseline, stretched back when the chiller was idle then.
WIDENED_DAYS = 120

CALIBRATION_NOTE = (
    f"Confidence = softmax of evidence scores (temperature {TEMPERATURE}), range widened by unmeasured "
    "and conflicting evidence; validated on generated fault episodes by bench/diagnosis_bench.py."
)


@dataclass
class EvidenceBundle:
    """The evidence for one asset and where it came from."""

    telemetry: Telemetry
    evidence: Evidence
    baseline: Window
    recent: Window
    reference_id: str | None = None  # telemetry of the same weeks a year earlier, when that was the baseline
    asked: Window | None = None  # the asked window, when it was short and widened


def _stamp(value: Any) -> pd.Timestamp:
    stamp = pd.Timestamp(value)
    return stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp.tz_convert("UTC")


def _windows(task: SpecialistTask, telemetry: Telemetry, asked: TimeWindow,
             weeks_before: bool | None = None) -> tuple[Window, Window] | None:
    """Baseline/recent from params ({"baseline": [start, end]}), else by the asked window's length.

    A long asked window holds its own history: thirds of its running samples. A short one (a day,
    "around DATE"), or one the chiller hardly ran in (`weeks_before`), is too short to split: its last
    running week against the weeks well before it (recent_against_weeks_before), from the telemetry
    widened back by `_widened`.
    """
    start, end = _stamp(telemetry.window.start), _stamp(telemetry.window.end)
    if task.params.get("baseline"):
        b_start, b_end = (_stamp(v) for v in task.params["baseline"])
        return (b_start, b_end), (max(b_end, start), end)
    running = telemetry.frame.index[running_mask(telemetry.frame).to_numpy()]
    weeks = (
        recent_against_weeks_before(running, end, lookback_days=(end - start).total_seconds() / 86400)
        if (asked.end - asked.start < timedelta(days=SHORT_DIAGNOSIS_DAYS) if weeks_before is None else weeks_before)
        else None
    )
    # A long window, or a short one that could not be widened, splits; with little running (winter,
    # the last day before a trip) in halves with a smaller minimum.
    return (
        weeks
        or split_by_running(running, start, end)
        or split_by_running(running, start, end, 0.5, min_running=24)
    )


def _anomaly_rates(artifacts: list[Artifact], asset_id: str) -> dict[str, float]:
    rates: dict[str, float] = {}
    for artifact in artifacts:
        if artifact.kind == "anomaly_detection" and asset_id in artifact.asset_ids:
            for sensor, item in artifact.results.get("per_sensor", {}).items():
                rates[short_name(sensor, asset_id)] = float(item.get("rate", 0.0))
    return rates


def _relevance(artifacts: list[Artifact], asset_id: str) -> dict[str, dict[str, bool]]:
    merged: dict[str, dict[str, bool]] = {}
    for artifact in artifacts:
        if artifact.kind == "sensor_mapping" and asset_id in artifact.asset_ids:
            for mode, sensors in artifact.results.get("relevance", {}).items():
                merged.setdefault(mode, {}).update(
                    {short_name(s, asset_id): bool(v) for s, v in sensors.items()}
                )
    return merged


async def gather_evidence(task: SpecialistTask, ctx: SpecialistContext) -> EvidenceBundle | SpecialistResult:
    """Evidence for the task's first asset, or the result explaining what is missing."""
    assets = task_assets(task, ctx.catalog)
    if not assets:
        return SpecialistResult(
            "failure",
            task.action,
            "failed",
            "Which chiller? The request names none.",
            errors=["no asset in the task"],
        )
    asset_id = assets[0]
    asked, problem = await obtain_telemetry(ctx, "failure", asset_id, task.window, [], why="diagnosis")
    if asked is None:
        return no_telemetry("failure", task, [problem or f"no telemetry of {asset_id} for diagnosis"])
    artifact = asked.artifact
    telemetry, widened_note = await _widened(ctx, asked)
    windows = _windows(task, telemetry, asked.window)
    if windows is None and widened_note is None:  # it hardly ran: its last running weeks before the end
        telemetry, widened_note = await _widened(ctx, asked, idle=True)
        windows = _windows(task, telemetry, asked.window, weeks_before=True) if widened_note else None
    if windows is None:
        looked = (f" nor in the {WIDENED_DAYS} days before it" if asked.window.end - asked.window.start
                  < timedelta(days=WIDENED_DAYS) else "")
        return SpecialistResult(
            "failure",
            task.action,
            "failed",
            f"{asset_id} ran too little in the window{looked} to compare a baseline with recent behaviour.",
            errors=["too few running samples"],
            reused_artifact_ids=[artifact.id],
        )
    baseline, recent = windows
    evidence = await asyncio.to_thread(
        build_evidence, telemetry.frame, asset_id, baseline=baseline, recent=recent
    )
    if evidence.trip_at is None and task.params.get("event") == "trip":
        # "did it trip last month?", "has it ever tripped?": the stop asked about may lie anywhere in the asked
        # window, not only in the recent part the shifts are measured on
        asked_start, asked_end = _stamp(asked.window.start), _stamp(asked.window.end)
        frame = telemetry.frame
        evidence.trip_at = await asyncio.to_thread(
            trip_time, frame[(frame.index >= asked_start) & (frame.index < asked_end)])
    evidence.anomaly_rates = _anomaly_rates(ctx.visible_artifacts, asset_id)
    evidence.relevance = _relevance(ctx.visible_artifacts, asset_id)
    if widened_note:
        evidence.notes.append(widened_note)
    short = asked.window.end - asked.window.start < timedelta(days=SHORT_DIAGNOSIS_DAYS)
    day = (_stamp(asked.window.start), _stamp(asked.window.end)) if short and widened_note else None
    return EvidenceBundle(telemetry, evidence, baseline, recent, asked=day)


async def _widened(ctx: SpecialistContext, telemetry: Telemetry, *, idle: bool = False) -> tuple[Telemetry, str | None]:
    """A window of a few days (the day of a trip), or one the chiller hardly ran in (`idle`), widened
    back to WIDENED_DAYS ending at its end.

    A slow fault (compressor overheating over three weeks, fouling) is invisible inside the day it
    ends in: the day's first hours already carry it. Comparing the weeks well before with the last
    running days shows it, and an idle chiller's last running days may lie weeks back. The telemetry
    is reused or fetched (telemetry_source.fetch_telemetry, no LLM); when that fails the asked window
    is used as it is.
    """
    window = telemetry.window
    length = window.end - window.start
    if length >= timedelta(days=WIDENED_DAYS if idle else SHORT_DIAGNOSIS_DAYS):
        return telemetry, None
    wider = TimeWindow(window.end - timedelta(days=WIDENED_DAYS), window.end, f"{WIDENED_DAYS} days before")
    found, _ = await fetch_telemetry(ctx, "failure", [telemetry.asset_id], wider, [], why="diagnosis context")
    if not found:
        return telemetry, None
    longer = found[0]
    if not running_mask(longer.frame).any():
        return telemetry, None
    asked = f"{window.start:%Y-%m-%d}..{window.end:%Y-%m-%d}"
    why = (f"the chiller hardly ran in the asked {asked}" if idle else
           f"the asked {asked} is too short to separate a developing fault from normal behaviour")
    return longer, (
        f"Window widened to the {WIDENED_DAYS} days before {window.end:%Y-%m-%d %H:%M} "
        f"({longer.artifact.id}): {why}; its last running week is compared with the weeks six weeks before."
    )


MIN_DAY_RUNNING = 24  # six running hours: enough for the asked day alone to be compared


async def day_evidence(bundle: EvidenceBundle) -> EvidenceBundle | None:
    """The asked day alone against the same baseline: a sudden fault on that day (a step loss of
    condenser flow) is a small part of the last running week and vanishes in its medians.

    None when the day was not widened, is already the whole recent window, or ran too little.
    """
    if bundle.asked is None or bundle.recent[0] >= bundle.asked[0]:
        return None
    frame = bundle.telemetry.frame
    inside = (frame.index >= bundle.asked[0]) & (frame.index < bundle.asked[1])
    if int((running_mask(frame).to_numpy() & inside).sum()) < MIN_DAY_RUNNING:
        return None
    evidence = await asyncio.to_thread(
        build_evidence, frame, bundle.telemetry.asset_id, baseline=bundle.baseline, recent=bundle.asked
    )
    evidence.anomaly_rates, evidence.relevance = bundle.evidence.anomaly_rates, bundle.evidence.relevance
    evidence.notes = [*bundle.evidence.notes, "Recent = the asked day alone: the last running week showed no fault."]
    return replace(bundle, evidence=evidence, recent=bundle.asked)


async def reference_evidence(ctx: SpecialistContext, bundle: EvidenceBundle) -> EvidenceBundle | None:
    """The recent part of the window against the same weeks one year earlier.

    Within-window comparison cannot see a fault that was already fully developed when the window
    began ("more power than usual this spring"). The same calendar weeks a year earlier share the
    weather, so they are the usual behaviour to compare with. Their telemetry is taken from the
    session or fetched (telemetry_source.fetch_telemetry: reuse first, no LLM).
    """
    asset_id, window = bundle.telemetry.asset_id, bundle.telemetry.window
    year = pd.DateOffset(years=1)
    # From the baseline's start: the weeks compared, not the whole widened look-back.
    first = max(_stamp(window.start), _stamp(bundle.baseline[0]))
    reference = TimeWindow(
        (first - year).to_pydatetime(),
        (pd.Timestamp(window.end) - year).to_pydatetime(),
        "same weeks a year earlier",
    )
    found, _ = await fetch_telemetry(ctx, "failure", [asset_id], reference, [], why="a year-on-year baseline")
    if not found:
        return None
    earlier = found[0]
    frame = pd.concat([earlier.frame, bundle.telemetry.frame]).sort_index()
    frame = frame[~frame.index.duplicated(keep="last")]
    baseline = (_stamp(reference.start), _stamp(reference.end))
    evidence = await asyncio.to_thread(
        build_evidence, frame, asset_id, baseline=baseline, recent=bundle.recent
    )
    evidence.anomaly_rates, evidence.relevance = bundle.evidence.anomaly_rates, bundle.evidence.relevance
    evidence.notes.append(
        f"Baseline: the same weeks a year earlier ({reference.start:%Y-%m-%d} to "
        f"{reference.end:%Y-%m-%d}, {earlier.artifact.id})."
    )
    return EvidenceBundle(
        bundle.telemetry, evidence, baseline, bundle.recent, reference_id=earlier.artifact.id
    )


def _better(ranking: list[Hypothesis], alternative: list[Hypothesis]) -> bool:
    """Prefer the year-on-year comparison when it names a fault and the in-window one found none."""
    return ranking[0].failure_mode == NO_FAULT and alternative[0].failure_mode != NO_FAULT


def _previous(ctx: SpecialistContext, asset_id: str) -> Artifact | None:
    own = [a for a in ctx.visible_artifacts if a.kind == "diagnose" and asset_id in a.asset_ids]
    return max(own, key=lambda a: a.created_at) if own else None


async def diagnose(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """Ranked failure-mode hypotheses with confidence ranges, evidence for/against, the discriminating
    measurement, and what changed against the session's previous diagnosis of the asset."""
    bundle = await gather_evidence(task, ctx)
    if isinstance(bundle, SpecialistResult):
        return bundle
    # Every failure mode is ranked, also when the user listed some: the cause may lie outside the list.
    ranking = rank_hypotheses(bundle.evidence)
    if ranking[0].failure_mode == NO_FAULT:
        day = await day_evidence(bundle)
        if day is not None and _better(ranking, alternative := rank_hypotheses(day.evidence)):
            bundle, ranking = day, alternative
    if ranking[0].failure_mode == NO_FAULT and task.params.get("year_on_year", True):
        yearly = await reference_evidence(ctx, bundle)
        if yearly is not None and _better(ranking, alternative := rank_hypotheses(yearly.evidence)):
            bundle, ranking = yearly, alternative
    asset_id, evidence = bundle.telemetry.asset_id, bundle.evidence
    named = [str(m) for m in task.params.get("failure_modes") or []]
    outside = (
        [f"The leading cause is not among the listed failure modes: {ranking[0].failure_mode}."]
        if (named and ranking[0].failure_mode not in named and ranking[0].failure_mode != NO_FAULT)
        else []
    )
    previous = _previous(ctx, asset_id)
    changes = revise(previous.results.get("hypotheses", []) if previous else [], ranking)
    discriminator = discriminating_measurement(ranking[0], ranking[1], evidence) if len(ranking) > 1 else ""
    lines = [
        f"{h.failure_mode}: {h.low:.2f}-{h.high:.2f}; for: {'; '.join(h.evidence_for[:3]) or '-'}; "
        f"against: {'; '.join(h.evidence_against[:2]) or '-'}"
        for h in ranking[:3]
    ]
    summary = (
        f"{asset_id}: most likely {headline(ranking)}."
        + _event_line(evidence, bundle.telemetry.window)
        + f" {discriminator}"
        + (f" Changed: {changes[0]}" if changes else "")
    )
    artifact = build_artifact(
        ctx,
        "failure",
        "diagnose",
        asset_ids=[asset_id],
        window=bundle.telemetry.window,
        sensors=[full_name(s, asset_id) for s in evidence.shifts if s in bundle.telemetry.frame.columns],
        summary=summary,
        observations=[*lines, discriminator, *outside, *changes, *evidence.notes],
        results={
            "hypotheses": [h.as_dict() for h in ranking[:6]],
            "evidence": evidence.as_dict(),
            "discriminator": discriminator,
            "changes": changes,
            "previous_hypotheses_id": previous.id if previous else None,
            # site time, as every time an answer quotes (the evidence keeps the stored UTC instant)
            "trip_time": (pd.Timestamp(evidence.trip_at).tz_convert(bundle.telemetry.window.end.tzinfo).isoformat()
                          if evidence.trip_at else None),
            "offline_sensors": evidence.offline_sensors,
            "calibration": CALIBRATION_NOTE,
            "baseline": [str(t) for t in bundle.baseline],
            "recent": [str(t) for t in bundle.recent],
            "source": bundle.telemetry.artifact.id,
            "reference_source": bundle.reference_id,
        },
        confidence=round(ranking[0].probability, 3),
        assumptions=[
            "Baseline = first third of the running samples, recent = last third (unless given); for a "
            "window of a few days: its last running week against the four weeks ending six weeks earlier.",
            CALIBRATION_NOTE,
        ],
    )
    await ctx.store.put(artifact)
    reused = [bundle.telemetry.artifact.id] + ([previous.id] if previous else [])
    reused += [bundle.reference_id] if bundle.reference_id else []
    return SpecialistResult(
        "failure", task.action, "ok", summary, artifact_ids=[artifact.id], reused_artifact_ids=reused
    )


def _event_line(evidence: Evidence, window: TimeWindow) -> str:
    """The trip and the sensors that died with it, in site time: the facts a root cause must explain."""
    parts = []
    if evidence.trip_at:
        local = pd.Timestamp(evidence.trip_at).tz_convert(window.end.tzinfo)
        parts.append(f"it stopped abruptly at {local:%Y-%m-%d %H:%M} site time")
    if evidence.offline_sensors:
        parts.append(f"{', '.join(evidence.offline_sensors)} stopped reporting")
    return f" Event: {'; '.join(parts)}." if parts else ""


def _suspects(task: SpecialistTask, evidence: Evidence) -> tuple[list[str], list[str]]:
    """The sensors to judge and notes on named sensors that cannot be judged.

    Drift is judged on temperatures (their physically coupled signals vouch for a real change).
    Names carried over from an earlier question (% Loaded, Efficiency) are not sensors that drift
    alone in that sense: then the temperatures that moved on their own are judged, else the two
    that moved most.
    """
    named = [short_name(s, evidence.asset_id) for s in task.sensors]
    judgeable = [s for s in named if s in TEMPERATURE_SENSORS]
    skipped = [s for s in named if s not in judgeable]
    notes = (
        [
            f"Not judged for sensor drift ({', '.join(skipped)}): only temperatures have coupled signals to check against."
        ]
        if skipped
        else []
    )
    if judgeable:
        return judgeable, notes
    drifting = [v.sensor for v in suspect_sensors(evidence, min_z=SUSPECT_Z)]
    measured = [s for s in TEMPERATURE_SENSORS if s in evidence.shifts]
    moved = sorted(measured, key=lambda s: -abs(evidence.shifts[s].z))
    return list(dict.fromkeys([*drifting, *moved]))[: max(len(drifting), 2)], notes


async def sensor_validity_check(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """Sensor drift or real process change, per suspect sensor, with the coupled signals' numbers."""
    bundle = await gather_evidence(task, ctx)
    if isinstance(bundle, SpecialistResult):
        return bundle
    evidence = bundle.evidence
    suspects, skipped_notes = _suspects(task, evidence)
    verdicts = [sensor_validity(evidence, sensor) for sensor in suspects]
    lines = [f"{v.describe()}. " + " ".join(v.reasons) for v in verdicts]
    summary = (
        f"{evidence.asset_id}: " + " ".join(lines[:2]) + (f" {skipped_notes[0]}" if skipped_notes else "")
    )
    artifact = build_artifact(
        ctx,
        "failure",
        "sensor_validity",
        asset_ids=[evidence.asset_id],
        window=bundle.telemetry.window,
        sensors=[full_name(v.sensor, evidence.asset_id) for v in verdicts],
        summary=summary,
        observations=[*lines, *skipped_notes, *evidence.notes],
        results={
            "verdicts": [v.as_dict() for v in verdicts],
            "source": bundle.telemetry.artifact.id,
            "baseline": [str(t) for t in bundle.baseline],
            "recent": [str(t) for t in bundle.recent],
        },
        assumptions=["Shifts are load-adjusted; chilled-water temperatures relative to setpoint."],
    )
    await ctx.store.put(artifact)
    return SpecialistResult(
        "failure",
        task.action,
        "ok",
        summary,
        artifact_ids=[artifact.id],
        reused_artifact_ids=[bundle.telemetry.artifact.id],
    )
