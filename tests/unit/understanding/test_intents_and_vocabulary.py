"""Intent classification and the integrity of the vocabulary file."""

from __future__ import annotations

import pytest

from assetops.db.tables import SENSOR_COLUMNS
from graph.planning.offline import RECIPES
from graph.understanding import understand
from graph.understanding.text import Text
from graph.understanding.vocabulary import vocabulary
from tests.support.catalog import default_catalog
from tests.unit.planning.dialog import REFERENCE

CURATED_CHILLER_MODES = {
    "Compressor Overheating: Failed due to Normal wear, overheating",
    "Heat Exchangers: Fans: Degraded motor or worn bearing due to Normal use",
    "Evaporator Water side fouling",
    "Condenser Water side fouling",
    "Condenser Improper water side flow rate",
    "Purge Unit Excessive purge",
    "Refrigerant Operated Control Valve Failed spring",
}


def intents_of(message: str) -> list[str]:
    return understand(message, REFERENCE, catalog=default_catalog()).intents


@pytest.mark.parametrize(("message", "expected"), [
    ("What can you do?", "capabilities"),
    ("how can you help me?", "capabilities"),
    ("which chillers do you have?", "inventory"),
    ("What data do you have on Chiller 6?", "data_coverage"),
    ("how far back does the data for ch6 go", "data_coverage"),
    ("And what models can I run on it?", "models"),
    ("Review Chiller 9's last two months.", "history"),
    ("pull the supply temp for chiller 3 last week", "history"),
    ("Compare how Chillers 3 and 4 performed in August 2020.", "compare"),
    ("chiller 3 vs chiller 4 efficiency in june", "compare"),
    ("anything unusual on chiller 9 lately?", "anomalies"),
    ("Forecast both for the next two weeks.", "forecast"),
    ("what will the tonnage of chiller 4 be next week", "forecast"),
    ("Fine-tune a forecaster for Chiller 3 tonnage on 2019 data.", "finetune"),
    ("retrain the model on chiller 9 power for 2020", "finetune"),
    ("Use it to forecast the first week of 2020 and tell me how far off it was.", "evaluate_forecast"),
    ("how accurate is the tuned model against actuals?", "evaluate_forecast"),
    ("Are any Chiller 6 sensors unreliable over the last quarter?", "sensor_health"),
    ("any stuck or flatlined sensors on ch9?", "sensor_health"),
    ("Is the supply temperature drift real?", "sensor_validity"),
    ("is it a sensor problem or a real process change?", "sensor_validity"),
    ("Suggest better thresholds.", "thresholds"),
    ("we get too many false alarms, what limits should we use?", "thresholds"),
    ("Which failure modes could explain that?", "failure_modes"),
    ("what could cause this?", "failure_modes"),
    ("Rank them using the other sensors.", "diagnose"),
    ("Root cause and severity?", "diagnose"),
    ("Cause?", "diagnose"),
    ("Give me a summary of corrective maintenance on CWC04006 since 2018.", "work_orders"),
    ("show me the pm/cm history of chiller 9", "work_orders"),
    ("Any of those that should have been done in one visit?", "bundling"),
    ("could any of those jobs have been batched together?", "bundling"),
    ("What is likely to come next?", "predict_next"),
    ("We keep getting alerts on Chiller 3. Which rules fire and how often?", "alerts"),
    ("Do any of them actually lead to maintenance?", "alert_to_failure"),
    ("Draft a work order for the most likely one.", "draft_wo"),
    ("raise a ticket for it", "draft_wo"),
    ("Chiller 9 just tripped. Investigate.", "investigate"),
    ("something is off with chiller 4, can you look into it?", "investigate"),
    ("How do we restart safely?", "restart"),
    ("how do we know it's fixed?", "validation"),
    ("Plan the fix.", "plan_fix"),
    ("Which one needs attention first and why?", "prioritize"),
    ("Summarise all of this for management.", "report"),
    ("write up an executive summary for my boss", "report"),
])
def test_messages_get_their_intent(message: str, expected: str) -> None:
    assert expected in intents_of(message)


def test_a_message_can_carry_several_intents() -> None:
    assert set(intents_of("Any anomalies or rule violations?")) == {"anomalies", "alerts"}
    assert set(intents_of("How do we restart safely, and how do we know it's fixed?")) == {"restart", "validation"}


def test_specific_intents_suppress_the_generic_ones_they_contain() -> None:
    assert intents_of("Fine-tune a forecaster for Chiller 3") == ["finetune"]
    assert "work_orders" not in intents_of("Draft a work order for chiller 9")


def test_noise_has_no_intent() -> None:
    assert intents_of("blah blah") == []


def test_every_intent_has_a_recipe_or_is_answered_directly() -> None:
    names = {rule.name for rule in vocabulary().intents}
    assert names - set(RECIPES) == {"capabilities"}


def test_suppressed_intents_exist() -> None:
    names = {rule.name for rule in vocabulary().intents}
    for rule in vocabulary().intents:
        assert set(rule.suppresses) <= names, rule.name


def test_sensor_aliases_point_at_real_sensor_names() -> None:
    vocab = vocabulary()
    targets = set(vocab.sensor_aliases.values()) | {s for group in vocab.sensor_groups.values() for s in group}
    targets |= set(vocab.sensor_substitutes) | set(vocab.sensor_context) | set(vocab.sensor_companions)
    assert targets <= set(SENSOR_COLUMNS)


def test_failure_modes_are_exactly_the_curated_chiller_list() -> None:
    assert set(vocabulary().failure_modes) == CURATED_CHILLER_MODES


def test_inflections_share_a_stem() -> None:
    from graph.understanding.text import stem
    assert {stem(w) for w in ("cause", "causes", "causing", "caused")} == {"caus"}
    assert {stem(w) for w in ("fire", "fires", "firing")} == {"fir"}
    assert stem("explains") == stem("explain")
    assert stem("running") == "run" and stem("class") == "class"


def test_a_request_phrase_in_another_inflection_still_counts_but_weighs_less() -> None:
    from graph.understanding.intents import classify, score_intents
    vocab = vocabulary()
    causing = score_intents(Text.of("so what's causing the ones on the first chiller?"), vocab)
    assert "diagnose" in classify(causing, vocab)
    fires = score_intents(Text.of("which rule fires most on the 9?"), vocab)
    assert "alerts" in classify(fires, vocab)
    # as written it weighs more than in another inflection
    assert score_intents(Text.of("what caused it"), vocab)["diagnose"] > score_intents(
        Text.of("what causes it"), vocab)["diagnose"]
    # and "DROP TABLE" is not a lone cue of "dropped" as written
    assert score_intents(Text.of("DROP TABLE users"), vocab, inflected=False) == {}
