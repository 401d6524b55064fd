"""Pieces of the offline answer that depend on what was asked: severity, protocol steps, brief write-up.

Pure functions over artifacts (their `results` and summaries); no I/O. Each returns plain text lines
the answer composer places under the lead.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from artifacts.model import Artifact
from assetops.db.tables.telemetry import SENSOR_UNITS

PROTOCOL_KINDS = ("restart_checklist", "validation_protocol", "monitoring_config")
MAX_CRITERIA = 6
BRIEF_LINE_CHARS = 170
NO_FAULT = "no fault"
# Severity thresholds: the top hypothesis' lower confidence bound and the largest load-adjusted
# shift (in baseline standard deviations, or as a share of the baseline level).
HIGH = (0.6, 4.0, 0.10)
MEDIUM = (0.3, 2.0, 0.05)
ACTION_BY_LEVEL = {
    "high": "plan the repair now (days, not weeks) and watch it daily until then",
    "medium": "schedule a check at the next planned visit and keep watching the trend",
    "low": "no action beyond normal monitoring",
}


def confidence_bounds(hypothesis: dict[str, Any]) -> tuple[float, float]:
    """(low, high) of a hypothesis' confidence range (0, 0 when missing)."""
    bounds = [float(v) for v in hypothesis.get("confidence_range") or []]
    return (bounds[0], bounds[-1]) if bounds else (0.0, 0.0)


def latest(artifacts: list[Artifact], kinds: tuple[str, ...]) -> Artifact | None:
    """The newest artifact of one of `kinds` (by turn, then list order), or None."""
    found = [a for a in artifacts if a.kind in kinds]
    return max(found, key=lambda a: a.turn_index or 0) if found else None


def _largest_shift(diagnosis: Artifact) -> dict[str, Any] | None:
    shifts = ((diagnosis.results.get("evidence") or {}).get("shifts") or {}).values()
    usable = [s for s in shifts if isinstance(s, dict) and s.get("z") is not None]
    return max(usable, key=lambda s: abs(float(s["z"]))) if usable else None


def _shift_text(shift: dict[str, Any]) -> tuple[str, float]:
    """(`Power Input +16.85 kW at equal load (+13% of baseline, z +5.6)`, relative size)."""
    value = float(shift.get("shift") or 0.0)
    level = float(shift["baseline_level"]) if isinstance(shift.get("baseline_level"), int | float) else 0.0
    relative = abs(value / level) if level else 0.0
    share = f"{value / level:+.0%} of baseline, " if relative else ""
    unit = shift.get("units") or SENSOR_UNITS.get(str(shift.get("signal")), "")
    units = f" {unit}" if unit else ""
    return f"{shift.get('signal')} {value:+.2f}{units} at equal load ({share}z {float(shift['z']):+.1f})", relative


def severity_level(confidence_low: float, z: float, relative: float, tripped: bool) -> str:
    """low / medium / high from how sure the diagnosis is and how far the plant has moved."""
    if tripped:
        return "high"  # the chiller already stopped on a safety
    for name, (confidence, z_min, share) in (("high", HIGH), ("medium", MEDIUM)):
        if confidence_low >= confidence and (abs(z) >= z_min or relative >= share):
            return name
    return "low"


def severity_lines(artifacts: list[Artifact]) -> list[str]:
    """The severity statement of the newest diagnosis, with the numbers it rests on."""
    diagnosis = latest(artifacts, ("diagnose",))
    hypotheses = diagnosis.results.get("hypotheses") if diagnosis else None
    if not diagnosis or not hypotheses:
        return ["Severity: not judged yet (no diagnosis in this session); ask for the most likely cause first."]
    top = hypotheses[0]
    low, high = confidence_bounds(top)
    mode = str(top.get("failure_mode"))
    if mode.lower().startswith(NO_FAULT):
        return [f"Severity: low. No fault stands out ({mode} {low:.2f}-{high:.2f}) [{diagnosis.id}]; "
                f"{ACTION_BY_LEVEL['low']}."]
    shift = _largest_shift(diagnosis)
    shown, relative = _shift_text(shift) if shift else ("no measured shift", 0.0)
    tripped = bool(diagnosis.results.get("trip_time"))
    level = severity_level(float(low), float(shift["z"]) if shift else 0.0, relative, tripped)
    trip = "; the chiller tripped" if tripped else ""
    return [f"Severity: {level}. {mode} at {low:.2f}-{high:.2f} confidence; largest deviation {shown}{trip} "
            f"[{diagnosis.id}]. Suggested response: {ACTION_BY_LEVEL[level]}."]


def protocol_lines(artifact: Artifact) -> list[str]:
    """A checklist or protocol shown in full: every numbered step, then its thresholds."""
    steps = [str(s) for s in artifact.results.get("steps") or artifact.observations]
    lines = [f"{number}. {step}" for number, step in enumerate(steps, start=1)]
    criteria = artifact.results.get("criteria") or []
    for item in criteria[:MAX_CRITERIA]:
        low, high = item.get("accept_low", item.get("low")), item.get("accept_high", item.get("high"))
        lines.append(f"   - {item.get('sensor')}: {low} to {high}")
    if len(criteria) > MAX_CRITERIA:
        lines.append(f"   - and {len(criteria) - MAX_CRITERIA} more sensors [{artifact.id}]")
    return lines


