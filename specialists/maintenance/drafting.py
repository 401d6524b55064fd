"""Pure work-order drafting: failure codes, priority and scope for a suspected failure mode."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from fleet.knowledge.loader import fault_types, fmea_entries, secondary_codes
from specialists.maintenance.history import parse_finish

DUPLICATE_LOOKBACK_DAYS = 60


@dataclass
class DraftWorkOrder:
    """A work order ready for a planner to review; nothing is sent anywhere."""

    equipment_id: str
    asset_id: str | None
    title: str
    failure_mode: str
    primary_code: str | None
    secondary_code: str | None
    code_description: str
    priority: int
    scope: list[str]
    justification: list[str] = field(default_factory=list)
    possible_duplicates: list[str] = field(default_factory=list)

    def scope_text(self) -> str:
        return "\n".join(f"{i}. {step}" for i, step in enumerate(self.scope, start=1))


def _match_mode(failure_mode: str, candidates: list[str]) -> str | None:
    lowered = {c.lower(): c for c in candidates}
    if failure_mode.lower() in lowered:
        return lowered[failure_mode.lower()]
    for key, original in lowered.items():
        if failure_mode.lower() in key or key.split(":")[0] in failure_mode.lower():
            return original
    close = difflib.get_close_matches(failure_mode.lower(), list(lowered), n=1, cutoff=0.5)
    return lowered[close[0]] if close else None


def codes_for(failure_mode: str) -> tuple[str | None, str | None, str]:
    """(primary, secondary, description) of the corrective order a failure mode calls for."""
    specs = {spec.failure_mode: spec for spec in fault_types().values()}
    mode = _match_mode(failure_mode, list(specs))
    if mode is not None and specs[mode].corrective:
        template = specs[mode].corrective[0]
        code = secondary_codes().get(template.secondary_code)
        return template.primary_code, template.secondary_code, code.secondary_code_description if code else ""
    entries = {e.failure_mode: e for e in fmea_entries() if e.asset_class == "chiller"}
    mode = _match_mode(failure_mode, list(entries))
    if mode is not None and entries[mode].primary_codes:
        primary = entries[mode].primary_codes[0]
        return primary, None, primary
    return None, None, ""


def scope_for(failure_mode: str, asset_id: str | None) -> list[str]:
    """Ordered work steps: isolate, inspect what the failure mode predicts, fix, verify."""
    entries = {e.failure_mode: e for e in fmea_entries() if e.asset_class == "chiller"}
    mode = _match_mode(failure_mode, list(entries))
    entry = entries.get(mode) if mode else None
    asset = asset_id or "the chiller"
    steps = [f"Coordinate a window with operations and lock out / tag out {asset}."]
    if entry is not None:
        steps.append(f"Inspect for the degradation mechanism: {entry.degradation_mechanism}.")
        if entry.detection:
            steps.append(f"Confirm with: {entry.detection}.")
        steps.append(f"Corrective task: {entry.preventive_task}")
    else:
        steps.append(f"Inspect for {failure_mode} and record findings with photos and readings.")
    steps.append("Return to service and run the post-repair validation protocol (trend the affected sensors "
                 "for 7 days against the pre-fault baseline).")
    return steps


def recent_duplicates(existing: list[dict[str, Any]], primary_code: str | None, now: datetime) -> list[str]:
    """Open-ish corrective orders with the same primary code finished in the lookback window."""
    if primary_code is None:
        return []
    cutoff = now - timedelta(days=DUPLICATE_LOOKBACK_DAYS)
    out = []
    for order in existing:
        when = parse_finish(order.get("actual_finish"))
        if order.get("primary_code") == primary_code and not order.get("preventive") and when and when >= cutoff:
            out.append(str(order.get("wo_id")))
    return out


def draft_work_order(*, equipment_id: str, asset_id: str | None, failure_mode: str, confidence: float | None,
                     evidence: list[str], existing: list[dict[str, Any]], now: datetime) -> DraftWorkOrder:
    """Draft the corrective order for a suspected failure mode, flagging recent duplicates."""
    primary, secondary, description = codes_for(failure_mode)
    # Priority 1 (urgent) when the diagnosis is confident; 2 (planned corrective) otherwise.
    priority = 1 if (confidence or 0.0) >= 0.6 else 2
    short_mode = failure_mode.split(":")[0]
    return DraftWorkOrder(
        equipment_id=equipment_id, asset_id=asset_id,
        title=f"{asset_id or equipment_id}: corrective for suspected {short_mode}",
        failure_mode=failure_mode, primary_code=primary, secondary_code=secondary, code_description=description,
        priority=priority, scope=scope_for(failure_mode, asset_id), justification=evidence[:6],
        possible_duplicates=recent_duplicates(existing, primary, now),
    )
