"""Failure modes ranked by the symptoms a question describes ("what kind of failure gives you more kW and a
warmer leaving temp?"): each mode's expected signature (specialists/failure/signatures.py, the table the
diagnosis scores measured evidence with) held against the described directions.

Pure: symptoms in, ranked modes out. A mode scores the weight of each symptom its signature predicts, loses it
where the signature says that reading stays normal or moves the other way, and is left out when it predicts
none of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from graph.understanding.symptoms import Symptom
from specialists.common.derived import KW_PER_TON, SUPPLY_OFFSET
from specialists.failure.signatures import NO_FAULT, SIGNATURES

# A described reading as the signature table names its signal (the chilled-water supply is judged against its
# setpoint, kW/ton as the derived figure).
_SIGNAL_OF = {"Supply Temperature": SUPPLY_OFFSET, "Chiller Efficiency": KW_PER_TON}
MAX_MODES = 3


@dataclass(frozen=True)
class SymptomMatch:
    """A failure mode, how well its signature fits the described symptoms, and those it explains."""

    failure_mode: str
    score: float
    explains: tuple[str, ...]
    against: tuple[str, ...]
    confirm_by: str


def _said(symptom: Symptom) -> str:
    return f"{symptom.sensor.lower()} {'up' if symptom.direction > 0 else 'down'}"


def modes_for_symptoms(symptoms: list[Symptom]) -> list[SymptomMatch]:
    """The modes whose signatures predict the described moves, best fit first."""
    matches = []
    for signature in SIGNATURES:
        if signature.failure_mode == NO_FAULT:
            continue
        expected = {e.signal: e for e in signature.expectations}
        score, explains, against = 0.0, [], []
        for symptom in symptoms:
            expectation = expected.get(_SIGNAL_OF.get(symptom.sensor, symptom.sensor))
            if expectation is None:
                continue
            if expectation.direction == symptom.direction:
                score += expectation.weight
                explains.append(_said(symptom))
            else:
                score -= expectation.weight
                against.append(_said(symptom))
        if explains and score > 0:
            matches.append(SymptomMatch(signature.failure_mode, score, tuple(explains), tuple(against),
                                        signature.confirm_by))
    return sorted(matches, key=lambda m: -m.score)


def symptom_answer(symptoms: list[Symptom]) -> tuple[str, list[str]] | None:
    """(first sentence, one line per mode) for the described symptoms; None when none is described or no mode
    predicts them."""
    ranked = modes_for_symptoms(symptoms)
    if not symptoms or not ranked:
        return None
    said = " and ".join(_said(s) for s in symptoms)
    best = ranked[0]
    if len(symptoms) == 1:
        first = f"{best.failure_mode} is the likeliest failure behind {said}, going by each mode's expected signature."
    else:
        fits = "fits them all" if len(best.explains) == len(symptoms) else f"explains {', '.join(best.explains)}"
        first = f"{best.failure_mode} is the failure that {fits} ({said}), going by each mode's expected signature."
    lines = [f"- {m.failure_mode}: explains {', '.join(m.explains)}"
             + (f"; but it predicts otherwise for {', '.join(m.against)}" if m.against else "")
             + f". To confirm: {m.confirm_by}." for m in ranked[:MAX_MODES]]
    return first, lines
