"""Normalisation, asset, sensor, failure-mode and id extraction."""

from __future__ import annotations

import pytest

from graph.understanding.assets import find_assets
from graph.understanding.identifiers import find_failure_modes, find_rule_ids, find_work_order_ids
from graph.understanding.sensors import expand, find_sensors
from graph.understanding.text import Text, edit_distance
from graph.understanding.vocabulary import vocabulary
from tests.support.catalog import default_catalog

VOCAB = vocabulary()


def assets_of(message: str) -> list[str]:
    return find_assets(Text.of(message), VOCAB, default_catalog()).assets


@pytest.mark.parametrize(("left", "right", "expected"), [
    ("chiller", "chiller", 0), ("chiler", "chiller", 1), ("chlilre", "chiller", 2), ("chillr", "chiller", 1),
    ("abc", "xyz", 3),
])
def test_edit_distance_counts_edits_and_swaps(left: str, right: str, expected: int) -> None:
    assert edit_distance(left, right) == expected


def test_abbreviations_are_expanded_but_times_keep_pm() -> None:
    tokens = Text.of("CH9 supply temp w/o at 3 pm, show pm history").tokens
    assert tokens[:4] == ("chiller", "9", "supply", "temperature")
    assert tokens[4:6] == ("work", "order")
    assert tokens[tokens.index("3") + 1] == "pm"
    assert "preventive" in tokens


@pytest.mark.parametrize(("message", "expected"), [
    ("Chiller 9 tripped", ["Chiller 9"]),
    ("chiler 9 and Chillr 6", ["Chiller 9", "Chiller 6"]),
    ("ch 4 vs ch#3", ["Chiller 4", "Chiller 3"]),
    ("chiller #9", ["Chiller 9"]),
    ("chillers 3 and 4", ["Chiller 3", "Chiller 4"]),
    ("Chillers 3, 4 and 9", ["Chiller 3", "Chiller 4", "Chiller 9"]),
    ("CWC04009 history", ["Chiller 9"]),
    ("cwc04006 and CWC04703", ["Chiller 6", "Chiller 3"]),
    ("chiller 14 work orders", ["Chiller 14"]),
    ("chiller 9 and 2 other sensors", ["Chiller 9"]),
    ("chilled water supply", []),
])
def test_assets_are_found_with_typos_ids_and_lists(message: str, expected: list[str]) -> None:
    assert assets_of(message) == expected


def test_unknown_chillers_and_ids_are_reported_not_dropped() -> None:
    mentions = find_assets(Text.of("Chiller 99 and CWC09999"), VOCAB, default_catalog())
    assert mentions.assets == []
    assert mentions.unknown == ["Chiller 99", "CWC09999"]


def test_all_chillers_bare_word_other_equipment_and_unknown_site() -> None:
    assert find_assets(Text.of("compare all chillers"), VOCAB, default_catalog()).all_assets
    assert find_assets(Text.of("check the chiller"), VOCAB, default_catalog()).bare_asset_word
    assert find_assets(Text.of("what about AHU 2"), VOCAB, default_catalog()).other_equipment == ["AHU 2"]
    assert find_assets(Text.of("chiller 3 at site NORTH"), VOCAB, default_catalog()).unknown_site == "NORTH"
    assert find_assets(Text.of("chiller 3 at site MAIN"), VOCAB, default_catalog()).unknown_site is None


@pytest.mark.parametrize(("message", "expected"), [
    ("supply temp", ["Supply Temperature"]),
    ("chw supply and condenser flow", ["Supply Temperature", "Condenser Water Flow"]),
    ("kw/ton and power", ["Chiller Efficiency", "Power Input"]),
    ("the cooling load", ["Tonnage"]),
    ("load", ["Chiller % Loaded"]),
    ("evaporator approach", ["Supply Temperature", "Liquid Refrigerant Evaporator Temperature"]),
    ("refrigerant temp", ["Liquid Refrigerant Evaporator Temperature"]),
])
def test_loose_sensor_names_map_to_canonical_names(message: str, expected: list[str]) -> None:
    assert find_sensors(Text.of(message), VOCAB).canonical == expected


