"""Any message, any focus: a well-formed Decision, never an exception (seeded random phrase soup)."""

from __future__ import annotations

import random
from datetime import date

import pytest

from assetops.domain.actions import ACTIONS
from assetops.domain.turn import Decision, Focus, TimeWindow
from graph.planning import plan_turn
from graph.understanding.vocabulary import vocabulary
from tests.support.catalog import default_catalog
from tests.unit.planning.dialog import Dialog, at

FRAGMENTS = [
    "chiller 9", "Chiller 3 and 4", "ch6", "CWC04704", "chiller 12", "Chiller 99", "all chillers", "both",
    "it", "that one", "the other sensors", "the most likely one", "those work orders", "supply temp", "kw/ton",
    "condenser flow", "approach", "last month", "since 2018", "2035", "Feb 30 2020", "next two weeks",
    "the day before the trip", "same period last year", "summer", "Mar-May 2021", "RUL0018", "WO16228",
    "condenser fouling", "AHU 2", "site NORTH", "?", "!!", "12:30", "3 pm", "", "\n", "é漢字", "%", "#",
]


def soup(rng: random.Random) -> str:
    phrases = [p for rule in vocabulary().intents for p in rule.phrases if " + " not in p]
    parts = rng.sample(phrases, rng.randint(0, 3)) + rng.sample(FRAGMENTS, rng.randint(0, 4))
    rng.shuffle(parts)
    return " ".join(parts)


def well_formed(decision: Decision) -> None:
    assert decision.kind in ("run", "answer", "clarify", "reject")
    if decision.kind == "run":
        assert decision.tasks and decision.message.startswith("Plan:")
    else:
        assert decision.message and not decision.tasks
    for index, task in enumerate(decision.tasks):
        assert task.action in ACTIONS[task.specialist]
        assert all(0 <= dep < index for dep in task.depends_on)
        if task.window is not None:
            assert task.window.start < task.window.end
            assert task.window.start.tzinfo is not None


FOCUSES = [
    Focus(),
    Focus(asset_ids=["Chiller 9"], equipment_ids=["CWC04009"],
          window=TimeWindow(at(2021, 5, 1), at(2021, 7, 1), "last two months"),
          sensors=["Chiller 9 Supply Temperature"], hypotheses=["Evaporator Water side fouling"],
          rule_ids=["RUL0018"], last_intent="diagnose"),
    Focus(asset_ids=["Chiller 3", "Chiller 4"], window=TimeWindow(at(2020, 8, 1), at(2020, 9, 1), "August 2020"),
          last_intent="compare"),
    Focus(asset_ids=["Chiller 12"], last_intent="work_orders"),
]


@pytest.mark.parametrize("seed", range(3))
def test_random_phrase_soup_always_gives_a_well_formed_decision(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        for focus in FOCUSES:
            well_formed(plan_turn(soup(rng), focus, rng.choice([date(2021, 7, 1), date(2020, 7, 15),
                                                               date(2026, 11, 20)]), catalog=default_catalog()))


def test_a_whole_scripted_conversation_stays_well_formed() -> None:
    dialog = Dialog()
    rng = random.Random(42)
    for _ in range(40):
        well_formed(dialog.say(soup(rng)))


def test_planning_is_pure_same_inputs_same_decision_and_focus_untouched() -> None:
    focus = FOCUSES[1]
    before = repr(focus)
    first = plan_turn("rank them using the other sensors", focus, date(2021, 7, 1), catalog=default_catalog())
    second = plan_turn("rank them using the other sensors", focus, date(2021, 7, 1), catalog=default_catalog())
    assert repr(first) == repr(second)
    assert repr(focus) == before
