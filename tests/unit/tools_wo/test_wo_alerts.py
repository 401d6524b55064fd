"""Alert -> work order transitions on the merged time-ordered stream."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from tools.wo.alerts import (
    FOLLOW_UP_WINDOW,
    NO_MAINTENANCE,
    WORK_ORDER,
    TimedWorkOrder,
    alert_outcomes,
    transition_summary,
)

T0 = datetime(2020, 6, 1, 8, 0)


def _wo(hours: float, wo_id: str = "WO", preventive: bool = False) -> TimedWorkOrder:
    return TimedWorkOrder(T0 + timedelta(hours=hours), wo_id, preventive)


def test_each_alert_takes_the_first_work_order_inside_the_window() -> None:
    alerts = [T0, T0 + timedelta(hours=10), T0 + timedelta(days=20)]
    orders = [_wo(30, "late"), _wo(12, "first"), _wo(-5, "before"), _wo(20 * 24 + 24 * 8, "too-late")]
    outcomes = alert_outcomes(alerts, orders)
    assert [o.work_order.wo_id if o.work_order else None for o in outcomes] == ["first", "first", None]
    assert [o.hours_to_maintenance for o in outcomes] == [12.0, 2.0, None]


def test_a_work_order_exactly_at_the_window_edge_counts() -> None:
    [outcome] = alert_outcomes([T0], [TimedWorkOrder(T0 + FOLLOW_UP_WINDOW, "edge", True)])
    assert outcome.work_order is not None
    [outcome] = alert_outcomes([T0], [TimedWorkOrder(T0 + FOLLOW_UP_WINDOW + timedelta(minutes=1), "x", True)])
    assert outcome.work_order is None


def test_a_work_order_before_the_alert_does_not_follow_it() -> None:
    [outcome] = alert_outcomes([T0], [_wo(-0.5)])
    assert outcome.work_order is None


def test_summary_reports_probability_and_mean_hours_most_frequent_first() -> None:
    alerts = [T0, T0 + timedelta(hours=1), T0 + timedelta(days=30), T0 + timedelta(days=60)]
    orders = [_wo(5, "a", preventive=False), _wo(30 * 24 + 2, "b", preventive=True)]
    summary = transition_summary(alert_outcomes(alerts, orders))
    assert summary[0]["transition"] == WORK_ORDER
    assert summary[0]["count"] == 3
    assert summary[0]["probability"] == 0.75
    assert summary[0]["average_hours_to_maintenance"] == pytest.approx((5 + 4 + 2) / 3, abs=0.01)
    assert summary[0]["corrective_count"] == 2
    assert summary[1] == {"transition": NO_MAINTENANCE, "probability": 0.25,
                          "average_hours_to_maintenance": None, "count": 1}


def test_summary_without_any_follow_up_lists_only_no_maintenance() -> None:
    summary = transition_summary(alert_outcomes([T0, T0 + timedelta(days=1)], []))
    assert [(s["transition"], s["probability"]) for s in summary] == [(NO_MAINTENANCE, 1.0)]


def test_summary_of_no_alerts_is_empty() -> None:
    assert transition_summary([]) == []
