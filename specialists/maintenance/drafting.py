"""Pure work-order drafting: failure codes, priority and scope for a suspected failure mode."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from fleet.knowledge.loader import fault_types, fmea_entries, secondary_codes
from specialists.maintenance.history import parse_finish

DUPLICATE_LOOKBACK_DAYS = 60
# An inspection no diagnosis backs is planned work, below the corrective priorities 1 (urgent) and 2.
INSPECTION_PRIORITY = 3


@dataclass
class DraftWorkOrder:
    """A work order ready for a planner to review; nothing is sent anywhere."""

    equipment_id: str
    asset_id: str | None
    title: str
    failure_mode: str | None  # None: an inspection order no diagnosis backs
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


def repair_codes(failure_mode: str) -> frozenset[str]:
    """The primary codes of the work that deals with a failure mode: its fault family (the generator's knowledge),
    else the FMEA's codes for it; empty for a mode neither knows."""
    specs = {spec.failure_mode: spec for spec in fault_types().values()}
    mode = _match_mode(failure_mode, list(specs))
    if mode is not None and specs[mode].family:
        return frozenset(specs[mode].family)
    entries = {e.failure_mode: e for e in fmea_entries() if e.asset_class == "chiller"}
    mode = _match_mode(failure_mode, list(entries))
    return frozenset(entries[mode].primary_codes) if mode is not None else frozenset()


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


def _matches_work(order: dict[str, Any], words: frozenset[str]) -> bool:
    text = " ".join(str(order.get(k) or "") for k in ("wo_description", "collection", "primary_code_description",
                                                         "secondary_code_description")).lower()
    return any(word in text for word in words)


def recent_duplicates(existing: list[dict[str, Any]], primary_code: str | None, now: datetime,
                      work_words: frozenset[str] = frozenset()) -> list[str]:
    """Orders finished in the lookback window that the draft may repeat: corrective ones with the same
    primary code; without a code (an inspection), any order whose description or component names the
    work (`work_words`, e.g. {"condenser"})."""
    if primary_code is None and not work_words:
        return []
    cutoff = now - timedelta(days=DUPLICATE_LOOKBACK_DAYS)
    out = []
    for order in existing:
        when = parse_finish(order.get("actual_finish"))
        if when is None or when < cutoff:
            continue
        same_code = primary_code is not None and order.get("primary_code") == primary_code and not order.get("preventive")
        if same_code or (primary_code is None and _matches_work(order, work_words)):
            out.append(str(order.get("wo_id")))
    return out


# Words of a requested job that name no component ("a full condenser inspection" -> condenser).
GENERIC_WORK_WORDS = frozenset({"full", "complete", "general", "inspection", "inspect", "check", "work", "order",
                                "the", "and", "for", "of", "on", "a", "an", "it", "its", "unit", "chiller", "job"})
GENERAL_INSPECTION = "general inspection"


def work_words(work: str | None) -> frozenset[str]:
    """The component words of a requested job, for the duplicate check of an order without a code."""
    words = {w.strip(".,;:()").lower() for w in (work or "").split()}
    return frozenset(w for w in words if len(w) > 3 and w not in GENERIC_WORK_WORDS)


def inspection_scope(work: str | None, asset_id: str | None) -> list[str]:
    """Ordered steps of an inspection no diagnosis backs: the requested job (or a general inspection),
    findings recorded so that a failure code can be set on review."""
    asset = asset_id or "the chiller"
    job = (f"Carry out the requested work: {work}." if work else
           f"Inspect {asset}: condenser and evaporator (approach temperatures, tube condition), compressor "
           "(noise, vibration, oil), refrigerant circuit (charge, leaks), controls and sensors.")
    return [f"Coordinate a window with operations and lock out / tag out {asset}.", job,
            "Record findings with photos and readings; set the failure code on review from what was found.",
            "Return to service and trend the affected sensors for 7 days against the pre-inspection baseline."]


def code_text(draft: DraftWorkOrder) -> str:
    """How a draft's failure code reads: "failure code M013/M013a (Condenser Plugged (Partial))", only the
    parts it has, or why it has none."""
    if draft.primary_code:
        code = draft.primary_code + (f"/{draft.secondary_code}" if draft.secondary_code else "")
        described = draft.code_description and draft.code_description != draft.primary_code
        return f"failure code {code}" + (f" ({draft.code_description})" if described else "")
    if draft.failure_mode is None:
        return "no diagnosis backs it, so no failure code: set one on review"
    return "no failure code maps to this mode: set one on review"


def draft_work_order(*, equipment_id: str, asset_id: str | None, failure_mode: str | None, confidence: float | None,
                     evidence: list[str], existing: list[dict[str, Any]], now: datetime,
                     work: str | None = None) -> DraftWorkOrder:
    """Draft the corrective order for a suspected failure mode, flagging recent duplicates. With no
    failure mode (nothing diagnosed) the order is an inspection of the requested `work` (else a
    general inspection) with no failure code: the planner sets one on review."""
    name = asset_id or equipment_id
    if failure_mode is None:
        job = work or GENERAL_INSPECTION
        return DraftWorkOrder(
            equipment_id=equipment_id, asset_id=asset_id, title=f"{name}: {job} (no diagnosis yet)",
            failure_mode=None, primary_code=None, secondary_code=None, code_description="",
            priority=INSPECTION_PRIORITY, scope=inspection_scope(work, asset_id),
            justification=["no diagnosed failure mode backs this order: it was requested as an inspection",
                           *evidence[:5]],
            possible_duplicates=recent_duplicates(existing, None, now, work_words(job)),
        )
    primary, secondary, description = codes_for(failure_mode)
    # Priority 1 (urgent) when the diagnosis is confident; 2 (planned corrective) otherwise.
    priority = 1 if (confidence or 0.0) >= 0.6 else 2
    short_mode = failure_mode.split(":")[0]
    scope = scope_for(failure_mode, asset_id)
    if work:  # the job the user asked for goes in before returning to service
        scope.insert(-1, f"Requested: {work}.")
    return DraftWorkOrder(
        equipment_id=equipment_id, asset_id=asset_id,
        title=f"{name}: {work} (suspected {short_mode})" if work else f"{name}: corrective for suspected {short_mode}",
        failure_mode=failure_mode, primary_code=primary, secondary_code=secondary, code_description=description,
        priority=priority, scope=scope, justification=evidence[:6],
        possible_duplicates=recent_duplicates(existing, primary, now),
    )
