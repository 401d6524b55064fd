"""The supervisor's pure re-decision rules: readiness, retries, follow-ups, skips and caps."""

from __future__ import annotations

from assetops.domain.specialists import SpecialistId
from assetops.domain.turn import ResultStatus, SpecialistResult, SpecialistTask
from graph.planning.replan import capped_plan, fold_results, ready_tasks


def _plan(*tasks: SpecialistTask) -> list[SpecialistTask]:
    return list(tasks)


def _result(index: int, status: ResultStatus, specialist: SpecialistId = "data", *, errors: list[str] | None = None,
            follow_ups: list[SpecialistTask] | None = None, unavailable: bool = False) -> SpecialistResult:
    return SpecialistResult(specialist, "x", status, f"{specialist} {status}", errors=errors or [],
                            follow_ups=follow_ups or [], task_index=index, unavailable=unavailable)


def test_a_task_waits_until_its_dependencies_are_done() -> None:
    plan = _plan(SpecialistTask("data", "history"), SpecialistTask("timeseries", "anomaly_detection", depends_on=[0]))
    assert ready_tasks(plan) == [0]
    plan[0].status = "done"
    assert ready_tasks(plan) == [1]


def test_a_failed_task_is_retried_then_its_dependents_are_skipped() -> None:
    plan = _plan(SpecialistTask("data", "history", goal="fetch"), SpecialistTask("timeseries", "forecast",
                                                                                 depends_on=[0]))
    first = fold_results(plan, [_result(0, "failed", errors=["timeout"])], max_retries=1, max_tasks=10)
    assert first.plan[0].status == "pending" and first.plan[0].attempts == 1
    assert any("Retried" in n for n in first.notes)
    second = fold_results(first.plan, [_result(0, "failed", errors=["timeout"])], max_retries=1, max_tasks=10)
    assert second.plan[0].status == "failed"
    assert second.plan[1].status == "skipped"
    assert "fetch" in second.plan[1].reason


def test_an_unavailable_specialist_is_not_retried() -> None:
    plan = _plan(SpecialistTask("maintenance", "draft_wo"))
    replan = fold_results(plan, [_result(0, "failed", "maintenance", unavailable=True)], max_retries=2, max_tasks=10)
    assert replan.plan[0].status == "failed"
    assert replan.plan[0].attempts == 0


def test_missing_evidence_adds_a_follow_up_that_runs_before_the_retry() -> None:
    plan = _plan(SpecialistTask("timeseries", "anomaly_detection", asset_ids=["Chiller 4"]))
    follow_up = SpecialistTask("data", "history", asset_ids=["Chiller 4"])
    replan = fold_results(plan, [_result(0, "failed", "timeseries", follow_ups=[follow_up])], max_retries=1,
                          max_tasks=10)
    assert [t.action for t in replan.plan] == ["anomaly_detection", "history"]
    assert ready_tasks(replan.plan) == [1]
    assert replan.plan[0].depends_on == [1]


def test_a_follow_up_already_in_the_plan_is_not_added_twice() -> None:
    history = SpecialistTask("data", "history", asset_ids=["Chiller 4"])
    plan = _plan(history, SpecialistTask("timeseries", "trend_stats", asset_ids=["Chiller 4"], depends_on=[0]))
    plan[0].status = "done"
    replan = fold_results(plan, [_result(1, "ok", "timeseries", follow_ups=[history])], max_retries=1,
                          max_tasks=10)
    assert len(replan.plan) == 2


def test_tasks_over_the_cap_are_dropped_with_a_message() -> None:
    plan = _plan(*(SpecialistTask("data", "sensors", asset_ids=[f"Chiller {i}"], goal=f"sensors {i}")
                   for i in range(5)))
    kept, notes = capped_plan(plan, 3)
    assert len(kept) == 3
    assert "sensors 3" in notes[0] and "sensors 4" in notes[0]
