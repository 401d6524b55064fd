""""Is it back to normal now?" after a finding: the reading discussed from the end of the period discussed to
today against the month before it, yes when it is back near that level (and nearer than during the finding)."""

from __future__ import annotations

from datetime import date

from graph.answering.change_verdicts import recovery_verdict
from tests.unit.answering.builders import window
from tests.unit.planning.dialog import Dialog, short_sensors, steps


def test_back_to_normal_reads_the_discussed_reading_before_and_since() -> None:
    dialog = Dialog(reference_date=date(2020, 9, 15))
    dialog.say("chiller 3 condenser water flow looked low in august, can you confirm?")
    decision = dialog.say("is it back to normal now?")
    histories = [t for t in decision.tasks if t.action == "history"]
    assert len(histories) == 2 and {"maintenance"} <= {s for s, _ in steps(decision)}
    assert "Condenser Water Flow" in short_sensors(decision, "history")
    before, since = sorted(histories, key=lambda t: t.window.start)  # type: ignore[union-attr]
    assert before.window.end.date() == date(2020, 8, 1) and since.window.end.date() == date(2020, 9, 16)  # type: ignore[union-attr]


def test_recovered_when_since_is_near_before_and_nearer_than_during() -> None:
    flow = "Condenser Water Flow"
    before = window("Chiller 3", "2020-07-02", "2020-08-01", {flow: (1948.0, "gpm")}, id="b")
    during = window("Chiller 3", "2020-08-01", "2020-09-01", {flow: (1518.0, "gpm")}, id="d")
    since = window("Chiller 3", "2020-09-01", "2020-09-16", {flow: (1816.0, "gpm")}, id="s")
    verdict = recovery_verdict("is it back to normal now?", [before, since], [during], flow)
    assert verdict is not None and verdict.answer == "Yes"
    assert "1,816 gpm" in verdict.sentence and "1,518 gpm" in verdict.sentence
    still = window("Chiller 3", "2020-09-01", "2020-09-16", {flow: (1550.0, "gpm")}, id="s2")
    verdict = recovery_verdict("has the flow recovered?", [before, still], [during], flow)
    assert verdict is not None and verdict.answer == "No"
    assert recovery_verdict("is it running now?", [before, since], [during], flow) is None


def test_after_a_repair_the_normal_level_is_the_one_read_before_the_trouble() -> None:
    # "they cleaned the strainer last week. is it back to normal?" after August's flow against July's: the month
    # before the cleaning is the trouble itself, July's level is the normal one
    flow = "Condenser Water Flow"
    july = window("Chiller 3", "2020-07-01", "2020-08-01", {flow: (1950.0, "gpm")}, id="j")
    before = window("Chiller 3", "2020-08-04", "2020-09-03", {flow: (1501.0, "gpm")}, id="b")
    since = window("Chiller 3", "2020-09-06", "2020-09-11", {flow: (1947.0, "gpm")}, id="s")
    verdict = recovery_verdict("they cleaned the strainer last week. is it back to normal now?", [before, since],
                               [july, before, since], flow)
    assert verdict is not None and verdict.answer == "Yes" and "before the trouble" in verdict.sentence
    still = window("Chiller 3", "2020-09-06", "2020-09-11", {flow: (1560.0, "gpm")}, id="s2")
    verdict = recovery_verdict("is it back to normal now?", [before, still], [july, before, still], flow)
    assert verdict is not None and verdict.answer == "No"