def test_other_and_all_sensor_phrases_are_flags() -> None:
    assert find_sensors(Text.of("rank them using the other sensors"), VOCAB).other_sensors
    assert find_sensors(Text.of("are any sensors unreliable"), VOCAB).all_sensors


def test_chiller_6_gets_its_condenser_return_sensor_with_a_note() -> None:
    full, notes = expand(["Chiller 9", "Chiller 6"], ["Condenser Water Supply To Chiller Temperature"], VOCAB, default_catalog())
    assert full == ["Chiller 9 Condenser Water Supply To Chiller Temperature",
                    "Chiller 6 Condenser Water Return To Tower Temperature"]
    assert any("Chiller 6" in note for note in notes)


def test_sensors_are_not_expanded_for_chillers_without_telemetry() -> None:
    assert expand(["Chiller 1"], ["Supply Temperature"], VOCAB, default_catalog()) == ([], [])


@pytest.mark.parametrize(("message", "expected"), [
    ("is it condenser fouling?", "Condenser Water side fouling"),
    ("could the condensor be fouled? condenser watr side fouling", "Condenser Water side fouling"),
    ("looks like a refrigerant leak", "Purge Unit Excessive purge"),
    ("evaporator water-side fouling", "Evaporator Water side fouling"),
    ("the compressor is overheating", "Compressor Overheating: Failed due to Normal wear, overheating"),
])
def test_failure_modes_match_the_curated_strings(message: str, expected: str) -> None:
    assert expected in find_failure_modes(Text.of(message), VOCAB)


def test_rule_and_work_order_ids() -> None:
    text = Text.of("RUL0018, rule 22 and rul17; see WO16228")
    assert find_rule_ids(text) == ["RUL0018", "RUL0022", "RUL0017"]
    assert find_work_order_ids(text) == ["WO16228"]


def test_supply_and_return_together_name_both_sensors() -> None:
    assert find_sensors(Text.of("ch9 supply and return temps"), VOCAB).canonical == [
        "Supply Temperature", "Return Temperature"]


@pytest.mark.parametrize("message", [
    "Anything odd at the site recently? It's been a brutal summer for cooling.",
    "What changed across our site over the summer?",
    "Alarms all over the site, where do I start?",
    "is anything wrong site-wide",
    "How is the site on power this week?",
])
def test_ordinary_words_after_site_are_not_site_names(message: str) -> None:
    assert find_assets(Text.of(message), VOCAB, default_catalog()).unknown_site is None


@pytest.mark.parametrize(("message", "site"), [
    ("How are the chillers at site NORTH?", "NORTH"),
    ("check chiller 3 at Site Ridgeview", "RIDGEVIEW"),
    ("site B2 chillers please", "B2"),
])
def test_a_site_written_as_a_name_is_reported_unknown(message: str, site: str) -> None:
    assert find_assets(Text.of(message), VOCAB, default_catalog()).unknown_site == site


def test_a_possessive_number_after_the_is_a_chiller() -> None:
    mentions = find_assets(Text.of("Could any of the 6's repairs this year have been done in one visit?"), VOCAB,
                           default_catalog())
    assert mentions.assets == ["Chiller 6"]
    assert find_assets(Text.of("the 3's and the 99's"), VOCAB, default_catalog()).assets == ["Chiller 3"]


@pytest.mark.parametrize(("message", "assets"), [
    ("ok, draft a wo to get 6's condenser tubes cleaned this week", ["Chiller 6"]),
    ("The evaporator refrigerant temp on 4 has been sliding for weeks", ["Chiller 4"]),
    ("same for 6?", ["Chiller 6"]),
    ("on 6 June it tripped", []),  # a date
    ("it ran for 3 days", []),  # a duration
    ("we had 4 alarms on 3 occasions", []),
    ("back in the 1990's", []),  # a decade
])
def test_a_bare_number_after_a_preposition_or_owning_something_is_a_chiller(message: str, assets: list[str]) -> None:
    assert assets_of(message) == assets


