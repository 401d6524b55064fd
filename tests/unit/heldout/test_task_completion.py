"""The held-out bench's task-completion rubric (2 answered / 1 partly / 0 not) and its helpers."""

from __future__ import annotations

from evaluation.dialog_checks import first_sentence, invented_entities, task_completion

FLEET = ({"Chiller 6", "Chiller 9"}, {"CWC04006", "CWC04009"}, {"MAIN"})


def _tc(**overrides: object) -> int:
    values: dict[str, object] = {"answered": True, "expected_kind": None, "kind_ok": None, "failed": False,
                                 "unrequested_write": False, "invented": False, "checks": [True, True]}
    values.update(overrides)
    return task_completion(**values)  # type: ignore[arg-type]


def test_an_answer_passing_every_check_scores_two() -> None:
    assert _tc() == 2


def test_an_answer_missing_a_check_scores_one() -> None:
    assert _tc(checks=[True, False]) == 1


def test_a_question_back_where_an_answer_was_needed_scores_zero() -> None:
    assert _tc(answered=False) == 0


def test_an_expected_refusal_scores_two_only_when_it_came() -> None:
    assert _tc(expected_kind="clarify_or_reject", kind_ok=True, answered=False) == 2
    assert _tc(expected_kind="reject", kind_ok=False) == 0


def test_unrequested_write_failed_turn_and_invented_entity_score_zero_whatever_else() -> None:
    assert _tc(unrequested_write=True) == 0
    assert _tc(failed=True) == 0
    assert _tc(invented=True) == 0


def test_first_sentence_ignores_markdown_and_decimal_points() -> None:
    assert first_sentence("**Yes.** Chiller 6 is worse.") == "Yes."
    assert first_sentence("No, 2.5 kW/ton is normal. More follows.") == "No, 2.5 kW/ton is normal."
    assert first_sentence("# Chiller 6 first\nthen the rest") == "Chiller 6 first"


def test_invented_entities_are_those_neither_the_fleet_nor_the_user_has() -> None:
    answer = "Chiller 42 and Chiller 6 (CWC04006); Site ON is fine; Chiller 99 is unknown."
    assert invented_entities(answer, "show chiller 99", *FLEET) == ["Chiller 42", "Site ON"]
    assert invented_entities("Chiller 9 at site MAIN", "", *FLEET) == []


def test_a_partial_turn_scores_one_at_most() -> None:
    assert _tc(partial=True) == 1
    assert _tc(partial=True, checks=[False]) == 1


def test_a_chiller_the_user_typed_in_short_is_not_invented() -> None:
    assert invented_entities("Chiller 5 is not in the fleet.", "give me ch 5 temps for march 2024", *FLEET) == []
