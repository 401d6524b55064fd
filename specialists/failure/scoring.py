"""Rank failure-mode hypotheses against the evidence, with calibrated confidence ranges (pure).

How the confidence is calibrated:
1. Each hypothesis gets an evidence score: the sum over its expected behaviours of weight x agreement,
   where agreement is tanh(direction x z / 2.5) for an expected rise/fall (saturating: a 5-sigma shift
   is not twice the evidence of a 2.5-sigma one) and +0.4 / a growing penalty for a signal that should
   stay normal, plus the failure mode's prior offset. A "no fault: normal operation" alternative scores high
   when nothing moved.
2. Probabilities are a softmax of the scores at temperature `TEMPERATURE`, chosen with the diagnosis
   bench (bench/diagnosis_bench.py) so that the mean top-1 probability tracks top-1 accuracy on
   generated fault episodes.
3. The range around each probability widens with missing evidence (weight of expectations whose
   signal could not be measured) and with conflict (weight of evidence against vs for).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from specialists.common.evidence import Evidence
from specialists.common.validity import isolated_temperature
from specialists.failure.signatures import (
    APPROACH_OFFSET_AT_LOW_LOAD,
    EVAP_APPROACH,
    HUNTING,
    ISOLATED_TEMPERATURE,
    LOAD_DEPENDENT_APPROACH,
    NO_FAULT,
    OFFLINE_SEEN,
    SIGNATURES,
    TRIP_SEEN,
    Expectation,
    Signature,
)

TEMPERATURE = 0.6
Z_SCALE = 2.5  # effect size at which an expected shift counts as ~0.76 of full agreement
NORMAL_Z = 1.5  # below this a signal counts as normal
PSEUDO_Z = 4.0  # what an observed discrete fact (a trip, an offline sensor) counts as


@dataclass
class Hypothesis:
    """One ranked failure-mode hypothesis."""

    failure_mode: str
    score: float
    probability: float
    low: float
    high: float
    evidence_for: list[str] = field(default_factory=list)
    evidence_against: list[str] = field(default_factory=list)
    unmeasured: list[str] = field(default_factory=list)
    confirm_by: str = ""

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly view."""
        return {
            "failure_mode": self.failure_mode,
            "score": round(self.score, 3),
            "probability": round(self.probability, 3),
            "confidence_range": [round(self.low, 2), round(self.high, 2)],
            "evidence_for": self.evidence_for,
            "evidence_against": self.evidence_against,
            "unmeasured": self.unmeasured,
            "confirm_by": self.confirm_by,
        }


def observed_z(evidence: Evidence, signal: str) -> tuple[float | None, str]:
    """The effect size of a (pseudo-)signal and a one-line description of what was seen."""
    if signal == TRIP_SEEN:
        return (
            (PSEUDO_Z, f"abrupt stop at {evidence.trip_at}")
            if evidence.trip_at
            else (0.0, "no trip in the window")
        )
    if signal == OFFLINE_SEEN:
        if evidence.offline_sensors:
            return PSEUDO_Z, f"offline after the stop: {', '.join(evidence.offline_sensors)}"
        return 0.0, "no sensor went offline"
    if signal == ISOLATED_TEMPERATURE:
        finding = isolated_temperature(evidence)
        if finding is None:
            return 0.0, "no temperature moved on its own"
        return finding.z, finding.describe()
    if signal in (LOAD_DEPENDENT_APPROACH, APPROACH_OFFSET_AT_LOW_LOAD):
        z, seen = _approach_shape_z(evidence)
        return (z if z is None or signal == LOAD_DEPENDENT_APPROACH else -z), seen
    if signal == HUNTING:
        return _hunting_z(evidence)
    shift = evidence.shifts.get(signal)
    if shift is None:
        return None, f"{signal} not measured"
    return shift.z, f"{signal} {shift.shift:+.2f} {shift.units} at equal load (z {shift.z:+.1f})".replace(
        "  ", " "
    )


# Offset fraction (SignalShift.offset_fraction) separating a widening proportional to load (fouling,
# <= 0) from one that is already there at low load (refrigerant charge loss, ~0.3-0.6).
SHAPE_SPLIT = 0.12
SHAPE_GAIN = 10.0


def _approach_shape_z(evidence: Evidence) -> tuple[float | None, str]:
    """Positive when the evaporator approach widened in proportion to load, negative when it widened
    at low load nearly as much as at high load."""
    shift = evidence.shifts.get(EVAP_APPROACH)
    if shift is None:
        return None, "evaporator approach not measured"
    fraction = shift.offset_fraction()
    if shift.z < NORMAL_Z or fraction is None:
        return 0.0, "evaporator approach widening too small or load range too narrow to judge its shape"
    z = SHAPE_GAIN * (SHAPE_SPLIT - fraction)
    return z, (
        f"evaporator approach widened {shift.high_load_shift:+.2f} degF at {shift.high_load_pct:.0f}% load vs "
        f"{shift.low_load_shift:+.2f} degF at {shift.low_load_pct:.0f}% load (offset fraction {fraction:+.2f})"
    )


ABSENCE_Z = 0.75  # an expected rise that did not happen counts mildly against (tanh(-0.75/2.5) = -0.29)


