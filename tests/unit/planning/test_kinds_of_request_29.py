"""Kinds of request met this stop: a bare month said while an earlier year is discussed belongs to that year, and a
reading said to be higher or lower than in another period is that reading set against the period discussed."""

from __future__ import annotations

from datetime import date

from tests.unit.planning.dialog import Dialog, at

SUMMER = date(2021, 7, 1)


def _windows(decision: object) -> set[tuple[object, object]]:
    return {(t.window.start, t.window.end) for t in decision.tasks if t.window}  # type: ignore[attr-defined]


def test_a_bare_month_after_a_month_of_an_earlier_year_is_in_that_year() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("chiller 9 power in june 2020")
    assert _windows(dialog.say("what about may?")) == {(at(2020, 5, 1), at(2020, 6, 1))}


def test_a_bare_month_not_yet_begun_in_the_discussed_year_is_the_latest_one() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("chiller 9 power last month")  # June 2021: December 2021 has not begun
    assert _windows(dialog.say("and december?")) == {(at(2020, 12, 1), at(2021, 1, 1))}


def test_a_message_that_dates_a_period_itself_takes_no_year_from_the_dialog() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("chiller 9 power in june 2020")
    decision = dialog.say("compare march 2019 with may")
    assert (at(2020, 5, 1), at(2020, 6, 1)) not in _windows(decision)


def test_higher_than_a_month_after_a_reading_compares_the_two_periods() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("chiller 9 power in june 2020")
    for follow_up in ("is that higher than may?", "was it lower in march?", "hotter than the year before?"):
        probe = Dialog(reference_date=SUMMER, focus=dialog.focus, artifacts=list(dialog.artifacts))
        decision = probe.say(follow_up)
        assert "compare" in [t.action for t in decision.tasks], follow_up
        assert "anomaly_detection" not in [t.action for t in decision.tasks], follow_up
        assert (at(2020, 6, 1), at(2020, 7, 1)) in _windows(decision)


def test_higher_than_normal_is_still_a_look_for_anomalies() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("chiller 9 power in june 2020")
    decision = dialog.say("was it higher than normal in may?")
    assert "compare" not in [t.action for t in decision.tasks]