@pytest.mark.parametrize(("message", "assets"), [
    ("Between 3 and 4, which one has been losing refrigerant this summer?", ["Chiller 3", "Chiller 4"]),
    ("between 2 and 5 days ago", []),
    ("between 3 and 4 pm", []),
    ("load between 3 and 9 %", []),
])
def test_a_pair_of_chiller_numbers_to_choose_between(message: str, assets: list[str]) -> None:
    assert find_assets(Text.of(message), VOCAB, default_catalog()).assets == assets


@pytest.mark.parametrize(("message", "tokens"), [
    ("evap aproach", ("evaporator", "approach")),
    ("condensor water flow", ("condenser", "water", "flow")),
    ("evaporater fouling", ("evaporator", "fouling")),
    ("leaking refrigirant", ("leaking", "refrigerant")),  # a known word is never "corrected"
    ("reading the heading", ("reading", "the", "heading")),
])
def test_a_technical_word_one_edit_away_is_read_as_that_word(message: str, tokens: tuple[str, ...]) -> None:
    assert Text.of(message).tokens == tokens


def test_a_misspelt_request_cue_is_read_as_the_cue() -> None:
    assert Text.of("alrms 2?").tokens == ("alarms", "2", "?")
    assert Text.of("plans for the week").tokens == ("plans", "for", "the", "week")


def test_y_question_mark_is_why() -> None:
    assert Text.of("y?").tokens == ("why", "?")
    assert Text.of("y").tokens == ("y",)


@pytest.mark.parametrize(("message", "assets"), [
    ("for 6, what were they mostly?", ["Chiller 6"]),
    ("the ones on 6, real problem or noise?", ["Chiller 6"]),
    ("it ran for 6. then it stopped", []),  # "for 6 [hours]." may count: a full stop is no proof
    ("load rose by 6.5 percent", []),
    ("at 6, the alarm fired", []),  # a time
])
def test_a_preposition_number_that_ends_its_clause_is_a_chiller(message: str, assets: list[str]) -> None:
    assert assets_of(message) == assets


@pytest.mark.parametrize(("message", "expected"), [
    ("out of 1, 10 and 12 which one had the most repairs", ["Chiller 1", "Chiller 10", "Chiller 12"]),
    ("anything logged against 13?", ["Chiller 13"]),
    ("what's 2 most likely to need next", ["Chiller 2"]),
    ("and 9 was fine in march, right?", ["Chiller 9"]),
    ("did 6 trip last night?", ["Chiller 6"]),
    ("4 vs 3 for march, power and tons", ["Chiller 4", "Chiller 3"]),
    ("compare 3 and 9 supply temps last week", ["Chiller 3", "Chiller 9"]),
    ("12 threw a bunch of high approach alarms overnight", ["Chiller 12"]),  # irregular past tense
    ("10 tripped twice on tuesday, why?", ["Chiller 10"]),  # regular past tense
])
def test_bare_numbers_in_a_chillers_place_are_chillers(message: str, expected: list[str]) -> None:
    assert assets_of(message) == expected


@pytest.mark.parametrize("message", [
    "the last 3 and 4 weeks", "march 3 and 4 were hot", "did it trip more than 3?", "is 3 enough samples?",
    "give me 2 or 3 bullets", "3 vs 4 weeks of data", "at 2 and 4 pm", "about 6 days ago", "out of 7 sensors", "what 3 things matter",
    "2 scheduled jobs are overdue", "12 related alarms fired", "10 opened work orders",
])
def test_numbers_that_count_or_date_stay_numbers(message: str) -> None:
    assert assets_of(message) == []


@pytest.mark.parametrize(("message", "expected"), [
    ("any readings on 2 flatlining lately?", ["Chiller 2"]),
    ("anything on 10 drifting?", ["Chiller 10"]),
    ("the alarms on 12 that fired overnight, real or noise?", ["Chiller 12"]),  # a relative clause about it
])
def test_a_bare_number_after_on_before_a_participle_is_a_chiller(message: str, expected: list[str]) -> None:
    assert assets_of(message) == expected
