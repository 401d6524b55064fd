"""Plans for the turns the second held-out dialog set (bench/heldout2_dialogs.yaml) found mis-planned:
chiller numbers without the word "chiller", impossible dates, resuming after "which chiller?",
misspelt intent words, and follow-ups that ask for something new. The set's exact turns plus paraphrases."""

from __future__ import annotations

from datetime import date

import pytest

from graph.understanding.assets import find_assets
from graph.understanding.text import Text
from graph.understanding.vocabulary import vocabulary
from tests.support.catalog import default_catalog
from tests.unit.planning.dialog import Dialog, at, short_sensors, step_set, steps, window_of

# ---------------------------------------------------------------- defect 1: "#6", "unit 6", "on the 9"


@pytest.mark.parametrize("message", [
    "can I trust the CHW supply temp reading on #6? over the past 6 months it looks off to me",
    "show the supply temp of no. 6 for the past 6 months",
    "unit 6 supply temp over the past 6 months",
    "how has the supply temp on # 6 been over the past 6 months?",
])
def test_a_chiller_number_without_the_word_chiller_names_that_chiller(message: str) -> None:
    decision = Dialog().say(message)
    assert decision.kind == "run"
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 6"}


def test_on_the_9_after_a_comparison_asks_about_chiller_9_alone_over_the_same_stretch() -> None:
    dialog = Dialog(reference_date=date(2019, 10, 1))
    dialog.say("How did ch3 and ch9 stack up last quarter? tonnage, % load and kw/ton side by side pls")
    decision = dialog.say("whats the avg condenser water flow on the 9 over that same stretch?")
    # an average over a stretch is the window's mean: a history read (point values are for a moment)
    assert steps(decision) == [("data", "history")]
    assert decision.tasks[0].asset_ids == ["Chiller 9"]
    assert short_sensors(decision, "history") == {"Condenser Water Flow"}
    assert window_of(decision, "history") == (at(2019, 7, 1), at(2019, 10, 1))


@pytest.mark.parametrize("message", ["top 3 alerts on the fleet", "supply temp over the past 6 weeks",
                                     "the 6 months before", "what is our #1 priority", "the 3 worst chillers",
                                     "no 2 chillers agree", "unit 99 is down", "in the 3 months since"])
def test_quantities_ranks_and_unknown_numbers_are_not_chillers(message: str) -> None:
    assert find_assets(Text.of(message), vocabulary(), default_catalog()).assets == []


# ---------------------------------------------------------------- defect 2: impossible dates


def test_an_impossible_date_in_a_range_is_asked_about_and_the_session_stays_intact() -> None:
    dialog = Dialog()
    dialog.say("chiller 4 % load feb 2020")
    decision = dialog.say("now same thing from 2020-02-31 to 2020-03-07")
    assert decision.kind == "clarify" and not decision.tasks
    assert "'2020-02-31' is not a valid date: February 2020 has 29 days." in decision.message
    assert "Which date did you mean?" in decision.message
    assert decision.focus.asset_ids == ["Chiller 4"]
    assert decision.focus.window is not None and decision.focus.window.start == at(2020, 2, 1)

    corrected = dialog.say("sorry, 2020-02-29 to 2020-03-07")
    assert corrected.kind == "run" and corrected.tasks[0].asset_ids == ["Chiller 4"]
    assert window_of(corrected, "history") == (at(2020, 2, 29), at(2020, 3, 8))
    assert short_sensors(corrected, "history") == {"Chiller % Loaded"}


def test_a_month_that_does_not_exist_says_so() -> None:
    decision = Dialog().say("chiller 4 load from 2020-13-01 to 2020-03-07")
    assert decision.kind == "clarify" and "there is no month 13" in decision.message


# ---------------------------------------------------------------- defect 3: narrowing a whole-site look
# "the chiller" with none discussed is now read across all four (issue 11); naming one afterwards narrows
# the same request, with its period and sensors, to that chiller.


@pytest.mark.parametrize(("question", "answer", "sensor", "start", "end"), [
    ("whats the avg % load on the chiller for feb 2020", "sorry, meant ch 4", "Chiller % Loaded",
     at(2020, 2, 1), at(2020, 3, 1)),
    ("show me the chiller's supply temp for march 2021", "chiller 4", "Supply Temperature",
     at(2021, 3, 1), at(2021, 4, 1)),
])
def test_naming_the_chiller_after_a_whole_site_look_narrows_the_request(question: str, answer: str, sensor: str,
                                                                        start: object, end: object) -> None:
    dialog = Dialog()
    assert dialog.say(question).scope == "fleet"
    decision = dialog.say(answer)
    assert decision.kind == "run"
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 4"}
    assert decision.tasks[0].window is not None
    assert (decision.tasks[0].window.start, decision.tasks[0].window.end) == (start, end)
    assert {s.removeprefix("Chiller 4 ") for s in decision.tasks[0].sensors} == {sensor}
    assert not any("No period given" in note for note in decision.assumptions)


# ---------------------------------------------------------------- defect 4: misspelt intent words


@pytest.mark.parametrize("typo", ["anomally", "anomoly", "anamoly", "annomaly"])
def test_a_misspelt_anomaly_still_runs_anomaly_detection(typo: str) -> None:
    decision = Dialog().say(f"run {typo} detection on ch3 chw supply temp and kW for the past 6 wks")
    assert ("timeseries", "anomaly_detection") in step_set(decision)
    assert short_sensors(decision, "anomaly_detection") >= {"Supply Temperature", "Power Input"}


@pytest.mark.parametrize(("message", "expected"), [("any anomolies on chiller 9?", "anomalies"),
                                                   ("anomolous readings", "anomalous"),
                                                   ("annual", "annual"), ("anatomy", "anatomy")])
def test_only_near_misses_of_request_words_are_corrected(message: str, expected: str) -> None:
    assert expected in Text.of(message).tokens


# ---------------------------------------------------------------- defect 5: follow-ups that ask for something new


def test_asking_which_sensors_reveal_a_named_mode_maps_that_mode_without_relisting_every_mode() -> None:
    dialog = Dialog()
    dialog.say("for chiller 6, which failure modes would actually show up in the condenser water return temp?")
    decision = dialog.say("and which sensors would give away a purge unit problem?")
    assert steps(decision) == [("failure", "sensor_mapping")]
    assert decision.tasks[0].params["failure_modes"] == ["Purge Unit Excessive purge"]
    assert decision.tasks[0].asset_ids == ["Chiller 6"]


@pytest.mark.parametrize("follow_up", ["break that down by failure code", "can you split those out by failure code?"])
def test_breaking_down_preventive_orders_by_failure_code_keeps_them_preventive(follow_up: str) -> None:
    dialog = Dialog(results={"wo_summary": {"kind": "preventive"}})
    dialog.say("Pull the PM history for CWC04010 for 2019 and 2020, how many were there?")
    decision = dialog.say(follow_up)
    assert steps(decision) == [("maintenance", "wo_summary")]
    assert decision.tasks[0].params["kind"] == "preventive"
    assert window_of(decision, "wo_summary") == (at(2019, 1, 1), at(2021, 1, 1))


def test_failure_codes_without_an_earlier_listing_are_still_the_repairs() -> None:
    decision = Dialog().say("chiller 9 work orders by failure code since 2019")
    assert decision.tasks[0].params["kind"] == "corrective"
