"""How-to answers: a numbered procedure from a checklist, protocol or fix plan artifact.

Pure: the steps come from the artifact's `results["steps"]` (or its observations) and its
acceptance thresholds from `results["criteria"]`.
"""

from __future__ import annotations

from artifacts.model import Artifact

PROCEDURE_KINDS = ("restart_checklist", "validation_protocol", "monitoring_config")
MAX_CRITERIA = 6
TITLES = {"restart_checklist": "restart {asset} safely", "validation_protocol": "validate the repair on {asset}",
          "monitoring_config": "watch {asset} going forward"}


def procedure_lines(artifact: Artifact) -> list[str]:
    """Every numbered step, then the thresholds (unit-less numbers are the sensors' own units)."""
    steps = [str(s) for s in artifact.results.get("steps") or artifact.observations]
    lines = [f"{number}. {step}" for number, step in enumerate(steps, start=1)]
    criteria = [c for c in artifact.results.get("criteria") or [] if isinstance(c, dict)]
    if criteria:
        lines.append("")
        lines.append("Acceptance thresholds:")
    for item in criteria[:MAX_CRITERIA]:
        low, high = item.get("accept_low", item.get("low")), item.get("accept_high", item.get("high"))
        lines.append(f"- {item.get('sensor')}: {low} to {high}")
    if len(criteria) > MAX_CRITERIA:
        lines.append(f"- and {len(criteria) - MAX_CRITERIA} more sensors [{artifact.id}]")
    return lines


def procedure(artifacts: list[Artifact]) -> tuple[str, list[str]] | None:
    """(first sentence, numbered steps) from the newest procedure artifact; None when there is none."""
    found = [a for a in artifacts if a.kind in PROCEDURE_KINDS]
    if not found:
        return None
    art = max(found, key=lambda a: a.turn_index or 0)
    steps = procedure_lines(art)
    count = sum(1 for line in steps if line[:1].isdigit())
    asset = ", ".join(art.asset_ids) or "the chiller"
    what = TITLES.get(art.kind, "do it").format(asset=asset)
    return f"To {what}, follow these {count} steps:", steps


def fix_plan(artifacts: list[Artifact]) -> tuple[str, list[str]] | None:
    """A procedure from a diagnosis when no checklist exists: confirm the cause, fix, verify."""
    diagnoses = [a for a in artifacts if a.kind == "diagnose" and a.results.get("hypotheses")]
    if not diagnoses:
        return None
    art = max(diagnoses, key=lambda a: a.turn_index or 0)
    top = art.results["hypotheses"][0]
    mode, confirm = top.get("failure_mode"), top.get("confirm_by")
    asset = ", ".join(art.asset_ids) or "the chiller"
    steps = [f"1. Confirm {mode}" + (f": {confirm}." if confirm else " with a site inspection."),
             f"2. Fix the cause on {asset} (raise a work order for the repair).",
             "3. After the repair, validate with the running baselines (ask for a validation protocol)."]
    return f"To deal with {mode} on {asset}, three steps:", steps
