"""Pure prioritisation: which asset needs attention first, from the evidence already gathered."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from artifacts.model import Artifact
from specialists.maintenance.evidence import hypothesis_confidence, is_instrument_fault, is_no_fault

# Weights (stated in every ranking): the diagnosed fault dominates; anomalies count only above the
# detector's own false-alarm rate; a worsening efficiency trend and corrective load add a little.
FAULT_WEIGHT = 10.0
EXCESS_ANOMALY_WEIGHT = 50.0
FALSE_ALARM_RATE = 0.05
TREND_POINTS = 2.0
CORRECTIVE_POINTS, CORRECTIVE_CAP = 0.25, 5
INSTRUMENT_SHARE = 0.5  # an instrument fault (sensor drift) counts half: the chiller itself still runs sound
RULE = (f"score = {FAULT_WEIGHT:g} x probability of the most likely fault (not 'no fault'; "
        f"x {INSTRUMENT_SHARE:g} for an instrument fault) + "
        f"{EXCESS_ANOMALY_WEIGHT:g} x anomaly share above the {FALSE_ALARM_RATE:.0%} false-alarm rate + "
        f"{TREND_POINTS:g} if kW/ton is rising + {CORRECTIVE_POINTS:g} per corrective work order (max {CORRECTIVE_CAP})")


@dataclass
class AssetPriority:
    """One asset's attention score (higher = sooner) and the reasons behind it."""

    asset_id: str
    score: float
    reasons: list[str] = field(default_factory=list)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def _diagnosis(art: Artifact, component: str | None = None) -> tuple[float, str] | None:
    """The diagnosis's fault probability and why; with a `component` ("condenser"), that component's most likely fault
    only ("whose condenser first?" ranks on condenser faults, not on any fault)."""
    hyps = (art.results or {}).get("hypotheses") or []
    if not hyps or not isinstance(hyps[0], dict):
        return None
    fault = next((h for h in hyps if isinstance(h, dict) and not is_no_fault(h.get("failure_mode"))
                  and (component is None or component in str(h.get("failure_mode") or "").lower())), None)
    if fault is None and component is not None:
        return 0.0, f"diagnosis finds no {component} fault ({art.id})"
    if fault is None:
        return 0.0, f"diagnosis finds no fault ({art.id})"
    p = hypothesis_confidence(fault) or 0.0
    lead = "most likely" if fault is hyps[0] else "best fault candidate, after normal operation,"
    mode = str(fault.get("failure_mode") or "")
    if is_instrument_fault(mode):  # a drifting sensor misleads the controls, but the machine itself is sound
        return INSTRUMENT_SHARE * p, f"{lead} {mode} at ~{p:.0%}, an instrument fault ({art.id})"
    return p, f"{lead} {mode} at ~{p:.0%} ({art.id})"


def _score_asset(asset: str, artifacts: list[Artifact], component: str | None = None) -> AssetPriority:
    score, reasons = 0.0, []
    mine = [a for a in artifacts if asset in a.asset_ids]
    diagnoses = [d for d in (_diagnosis(a, component) for a in mine if a.producer == "failure") if d is not None]
    if diagnoses:
        p, reason = diagnoses[-1]  # the newest diagnosis supersedes earlier ones
        score += FAULT_WEIGHT * p
        reasons.append(reason)
    for art in mine:
        res = art.results or {}
        rate = _number(res.get("anomaly_rate"))
        if rate is not None and rate > FALSE_ALARM_RATE:
            score += EXCESS_ANOMALY_WEIGHT * (rate - FALSE_ALARM_RATE)
            reasons.append(f"{rate:.1%} of points anomalous vs {FALSE_ALARM_RATE:.0%} expected ({art.id})")
        trend = _number(res.get("efficiency_trend_per_day"))
        if trend is not None and trend > 0:
            score += TREND_POINTS
            reasons.append(f"kW/ton rising {trend:+.4f}/day ({art.id})")
        corrective = _number(res.get("corrective"))
        if corrective:
            score += CORRECTIVE_POINTS * min(corrective, CORRECTIVE_CAP / CORRECTIVE_POINTS)
            reasons.append(f"{int(corrective)} corrective work orders ({art.id})")
    return AssetPriority(asset, round(score, 2), reasons)


def prioritise(artifacts: list[Artifact], assets: list[str], component: str | None = None) -> list[AssetPriority]:
    """Rank assets by attention score (see RULE); ties broken by name. `component` ("condenser"): the fault term
    counts that component's faults only."""
    return sorted((_score_asset(a, artifacts, component) for a in assets), key=lambda p: (-p.score, p.asset_id))


def priority_headline(ranking: list[AssetPriority]) -> str:
    """The ranking in one sentence: the first asset, why, and its score against the others' (a
    ranking of one asset has nothing to compare against, so it says so instead of "vs ")."""
    first = ranking[0]
    why = first.reasons[0] if first.reasons else "no adverse evidence on any asset yet"
    if len(ranking) == 1:
        return f"{first.asset_id}: {why} (score {first.score:g}; no other asset in this comparison)"
    others = ", ".join(f"{p.asset_id} {p.score:g}" for p in ranking[1:])
    return f"{first.asset_id} needs attention first: {why} (score {first.score:g} vs {others})"