def first_clause(text: str, limit: int = BRIEF_LINE_CHARS) -> str:
    """The first sentence or clause of a summary as a sentence, clipped at a word (markdown removed)."""
    plain = re.sub(r"[*#]+", "", text).strip()
    clause = re.split(r"(?<=[a-z0-9)%])[.;] ", plain, maxsplit=1)[0].rstrip(".; ")
    if len(clause) <= limit:
        return clause + "."
    return clause[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def _operating_line(artifact: Artifact) -> str | None:
    stats = artifact.results.get("stats") or {}
    share = artifact.results.get("running_share")
    parts = []
    for sensor, entry in stats.items():
        name = sensor.split(" ", 2)[-1] if sensor.startswith("Chiller ") else sensor
        if name not in ("Power Input", "Chiller Efficiency", "Tonnage"):
            continue
        value = entry.get("running_mean") if entry.get("running_mean") is not None else entry.get("mean")
        if value is not None:
            parts.append(f"{name} {value:,.2f} {entry.get('unit') or ''}".rstrip())
    if not parts:
        return None
    running = f" while running ({share:.0%} of the time)" if isinstance(share, int | float) else ""
    return "Operation: " + ", ".join(parts) + running


def source_telemetry(artifacts: list[Artifact], diagnosis: Artifact | None) -> Artifact | None:
    """The telemetry window a diagnosis rests on (else the newest one): the period the write-up is about."""
    source = diagnosis.results.get("source") if diagnosis else None
    return next((a for a in artifacts if a.id == source), None) or latest(artifacts, ("telemetry_window",))


def brief_lines(artifacts: list[Artifact], headline: str) -> list[str]:
    """A few lines for a manager, in reading order: cause, operation, anomalies, alarms, work orders,
    next step. Lines are in priority order too except the next step, which `fit_brief` keeps."""
    lines = [headline] if headline else []
    diagnosis = latest(artifacts, ("diagnose",))
    hypotheses = (diagnosis.results.get("hypotheses") or []) if diagnosis else []
    if hypotheses:
        low, high = confidence_bounds(hypotheses[0])
        lines.append(f"Most likely cause: {hypotheses[0].get('failure_mode')} (confidence {low:.2f}-{high:.2f}).")
    telemetry = source_telemetry(artifacts, diagnosis)
    operating = _operating_line(telemetry) if telemetry else None
    if operating:
        lines.append(operating + ".")
    # With a diagnosis the anomaly rates are engineering detail behind it; without one they are the finding.
    kinds_shown = ["alert_rules", "work_order_summary"] if hypotheses else ["alert_rules", "anomaly_detection",
                                                                            "work_order_summary"]
    for kind in kinds_shown:
        found = latest(artifacts, (kind,))
        if found and found.summary:
            lines.append(first_clause(found.summary, 130))
    if hypotheses and hypotheses[0].get("confirm_by"):
        lines.append(f"Next step: confirm with {first_clause(str(hypotheses[0]['confirm_by']), 110)}")
    return lines


def fit_brief(lines: list[str], max_chars: int) -> str:
    """Drop the least important middle lines (last first) until the write-up fits; the headline,
    the cause and a closing next step stay."""
    kept = list(lines)
    closing = [kept.pop()] if kept and kept[-1].startswith("Next step:") else []
    while len("\n".join(kept + closing)) > max_chars and len(kept) > 2:
        kept.pop()
    text = "\n".join(kept + closing)
    return text if len(text) <= max_chars else text[: max_chars - 1] + "…"


def _local_time(stamp: str) -> str:
    try:
        return f"{datetime.fromisoformat(stamp):%Y-%m-%d %H:%M}"
    except ValueError:
        return stamp


def data_issue_lines(artifacts: list[Artifact], already_said: str) -> list[str]:
    """Sensors that went silent or had no data in the turn's telemetry windows: after a trip a sensor
    going offline is a finding in itself, so it is stated even when the window's summary is not shown."""
    lines: list[str] = []
    for artifact in artifacts:
        if artifact.kind != "telemetry_window":
            continue
        for sensor, last in (artifact.results.get("sensors_stopped") or {}).items():
            name = re.sub(r"^Chiller \d+ ", "", sensor)  # the lead may name it without the asset
            if f"{name} stopped reporting" not in already_said:
                lines.append(f"{sensor} stopped reporting at {_local_time(str(last))} while other sensors continued.")
        for sensor in artifact.results.get("sensors_without_data") or []:
            if f"No data for {sensor}" not in already_said:
                lines.append(f"No data for {sensor} in {artifact.id}.")
    return list(dict.fromkeys(lines))[:3]
