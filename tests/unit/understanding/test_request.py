"""The request grammar: how a message asks, read from its clause structure, whatever its topic."""

from __future__ import annotations

import pytest

from graph.understanding.request import read_request, request_sentences


@pytest.mark.parametrize(("message", "shape"), [
    ("Is the condenser pump flow lower than last summer?", "yes_no"),
    ("are the alarms on unit 3 real or nuisance", "yes_no"),
    ("Did the efficiency recover after the cleaning?", "yes_no"),
    ("any trips on ch4 in 2019?", "yes_no"),
    ("it's the evaporator, right?", "yes_no"),
    ("Which of the two burns more power at part load?", "which"),
    ("who's the worst performer this summer", "which"),
    ("How should we verify the repair worked?", "how_to"),
    ("walk me through a safe restart", "how_to"),
    ("ok, what should the night crew inspect before restarting it?", "how_to"),
    ("ok so what's the bottom line", "verdict"),
    ("Should we pull the tubes this winter?", "recommend"),
    ("Is it worth replacing the purge unit or keep repairing it?", "recommend"),
    ("Can you plot the supply temperature for May?", "open"),
    ("could you check chiller 3's alarms", "open"),
    ("Show me the kW/ton trend.", "open"),
    ("What was the average load in March?", "open"),
])
def test_the_answer_shape_comes_from_how_the_question_opens(message: str, shape: str) -> None:
    assert read_request(message).shape == shape


@pytest.mark.parametrize(("message", "writes"), [
    ("Raise a ticket for the condenser cleaning.", True),
    ("please draft a work order for it", True),
    ("schedule an inspection for next week", True),
    ("yes, go ahead and draft it", True),
    ("Should we raise a work order for this?", False),
    ("Would it be worth opening a ticket?", False),
    ("do we have any open work orders?", False),
    ("what work orders were raised in 2019?", False),
])
def test_only_a_command_to_create_a_record_is_a_write(message: str, writes: bool) -> None:
    assert read_request(message).writes is writes


@pytest.mark.parametrize(("message", "act"), [
    ("yes please", "confirm"), ("sure, do it", "confirm"), ("go ahead", "confirm"),
    ("no, not now", "decline"), ("hold off for now", "decline"),
    ("yes, and also show me the 2019 alarms for every unit", "command"),
])
def test_short_replies_confirm_or_decline_an_offer(message: str, act: str) -> None:
    assert read_request(message).act == act


@pytest.mark.parametrize(("message", "fleet"), [
    ("something in the plant is using too much power", True),
    ("which units have the most alarms this year?", True),
    ("is one of the chillers short cycling?", True),
    ("compare both chillers over june", False),
    ("what's wrong with it?", False),
])
def test_whole_site_cues(message: str, fleet: bool) -> None:
    assert read_request(message).fleet is fleet


def test_context_sentences_are_set_aside_for_the_request() -> None:
    message = "We're preparing the audit. Our boss wants numbers. What was chiller 3's power in 2019?"
    assert request_sentences(message) == "What was chiller 3's power in 2019?"
    assert request_sentences("Chiller 9 tripped. Investigate.") == "Chiller 9 tripped. Investigate."


@pytest.mark.parametrize(("message", "shape", "fleet", "comparative"), [
    ("our alarm board is a mess this week, where should we begin?", "which", False, False),
    ("is either unit drawing too much?", "yes_no", True, False),
    ("was the approach that high in 2019 too?", "yes_no", False, True),
    ("could you start with chiller 4 and show its flow for may", "open", False, False),
])
def test_structural_rules_read_the_kind_of_request_not_listed_sentences(message: str, shape: str, fleet: bool,
                                                                        comparative: bool) -> None:
    reading = read_request(message)
    assert (reading.shape, reading.fleet, reading.comparative) == (shape, fleet, comparative)


def test_a_which_opening_asks_for_a_pick_even_with_should_inside() -> None:
    from graph.understanding.request import read_request
    assert read_request("which units should I worry about before the heat wave next week?").shape == "which"
    assert read_request("should we worry about chiller 6?").shape == "recommend"


def test_how_do_asks_for_steps_only_when_a_person_follows() -> None:
    from graph.understanding.request import read_request
    assert read_request("how do the four chillers stack up on efficiency this year?").shape == "open"
    assert read_request("how do we clean the condenser tubes?").shape == "how_to"


