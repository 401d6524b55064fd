"""Pieces of the offline answer that depend on what was asked: severity, protocol steps, brief write-up.

Pure functions over artifacts (their `results` and summaries); no I/O. Each returns plain text lines
the answer composer places under the lead.
"""

from __future__ import annotations

import re
from datetime import datetime

from artifacts.model import Artifact
from artifacts.readings import (
    EqualLoadShift,
    Hypothesis,
    criteria,
    diagnosis_source,
    equal_load_shifts,
    hypotheses,
    running_mean,
    running_share,
    sensors_stopped,
    sensors_without_data,
    stats_of,
    steps,
    tripped,
)
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


def confidence_bounds(hypothesis: Hypothesis) -> tuple[float, float]:
    """(low, high) of a hypothesis' confidence range (0, 0 when missing)."""
    bounds = hypothesis.confidence_range
    return (bounds[0], bounds[-1]) if bounds else (0.0, 0.0)


def latest(artifacts: list[Artifact], kinds: tuple[str, ...]) -> Artifact | None:
    """The newest artifact of one of `kinds` (by turn, then list order), or None."""
    found = [a for a in artifacts if a.kind in kinds]
    return max(found, key=lambda a: a.turn_index or 0) if found else None


def _largest_shift(diagnosis: Artifact) -> EqualLoadShift | None:
    return max(equal_load_shifts(diagnosis), key=lambda s: abs(s.z), default=None)


def _shift_text(shift: EqualLoadShift) -> tuple[str, float]:
    """(`Power Input +16.85 kW at equal load (+13% of baseline, z +5.6)`, relative size)."""
    value = shift.shift
    level = shift.baseline_level or 0.0
    relative = abs(value / level) if level else 0.0
    share = f"{value / level:+.0%} of baseline, " if relative else ""
    unit = shift.units or SENSOR_UNITS.get(shift.signal, "")
    units = f" {unit}" if unit else ""
    return f"{shift.signal} {value:+.2f}{units} at equal load ({share}z {shift.z:+.1f})", relative


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
    ranked = hypotheses(diagnosis) if diagnosis else []
    if not diagnosis or not ranked:
        return ["Severity: not judged yet (no diagnosis in this session); ask for the most likely cause first."]
    top = ranked[0]
    low, high = confidence_bounds(top)
    mode = top.failure_mode
    if mode.lower().startswith(NO_FAULT):
        return [f"Severity: low. No fault stands out ({mode} {low:.2f}-{high:.2f}) [{diagnosis.id}]; "
                f"{ACTION_BY_LEVEL['low']}."]
    shift = _largest_shift(diagnosis)
    shown, relative = _shift_text(shift) if shift else ("no measured shift", 0.0)
    stopped = tripped(diagnosis)
    level = severity_level(float(low), shift.z if shift else 0.0, relative, stopped)
    trip = "; the chiller tripped" if stopped else ""
    return [f"Severity: {level}. {mode} at {low:.2f}-{high:.2f} confidence; largest deviation {shown}{trip} "
            f"[{diagnosis.id}]. Suggested response: {ACTION_BY_LEVEL[level]}."]


def protocol_lines(artifact: Artifact) -> list[str]:
    """A checklist or protocol shown in full: every numbered step, then its thresholds."""
    lines = [f"{number}. {step}" for number, step in enumerate(steps(artifact), start=1)]
    thresholds = criteria(artifact)
    lines += [f"   - {item.sensor}: {item.low} to {item.high}" for item in thresholds[:MAX_CRITERIA]]
    if len(thresholds) > MAX_CRITERIA:
        lines.append(f"   - and {len(thresholds) - MAX_CRITERIA} more sensors [{artifact.id}]")
    return lines


_BREAK = re.compile(r"(?<=[a-z0-9)%])[.;] ")


def _before_first_break(text: str) -> str:
    """`text` up to its first sentence or clause break outside parentheses: "(Chiller 4 61%; Chiller 9 59%)"
    is one aside, not two clauses, so a clause never ends inside it."""
    for match in _BREAK.finditer(text):
        before = text[: match.start()]
        if before.count("(") <= before.count(")"):
            return before
    return text


def first_clause(text: str, limit: int = BRIEF_LINE_CHARS) -> str:
    """The first sentence or clause of a summary as a sentence, clipped at a word (markdown removed)."""
    plain = re.sub(r"[*#]+", "", text).strip()
    clause = _before_first_break(plain).rstrip(".; ")
    if len(clause) <= limit:
        return clause if clause.endswith(("?", "!")) else clause + "."
    return clause[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def _operating_line(artifact: Artifact) -> str | None:
    share = running_share(artifact)
    parts = []
    for sensor, entry in stats_of(artifact).items():
        name = sensor.split(" ", 2)[-1] if sensor.startswith("Chiller ") else sensor
        if name not in ("Power Input", "Chiller Efficiency", "Tonnage"):
            continue
        value = running_mean(entry)
        if value is not None:
            parts.append(f"{name} {value:,.2f} {entry.get('unit') or ''}".rstrip())
    if not parts:
        return None
    running = f" while running ({share:.0%} of the time)" if share is not None else ""
    return "Operation: " + ", ".join(parts) + running


def source_telemetry(artifacts: list[Artifact], diagnosis: Artifact | None) -> Artifact | None:
    """The telemetry window a diagnosis rests on (else the newest one): the period the write-up is about."""
    source = diagnosis_source(diagnosis) if diagnosis else None
    return next((a for a in artifacts if a.id == source), None) or latest(artifacts, ("telemetry_window",))


def brief_lines(artifacts: list[Artifact], headline: str) -> list[str]:
    """A few lines for a manager, in reading order: cause, operation, anomalies, alarms, work orders,
    next step. Lines are in priority order too except the next step, which `fit_brief` keeps."""
    lines = [headline] if headline else []
    diagnosis = latest(artifacts, ("diagnose",))
    ranked = hypotheses(diagnosis) if diagnosis else []
    if ranked:
        low, high = confidence_bounds(ranked[0])
        lines.append(f"Most likely cause: {ranked[0].failure_mode} (confidence {low:.2f}-{high:.2f}).")
    telemetry = source_telemetry(artifacts, diagnosis)
    operating = _operating_line(telemetry) if telemetry else None
    if operating:
        lines.append(operating + ".")
    # With a diagnosis the anomaly rates are engineering detail behind it; without one they are the finding.
    kinds_shown = ["alert_rules", "work_order_summary"] if ranked else ["alert_rules", "anomaly_detection",
                                                                        "work_order_summary"]
    for kind in kinds_shown:
        found = latest(artifacts, (kind,))
        if found and found.summary:
            lines.append(first_clause(found.summary, 130))
    if ranked and ranked[0].confirm_by:
        lines.append(f"Next step: confirm with {first_clause(ranked[0].confirm_by, 110)}")
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
        for sensor, last in sensors_stopped(artifact).items():
            name = re.sub(r"^Chiller \d+ ", "", sensor)  # the lead may name it without the asset
            if f"{name} stopped reporting" not in already_said:
                lines.append(f"{sensor} stopped reporting at {_local_time(str(last))} while other sensors continued.")
        for sensor in sensors_without_data(artifact):
            if f"No data for {sensor}" not in already_said:
                lines.append(f"No data for {sensor} in {artifact.id}.")
    return list(dict.fromkeys(lines))[:3]
