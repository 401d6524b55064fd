"""A request to delete the site's records is refused with what can be done instead, and the dialog keeps its
subject; leaving data out of a figure, tuning an alert threshold or a drafted job that removes a part are not that."""

from __future__ import annotations

from datetime import date

import pytest

from tests.unit.planning.dialog import Dialog, steps


@pytest.mark.parametrize("request_", ["can you just wipe the 2015 work orders off 4, they're junk data",
                                      "delete those alerts", "please purge the old telemetry for chiller 6",
                                      "get rid of the duplicate WOs on chiller 4"])
def test_deleting_records_is_refused_and_the_subject_is_kept(request_: str) -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("how many WOs on chiller 4 in 2015?")
    decision = dialog.say(request_)
    assert decision.kind == "reject" and "read-only" in decision.message
    assert decision.focus.asset_ids == ["Chiller 4"]
    assert not decision.tasks


@pytest.mark.parametrize(("request_", "action"), [
    ("change the alert threshold on chiller 6 so it fires less", "threshold_suggestion"),
    ("draft a work order to remove the old strainer on chiller 4", "draft_wo"),
])
def test_actions_on_the_chiller_are_not_a_deletion_of_records(request_: str, action: str) -> None:
    decision = Dialog(reference_date=date(2021, 7, 1)).say(request_)
    assert decision.kind == "run" and action in {a for _, a in steps(decision)}
