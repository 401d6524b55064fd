"""How-to answers: a numbered procedure from a checklist, protocol or fix plan artifact.

Pure: the steps come from the artifact's steps (or its observations) and its acceptance thresholds
from its criteria (`artifacts.readings`).
"""

from __future__ import annotations

from artifacts.model import Artifact
from artifacts.readings import criteria, hypotheses, steps

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
