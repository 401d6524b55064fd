"""What to measure next and what changed since the last diagnosis (pure)."""

from __future__ import annotations

from typing import Any

from specialists.common.evidence import Evidence
from specialists.failure.scoring import Hypothesis, observed_z
from specialists.failure.signatures import NO_FAULT, SIGNATURE_BY_MODE

_WORDS = {1: "a rise", -1: "a fall", 0: "no change"}


def discriminating_measurement(first: Hypothesis, second: Hypothesis, evidence: Evidence) -> str:
    """The measurement that would best tell the top two hypotheses apart.

    Preferred: a signal the two signatures predict differently that was not measured (or only weakly);
    otherwise the signal with the largest disagreement, plus the confirming test of the leader.
    """
    one, two = SIGNATURE_BY_MODE.get(first.failure_mode), SIGNATURE_BY_MODE.get(second.failure_mode)
    if one is None or two is None:
        leader = one or two
        return (
            f"To confirm: {leader.confirm_by}."
            if leader
            else "Keep monitoring; nothing separates the leaders."
        )
    expected_one = {e.signal: (e.direction, e.weight) for e in one.expectations}
    expected_two = {e.signal: (e.direction, e.weight) for e in two.expectations}
    candidates: list[tuple[float, str, int, int, float | None]] = []
    for signal in set(expected_one) | set(expected_two):
        d1, w1 = expected_one.get(signal, (0, 0.0))
        d2, w2 = expected_two.get(signal, (0, 0.0))
        if d1 == d2:
            continue
        z, _ = observed_z(evidence, signal)
        unresolved = 2.0 if z is None else 1.0 if abs(z) < 1.5 else 0.5
        candidates.append((unresolved * (w1 + w2) * abs(d1 - d2), signal, d1, d2, z))
    if not candidates:
        return f"To separate them: {first.confirm_by} (for {first.failure_mode}) vs {second.confirm_by}."
    _, signal, d1, d2, z = max(candidates)
    seen = "not measured yet" if z is None else f"now z {z:+.1f}"
    return (
        f"Watch {signal}: {first.failure_mode} predicts {_WORDS[d1]}, {second.failure_mode} predicts "
        f"{_WORDS[d2]} ({seen}). Decisive test: {first.confirm_by}."
    )


def revise(previous: list[dict[str, Any]], current: list[Hypothesis]) -> list[str]:
    """Plain statements of what changed against an earlier ranking (its `as_dict` rows)."""
    if not previous:
        return []
    before = {
        row["failure_mode"]: (rank, float(row.get("probability", 0.0)))
        for rank, row in enumerate(previous, 1)
    }
    changes: list[str] = []
    for rank, hypothesis in enumerate(current[:4], 1):
        old = before.get(hypothesis.failure_mode)
        if old is None:
            changes.append(f"{hypothesis.failure_mode} is new at rank {rank} ({hypothesis.probability:.2f}).")
            continue
        old_rank, old_p = old
        if old_rank != rank or abs(old_p - hypothesis.probability) >= 0.05:
            changes.append(
                f"{hypothesis.failure_mode}: {old_p:.2f} -> {hypothesis.probability:.2f} "
                f"(rank {old_rank} -> {rank})."
            )
    leader_before = previous[0]["failure_mode"]
    if current and current[0].failure_mode != leader_before:
        changes.insert(
            0, f"The leading hypothesis changed from {leader_before} to {current[0].failure_mode}."
        )
    return changes


def headline(hypotheses: list[Hypothesis]) -> str:
    """One line: the top hypotheses with their confidence ranges."""
    shown = [h for h in hypotheses if h.failure_mode != NO_FAULT][:3]
    parts = [f"{h.failure_mode} {h.low:.2f}-{h.high:.2f}" for h in shown]
    if hypotheses and hypotheses[0].failure_mode == NO_FAULT:
        parts.insert(0, f"{NO_FAULT.lower()} {hypotheses[0].low:.2f}-{hypotheses[0].high:.2f}")
    return "; ".join(parts)
