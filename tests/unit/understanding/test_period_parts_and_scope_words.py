"""Parts of a period ("late July", "the start of 2020"), "earlier in the month", abbreviations and a month
ending a question; the site's monitored / unmonitored halves; separable phrasal verbs."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from assetops.domain.turn import TimeWindow
from graph.understanding.fleet_subset import telemetry_subset
from graph.understanding.periods import find_periods
from graph.understanding.text import Text
from graph.understanding.vocabulary import vocabulary

SITE = ZoneInfo("America/New_York")
REFERENCE = date(2020, 8, 20)


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=SITE)  # type: ignore[misc,arg-type]


def window(message: str, focus: TimeWindow | None = None) -> tuple[datetime, datetime]:
    periods = find_periods(Text.of(message).joined, vocabulary(), REFERENCE, focus, zone=SITE)
    assert periods.first is not None and periods.first.window is not None, f"no period in {message!r}"
    return periods.first.window.start, periods.first.window.end


@pytest.mark.parametrize(("message", "start", "end"), [
    ("corrective work orders since the start of 2020?", at(2020, 1, 1), at(2020, 8, 20)),
    ("running hot since late July", at(2020, 7, 22), at(2020, 8, 20)),
    ("anything in the middle of June?", at(2020, 6, 11), at(2020, 6, 21)),
    ("how was it in early 2019", at(2019, 1, 1), at(2019, 5, 1)),
    ("late 2019", at(2019, 9, 1), at(2020, 1, 1)),
    ("since mid-May", at(2020, 5, 11), at(2020, 8, 20)),
    ("ch6 alarms last mo?", at(2020, 7, 1), at(2020, 8, 1)),
    ("what about may?", at(2020, 5, 1), at(2020, 6, 1)),
])
def test_parts_of_periods_abbreviations_and_a_month_ending_a_question(message: str, start: datetime,
                                                                      end: datetime) -> None:
    assert window(message) == (start, end)


def test_may_as_a_verb_is_no_month() -> None:
    assert find_periods(Text.of("may i ask what may explain it").joined, vocabulary(), REFERENCE, zone=SITE).first is None


def test_earlier_in_the_month_runs_from_the_month_start_to_the_window_discussed() -> None:
    trip_lead_up = TimeWindow(at(2019, 7, 20), at(2019, 7, 23), "the days leading up to the trip")
    assert window("before that? anything odd earlier in the month?", trip_lead_up) == (at(2019, 7, 1), at(2019, 7, 20))
    assert window("and later in the month?", trip_lead_up) == (at(2019, 7, 23), at(2019, 8, 1))


@pytest.mark.parametrize(("message", "expected"), [
    ("of the four monitored chillers, which one has the most corrective work orders?", "telemetry"),
    ("looking only at the chillers we don't have sensors on, which one needed the most work?", "no_telemetry"),
    ("which of the unmonitored units broke down most?", "no_telemetry"),
    ("among the units with telemetry, which is worst?", "telemetry"),
    ("which chillers have no sensor data?", "no_telemetry"),
    ("which chiller is using the most power?", None),
    ("are the units' readings normal?", None),
])
def test_the_site_is_narrowed_to_its_monitored_or_unmonitored_chillers(message: str, expected: str | None) -> None:
    assert telemetry_subset(Text.of(message).joined) == expected


@pytest.mark.parametrize(("message", "joined"), [
    ("Sum it all up in one line.", "sum up it all"),
    ("write this up for my boss", "write up this"),
    ("put it all together", "put together it all"),
])
def test_a_separable_phrasal_verb_reads_joined(message: str, joined: str) -> None:
    assert joined in Text.of(message).joined


def test_a_particle_after_a_linking_verb_stays_where_it_is() -> None:
    assert Text.of("is it over?").joined.startswith("is it over")


def test_what_happens_if_we_wait_is_advice_and_how_reliable_is_a_forecast_check() -> None:
    from graph.understanding.intents import classify, score_intents
    from graph.understanding.request import read_request

    assert read_request("what happens if we leave it until September?").shape == "recommend"
    assert read_request("While it's down, would you also check the refrigerant charge?").shape == "recommend"
    scores = score_intents(Text.of("how reliable is that forecast?"), vocabulary())
    assert classify(scores, vocabulary())[0] == "evaluate_forecast"


def test_last_spring_beside_this_spring_under_discussion_is_the_spring_before() -> None:
    spring = TimeWindow(at(2021, 3, 1), at(2021, 6, 1), "this spring")
    periods = find_periods(Text.of("is it worse than last spring?").joined, vocabulary(), date(2021, 6, 15), spring,
                           zone=SITE)
    assert periods.first is not None and periods.first.window is not None
    assert (periods.first.window.start, periods.first.window.end) == (at(2020, 3, 1), at(2020, 6, 1))
    alone = find_periods(Text.of("how was last spring?").joined, vocabulary(), date(2021, 6, 15), zone=SITE)
    assert alone.first is not None and alone.first.window is not None and alone.first.window.start == at(2021, 3, 1)


def test_a_lead_in_for_a_report_is_context_and_the_question_decides() -> None:
    from graph.understanding.request import request_sentences

    assert request_sentences("for the May report: how many alarms did the plant have in April?") == \
        "how many alarms did the plant have in April?"


def test_a_misspelt_question_word_heading_a_question_is_read_as_that_word_and_with_stays_with() -> None:
    assert Text.of("wich rule is the worst offender").tokens[0] == "which"
    assert Text.of("whcih one is worse?").tokens[0] == "which"
    assert Text.of("with chiller 4 down, what now?").tokens[0] == "with"


def test_the_consequence_of_an_action_is_advice_and_doubting_the_instrument_asks_validity() -> None:
    from graph.understanding.request import read_request
    from tests.unit.planning.dialog import Dialog, steps

    assert read_request("what would happen if I keep running it through August?").shape == "recommend"
    dialog = Dialog()
    dialog.say("how did chiller 6 run last month?")
    probed = steps(dialog.say("is the return water really that warm, or just a bad probe?"))
    assert ("failure", "sensor_validity") in probed and ("failure", "diagnose") in probed