def _hunting_z(evidence: Evidence) -> tuple[float | None, str]:
    """Oscillation of the refrigerant side: its load-adjusted spread at least doubled (only judged when
    the comparison stayed inside the baseline's load range; an extrapolated fit inflates spreads)."""
    ratios = [
        shift.variance_ratio
        for name in ("Liquid Refrigerant Evaporator Temperature", EVAP_APPROACH)
        if (shift := evidence.shifts.get(name)) is not None
        and shift.matched
        and shift.variance_ratio is not None
    ]
    if not ratios:
        return None, "refrigerant temperature variance not comparable"
    ratio = max(r for r in ratios if r is not None)
    return 6.0 * (math.log2(max(ratio, 1e-6)) - 1.0), f"refrigerant-side variance x{ratio:.2f} vs baseline"


def agreement(expectation: Expectation, z: float) -> float:
    """How far an observed effect size agrees with an expectation, in [-1, 1]."""
    if expectation.direction == 0:
        return 0.4 if abs(z) < NORMAL_Z else -math.tanh((abs(z) - NORMAL_Z) / 2.0)
    return math.tanh((expectation.direction * z - ABSENCE_Z) / Z_SCALE)


@dataclass
class _Scored:
    signature: Signature
    score: float
    support: float
    conflict: float
    missing_weight: float
    total_weight: float
    evidence_for: list[str]
    evidence_against: list[str]
    unmeasured: list[str]


def _score_signature(signature: Signature, evidence: Evidence) -> _Scored:
    """Weighted agreement of every expectation. "Stays normal" expectations only earn credit in
    proportion to the hypothesis' strongest directional match: a quiet chiller must not make every
    hypothesis with many "stays normal" lines look likely (their penalties always count)."""
    scored = _Scored(signature, signature.prior, 0.0, 0.0, 0.0, 0.0, [], [], [])
    normal_credit: list[tuple[float, str]] = []
    strongest = 0.0
    for expectation in signature.expectations:
        scored.total_weight += expectation.weight
        z, seen = observed_z(evidence, expectation.signal)
        if z is None:
            scored.missing_weight += expectation.weight
            scored.unmeasured.append(expectation.signal)
            continue
        value = expectation.weight * agreement(expectation, z)
        if expectation.direction == 0 and value > 0:
            normal_credit.append((value, seen))
            continue
        if expectation.direction != 0:
            strongest = max(strongest, agreement(expectation, z))
        _add(scored, value, seen)
    for value, seen in normal_credit:
        _add(scored, value * strongest, seen)
    scored.score += _relevance_bonus(signature.failure_mode, evidence)
    return scored


def _add(scored: _Scored, value: float, seen: str) -> None:
    scored.score += value
    if value > 0.15:
        scored.support += value
        scored.evidence_for.append(seen)
    elif value < -0.15:
        scored.conflict += -value
        scored.evidence_against.append(seen)


def _relevance_bonus(failure_mode: str, evidence: Evidence) -> float:
    """Small support from the knowledge base: anomalous sensors that it says reveal this failure mode."""
    relevant = evidence.relevance.get(failure_mode)
    if not relevant or not evidence.anomaly_rates:
        return 0.0
    hits = [s for s, rate in evidence.anomaly_rates.items() if rate >= 0.1 and relevant.get(s)]
    return min(0.1 * len(hits), 0.3)


def _no_fault_score(evidence: Evidence) -> float:
    moves = [abs(s.z) for s in evidence.shifts.values()]
    largest = max(moves) if moves else 0.0
    score = 1.2 - 0.6 * max(largest - NORMAL_Z, 0.0)
    return score - (2.0 if evidence.trip_at else 0.0)


def softmax(scores: list[float], temperature: float = TEMPERATURE) -> list[float]:
    """Numerically stable softmax."""
    top = max(scores)
    weights = [math.exp((s - top) / temperature) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def confidence_range(
    probability: float, *, missing_fraction: float, conflict_fraction: float
) -> tuple[float, float]:
    """Interval around a probability: wider with unmeasured evidence and with evidence pulling both ways."""
    half = 0.05 + 0.15 * missing_fraction + 0.15 * conflict_fraction
    return max(0.0, probability - half), min(1.0, probability + half)


def rank_hypotheses(
    evidence: Evidence, *, temperature: float = TEMPERATURE, candidates: list[str] | None = None
) -> list[Hypothesis]:
    """Every (or every candidate) failure mode plus "no fault: normal operation", most probable first."""
    signatures = [s for s in SIGNATURES if candidates is None or s.failure_mode in candidates]
    scored = [_score_signature(s, evidence) for s in signatures]
    scores = [s.score for s in scored] + [_no_fault_score(evidence)]
    probabilities = softmax(scores, temperature)
    out: list[Hypothesis] = []
    for item, probability in zip(scored, probabilities, strict=False):
        missing = item.missing_weight / item.total_weight if item.total_weight else 1.0
        conflict = item.conflict / (item.conflict + item.support) if item.conflict + item.support else 0.0
        low, high = confidence_range(probability, missing_fraction=missing, conflict_fraction=conflict)
        out.append(
            Hypothesis(
                item.signature.failure_mode,
                item.score,
                probability,
                low,
                high,
                item.evidence_for,
                item.evidence_against,
                item.unmeasured,
                item.signature.confirm_by,
            )
        )
    none_low, none_high = confidence_range(probabilities[-1], missing_fraction=0.0, conflict_fraction=0.0)
    out.append(
        Hypothesis(
            NO_FAULT,
            scores[-1],
            probabilities[-1],
            none_low,
            none_high,
            ["no signal moved beyond its normal spread"] if scores[-1] > 0.5 else [],
            [],
            [],
            "keep monitoring; re-check after the next high-load week",
        )
    )
    return sorted(out, key=lambda h: -h.probability)
