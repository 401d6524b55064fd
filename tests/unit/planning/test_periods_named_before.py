""""this past week vs the week before" ... "was it carrying more load the week before?": a period said again in the
words that named it is that period; said while the dialog is on it, the words walk back from it."""

from __future__ import annotations

from datetime import date, datetime

from assetops.domain.turn import Decision
from graph.state import decode_focus, encode_focus
from tests.unit.planning.dialog import Dialog, at


def _windows(decision: Decision) -> set[tuple[datetime, datetime]]:
    """Every window the plan reads: the tasks' own and those a comparison sets side by side."""
    found = {(t.window.start, t.window.end) for t in decision.tasks if t.window is not None}
    for task in decision.tasks:
        found |= {(datetime.fromisoformat(w["start"]), datetime.fromisoformat(w["end"]))
                  for w in task.params.get("windows", [])}
    return found


def test_the_week_before_said_again_is_the_week_it_named() -> None:
    dialog = Dialog(reference_date=date(2020, 6, 22))
    dialog.say("what changed on 6 this past week vs the week before? kw/t and cond return temp pls")
    dialog.say("so is it actually getting better or is that just the load")  # both weeks are discussed now
    again = dialog.say("was it carrying more load the week before, when running?")
    assert (at(2020, 6, 8), at(2020, 6, 15)) in _windows(again)
    assert (at(2020, 6, 1), at(2020, 6, 8)) not in _windows(again)
    walked = dialog.say("and the week before that?")  # on that week now: one more week back
    assert (at(2020, 6, 1), at(2020, 6, 8)) in _windows(walked)


def test_named_periods_survive_the_state_round_trip() -> None:
    dialog = Dialog(reference_date=date(2020, 6, 22))
    dialog.say("what changed on 6 this past week vs the week before?")
    assert dialog.focus.named_periods
    assert decode_focus(encode_focus(dialog.focus)) == dialog.focus
