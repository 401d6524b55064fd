""""What was it pulling the hour before it dropped?" after "is it still down?": the stop the telemetry found
dates the period, and the question asks for the reading over it, not why it stopped."""

from __future__ import annotations

from datetime import date, timedelta

from assetops.domain.turn import TimeWindow
from graph.planning import ArtifactSummary
from tests.unit.planning.dialog import Dialog, at, short_sensors, steps, window_of


def _still_down_dialog() -> Dialog:
    dialog = Dialog(reference_date=date(2019, 7, 24))
    dialog.say("ch9 tripped yesterday afternoon, is it still down?")
    window = TimeWindow(at(2019, 7, 23), at(2019, 7, 25))
    dialog.artifacts.append(ArtifactSummary(
        id="stop", producer="data", kind="history", asset_ids=("Chiller 9",), window=window,
        key_results={"stopped_at": "2019-07-23T15:15:00-04:00", "last_running": "2019-07-23T15:00:00-04:00"}))
    return dialog


def test_the_hour_before_it_dropped_is_the_hour_before_the_stop_the_telemetry_found() -> None:
    decision = _still_down_dialog().say("what was it pulling in kw the hour before it dropped")
    assert ("failure", "diagnose") not in steps(decision)
    reads = [t for t in decision.tasks if t.specialist == "data"]
    assert reads and all(t.action in ("point_value", "history") for t in reads)
    start, end = window_of(decision, reads[0].action)
    assert end == at(2019, 7, 23, 15, 15) and end - start == timedelta(hours=1)
    assert "Power Input" in short_sensors(decision, reads[0].action)


def test_a_stop_asked_about_for_itself_is_still_investigated() -> None:
    decision = _still_down_dialog().say("why did it trip?")
    assert ("failure", "diagnose") in steps(decision)


def test_a_named_reading_over_a_narrower_period_is_cut_out_of_the_wider_window_held() -> None:
    dialog = Dialog(reference_date=date(2019, 7, 24))
    dialog.artifacts.append(ArtifactSummary(id="months", producer="data", kind="history", asset_ids=("Chiller 9",),
                                            window=TimeWindow(at(2019, 3, 1), at(2019, 7, 24))))
    named = dialog.say("anything odd with chiller 9's supply temperature in the first week of july?")
    assert [t.window.start for t in named.tasks if t.action == "history"] == [at(2019, 7, 1)]  # type: ignore[union-attr]
    dialog.artifacts[:] = dialog.artifacts[:1]
    broad = dialog.say("anything odd on chiller 9 in the second week of july?")
    assert ("data", "history") not in steps(broad)  # all its readings are held: the analysis reads them there


def test_what_it_did_before_the_stop_is_a_look_at_it_and_the_root_cause_reads_through_the_stop() -> None:
    dialog = _still_down_dialog()
    look = dialog.say("what was it doing in the hours before it went down?")
    assert look.intent == "investigate"
    cause = dialog.say("root cause?")
    diagnosis = next(t for t in cause.tasks if t.action == "diagnose")
    assert diagnosis.window is not None and diagnosis.window.end > at(2019, 7, 23, 15, 15)
