"""How-to answers: a numbered procedure from a checklist, protocol or fix plan artifact.

Pure: the steps come from the artifact's steps (or its observations) and its acceptance thresholds
from its criteria (`artifacts.readings`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from artifacts.model import Artifact
from artifacts.readings import criteria, hypotheses, moved_alone, sensor_verdicts, steps

PROCEDURE_KINDS = ("restart_checklist", "validation_protocol", "monitoring_config")
MAX_CRITERIA = 6
TITLES = {"restart_checklist": "restart {asset} safely", "validation_protocol": "validate the repair on {asset}",
          "monitoring_config": "watch {asset} going forward"}


def procedure_lines(artifact: Artifact) -> list[str]:
    """Every numbered step, then the thresholds (unit-less numbers are the sensors' own units)."""
    lines = [f"{number}. {step}" for number, step in enumerate(steps(artifact), start=1)]
    thresholds = criteria(artifact)
    if thresholds:
        lines.append("")
        lines.append("Acceptance thresholds:")
    lines += [f"- {item.sensor}: {item.low} to {item.high}" for item in thresholds[:MAX_CRITERIA]]
    if len(thresholds) > MAX_CRITERIA:
        lines.append(f"- and {len(thresholds) - MAX_CRITERIA} more sensors [{artifact.id}]")
    return lines


def procedure(artifacts: list[Artifact]) -> tuple[str, list[str]] | None:
    """(first sentence, numbered steps) from the newest procedure artifact; None when there is none."""
    found = [a for a in artifacts if a.kind in PROCEDURE_KINDS]
    if not found:
        return None
    art = max(found, key=lambda a: a.turn_index or 0)
    lines = procedure_lines(art)
    count = sum(1 for line in lines if line[:1].isdigit())
    asset = ", ".join(art.asset_ids) or "the chiller"
    what = TITLES.get(art.kind, "do it").format(asset=asset)
    return f"To {what}, follow these {count} steps:", lines


def fix_plan(artifacts: list[Artifact]) -> tuple[str, list[str]] | None:
    """A procedure from a diagnosis when no checklist exists: confirm the cause, fix, verify."""
    diagnoses = [a for a in artifacts if a.kind == "diagnose" and hypotheses(a)]
    if not diagnoses:
        return None
    art = max(diagnoses, key=lambda a: a.turn_index or 0)
    ranked = hypotheses(art)
    top = ranked[0]
    asset = ", ".join(art.asset_ids) or "the chiller"
    if top.failure_mode.lower().startswith("no fault"):
        # nothing to fix: what to check is what would rule out (or catch) the best fault candidate
        candidate = next((h for h in ranked[1:] if not h.failure_mode.lower().startswith("no fault")), None)
        if candidate is None:
            return (f"No fault is diagnosed on {asset}, so there is nothing to fix; keep monitoring.",
                    ["1. Keep monitoring; re-check after the next high-load week."])
        low, high = candidate.bounds
        check = (candidate.confirm_by or "a site inspection of that part").removeprefix("check ")
        return (f"No fault is diagnosed on {asset}, so nothing needs fixing; the check worth doing first rules out "
                f"{candidate.failure_mode} ({low:.2f}-{high:.2f}):",
                [f"1. Check {check}.", f"2. If it confirms {candidate.failure_mode}, raise a work order for it.",
                 "3. Otherwise keep monitoring; re-check after the next high-load week."])
    mode, confirm = top.failure_mode, top.confirm_by
    steps = [f"1. Confirm {mode}" + (f": {confirm}." if confirm else " with a site inspection."),
             f"2. Fix the cause on {asset} (raise a work order for the repair).",
             "3. After the repair, validate with the running baselines (ask for a validation protocol)."]
    return f"To deal with {mode} on {asset}, three steps:", steps


@dataclass(frozen=True)
class DriftFinding:
    """A sensor found drifting (it moved at equal load while its physically coupled readings did not)."""

    asset: str
    sensor: str
    shift: str  # "+0.67 degF", '' when the check gave no figure
    turn: int
    artifact_id: str


_MOVED_ALONE = re.compile(r"^(?P<sensor>.+?) moved (?P<shift>[+-][\d.]+ ?\w*) at equal load.*\bsensor drift\b")


def drift_findings(artifacts: list[Artifact]) -> list[DriftFinding]:
    """Every drifting sensor the session's sensor checks found, newest first: a validity check's "sensor drift"
    verdicts and a health check's readings that moved on their own."""
    found = []
    for art in artifacts:
        asset = ", ".join(art.asset_ids) or "the chiller"
        if art.kind == "sensor_validity":
            found += [DriftFinding(asset, v.sensor.removeprefix(f"{asset} "),
                                   f"{v.shift:+.2f} degF" if v.shift is not None else "", art.turn_index or 0, art.id)
                      for v in sensor_verdicts(art) if v.verdict == "sensor_drift"]
        elif art.kind == "trend_stats":
            found += [DriftFinding(asset, m["sensor"], m["shift"], art.turn_index or 0, art.id)
                      for line in moved_alone(art) if (m := _MOVED_ALONE.match(line))]
    return sorted(found, key=lambda f: -f.turn)


def checked_sensor(artifacts: list[Artifact]) -> tuple[DriftFinding, str] | None:
    """The sensor the session's latest validity check looked at, with its verdict ("real change", "no change"), as a
    finding to check in the field ("how do I check and recalibrate that sensor?" after it was found to read true)."""
    for art in sorted((a for a in artifacts if a.kind == "sensor_validity"), key=lambda a: -(a.turn_index or 0)):
        asset = ", ".join(art.asset_ids) or "the chiller"
        for verdict in sensor_verdicts(art):
            return (DriftFinding(asset, verdict.sensor.removeprefix(f"{asset} "), "", art.turn_index or 0, art.id),
                    verdict.verdict.replace("_", " "))
    return None


def recalibration_plan(finding: DriftFinding) -> tuple[str, list[str]]:
    """(first sentence, numbered steps) to confirm and correct a drifting sensor in the field."""
    moved = f" (it moved {finding.shift} at equal load while its coupled readings did not)" if finding.shift else ""
    return (f"Recalibrate {finding.asset}'s {finding.sensor} transmitter{moved}; four steps:",
            ["1. Verify in the field: put a calibrated reference probe in the same well (or beside the sensor) and "
             "compare for 15-30 minutes at steady load; "
             + (f"a gap near {finding.shift} confirms the drift." if finding.shift
                else "a gap of more than about 0.5 degF means it has drifted."),
             "2. Recalibrate the transmitter (zero and span against the reference), or replace it if it will not "
             "hold calibration.",
             f"3. Mark {finding.sensor}'s readings since the drift began as suspect and re-baseline its monitoring on "
             "the corrected readings.",
             "4. Re-check a week later: it should track its coupled temperatures again. "
             f"[{finding.artifact_id}]"])
