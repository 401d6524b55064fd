"""Failure modes ranked by described symptoms: the directions read next to each reading, held against each
mode's expected signature."""

from __future__ import annotations

import pytest

from graph.answering.symptom_modes import modes_for_symptoms, symptom_answer
from graph.understanding.symptoms import Symptom, described_symptoms
from graph.understanding.text import Text
from graph.understanding.vocabulary import vocabulary


@pytest.mark.parametrize(("message", "expected"), [
    ("which fault would push the power up and the leaving temperature higher?",
     [Symptom("Power Input", 1), Symptom("Supply Temperature", 1)]),
    ("condenser flow dropping while the condenser return goes up", [Symptom("Condenser Water Flow", -1),
                                                                    Symptom("Condenser Water Return To Tower Temperature", 1)]),
    ("what failure modes does chiller 6 have?", []),
])
def test_a_direction_word_beside_a_reading_is_a_symptom(message: str, expected: list[Symptom]) -> None:
    assert described_symptoms(Text.of(message), vocabulary()) == expected


def test_the_mode_whose_signature_predicts_every_symptom_ranks_first() -> None:
    ranked = modes_for_symptoms([Symptom("Power Input", 1), Symptom("Supply Temperature", 1)])
    assert ranked[0].failure_mode.startswith("Compressor Overheating")
    assert set(ranked[0].explains) == {"power input up", "supply temperature up"}
    flow = modes_for_symptoms([Symptom("Condenser Water Flow", -1)])
    assert flow[0].failure_mode == "Condenser Improper water side flow rate"


def test_no_symptom_or_no_mode_predicting_it_gives_no_answer() -> None:
    assert symptom_answer([]) is None
    assert symptom_answer([Symptom("Tonnage", 1)]) is None  # no signature predicts more tons