def test_what_would_it_take_asks_for_a_procedure() -> None:
    from graph.understanding.request import read_request
    assert read_request("what would it take to get the worst one back to normal?").shape == "how_to"


@pytest.mark.parametrize(("message", "job"), [
    ("Is it worth taking it down for a condenser tube cleaning before July, or can that wait till the fall?",
     "condenser tube cleaning"),
    ("Should I pull it offline for a leak check now, or ride it out until the fall?", "leak check"),
    ("so what's the verdict, clean it now or wait for the fall shutdown?", "cleaning"),
    ("what should I check first?", None),
])
def test_the_job_named_in_advice_is_read(message: str, job: str | None) -> None:
    from graph.understanding.request import named_job

    assert named_job(message) == job


def test_a_verdict_asked_as_a_choice_of_action_wants_a_recommendation() -> None:
    assert read_request("so what's the verdict, clean it now or wait for the fall shutdown?").shape == "recommend"
    assert read_request("so what's the verdict?").shape == "verdict"


@pytest.mark.parametrize(("message", "parts"), [
    ("so what caused it, and how do we know it's properly fixed?", 2),
    ("what should I check first for this issue? do we need to shut it down?", 2),
    ("what was its kW/ton in May, and in May last year?", 1),
])
def test_a_message_is_split_into_the_questions_it_asks(message: str, parts: int) -> None:
    from graph.understanding.request import question_parts

    assert len(question_parts(message)) == parts


@pytest.mark.parametrize(("message", "shape"), [
    ("better than march the year before?", "yes_no"),
    ("the others alright?", "yes_no"),
    ("accurate enough to schedule the crews with?", "yes_no"),
    ("condenser approach drifting up as well?", "yes_no"),
    ("still climbing?", "yes_no"),
    ("tonnage for the same period?", "open"),
    ("cooling tower side?", "open"),
    ("forecasting error on that?", "open"),
])
def test_a_question_without_its_auxiliary_is_yes_no_when_it_says_a_state(message: str, shape: str) -> None:
    assert read_request(message).shape == shape


@pytest.mark.parametrize(("message", "change"), [
    ("condenser approach creeping up too?", True),
    ("return temp drifting again over the same stretch?", True),
    ("the load dropping lately?", True),
    ("supply temp for the same stretch?", False),
])
def test_a_move_asked_without_its_auxiliary_asks_about_change(message: str, change: bool) -> None:
    assert read_request(message).asks_change is change


@pytest.mark.parametrize(("message", "fleet"), [
    ("sum it up in three lines for the plant manager", False),
    ("send the site team a short summary", False),
    ("anything off across the plant this week?", True),
])
def test_a_title_with_plant_or_site_in_it_is_not_the_whole_site(message: str, fleet: bool) -> None:
    assert read_request(message).fleet is fleet


def test_those_three_months_point_back_at_the_period_discussed() -> None:
    from datetime import date

    from graph.understanding import understand
    from tests.support.catalog import default_catalog
    assert "window" in understand("how many repairs over those three months?", date(2021, 7, 1),
                                  catalog=default_catalog()).references


@pytest.mark.parametrize(("message", "writes"), [
    ("list the open work orders", False),
    ("show me all open tickets on 9", False),
    ("list open work orders", False),
    ("please open a ticket for the leak", True),
    ("pull the data and raise a work order for it", True),
])
def test_a_write_verb_that_describes_the_records_orders_nothing(message: str, writes: bool) -> None:
    assert read_request(message).writes is writes


@pytest.mark.parametrize("message", [
    "6's supply temp looks high to me this week, can you confirm",
    "I think the strainer on 4 is blocked - is that right?",
    "pretty sure the kW jumped after the PM. does the data back that up?",
])
def test_asking_to_check_a_claim_is_a_yes_no_question_about_it(message: str) -> None:
    assert read_request(message).shape == "yes_no"


@pytest.mark.parametrize(("message", "fleet"), [
    ("anything else on site this month worth flagging?", True),
    ("is there anything on site I should look at first?", True),
    ("can we get a tech on site tomorrow?", False),
    ("the contractor was on site last week, did it help?", False),
])
def test_on_site_is_the_site_as_scope_unless_someone_is_there(message: str, fleet: bool) -> None:
    assert read_request(message).fleet is fleet
