"""Pure work-order logic: date windows, item shapes, distribution, Markov prediction, rule listing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from tools.wo.logic import (
    DateWindow,
    alert_rule_items,
    describe_rules,
    next_type_distribution,
    prediction_item,
    transition_counts,
    work_order_distribution,
    work_order_item,
    work_order_type_sequence,
)


def test_aware_bounds_keep_their_site_wall_clock_time() -> None:
    eastern = timezone(timedelta(hours=-4))
    window = DateWindow.from_datetimes(datetime(2020, 7, 1, tzinfo=eastern), datetime(2020, 7, 2, tzinfo=UTC))
    assert window.start == datetime(2020, 7, 1)
    assert window.end == datetime(2020, 7, 2)


def test_window_description_names_the_bounds_given() -> None:
    assert DateWindow().describe() == ""
    assert DateWindow(start=datetime(2020, 1, 1)).describe() == " from 2020-01-01T00:00:00"
    assert DateWindow(end=datetime(2020, 1, 1)).describe() == " until 2020-01-01T00:00:00"
    assert "between" in DateWindow(datetime(2020, 1, 1), datetime(2020, 2, 1)).describe()


def test_work_order_item_has_contract_types() -> None:
    item = work_order_item({
        "wo_id": "WO1", "preventive": 1, "work_priority": 5, "actual_finish": datetime(2016, 4, 6, 14, 0),
        "duration": "3:00", "actual_labor_hours": None, "equipment_id": "CWC04013",
    })
    assert item["preventive"] is True
    assert item["work_priority"] == 5
    assert item["actual_finish"] == "2016-04-06T14:00:00"
    assert item["actual_labor_hours"] is None
    assert set(item) >= {"wo_id", "wo_description", "collection", "primary_code", "secondary_code_description"}


def _order(primary: str, secondary: str | None = None, finish: datetime | None = None, **extra: object) -> dict:
    return {"primary_code": primary, "secondary_code": secondary, "actual_finish": finish, **extra}


FAILURE_CODES = [
    {"category": "Maintenance", "primary_code": "MT001", "primary_code_description": "Routine Maintenance",
     "secondary_code": "MT001a", "secondary_code_description": "Scheduled Maintenance"},
    {"category": "Maintenance", "primary_code": "MT010", "primary_code_description": "Oil Analysis",
     "secondary_code": "MT010b", "secondary_code_description": "Routine Oil Analysis"},
]


def test_distribution_counts_pairs_most_frequent_first_with_ties_by_code() -> None:
    orders = [_order("MT010", "MT010b"), _order("MT001", "MT001a"), _order("MT010", "MT010b"),
              _order("M013", "M013b"), _order("MT001", "MT001a")]
    distribution = work_order_distribution(orders, FAILURE_CODES)
    assert [(d["primary_code"], d["secondary_code"], d["count"]) for d in distribution] == [
        ("MT001", "MT001a", 2), ("MT010", "MT010b", 2), ("M013", "M013b", 1)]


def test_distribution_keeps_pairs_missing_from_the_code_table_with_fallback_texts() -> None:
    orders = [_order("M013", "M013b", primary_code_description="Condenser Plugged",
                     secondary_code_description="Condenser Plugged (Complete)"), _order("X1", None)]
    primaries = [{"primary_code": "M013", "category": "Structural", "primary_code_description": "Condenser Plugged"}]
    by_code = {d["primary_code"]: d for d in work_order_distribution(orders, FAILURE_CODES, primaries)}
    assert by_code["M013"]["category"] == "Structural"
    assert by_code["M013"]["secondary_code_description"] == "Condenser Plugged (Complete)"
    assert by_code["X1"] == {"category": "", "primary_code": "X1", "primary_code_description": "",
                             "secondary_code": "", "secondary_code_description": "", "count": 1}


def test_distribution_takes_category_and_descriptions_from_the_code_table() -> None:
    [entry] = work_order_distribution([_order("MT010", "MT010b", primary_code_description="stale")], FAILURE_CODES)
    assert entry["category"] == "Maintenance"
    assert entry["primary_code_description"] == "Oil Analysis"


def test_type_sequence_follows_finish_time_and_storage_order_for_ties() -> None:
    t = datetime(2020, 1, 1)
    orders = [_order("B", finish=t + timedelta(days=2)), _order("A", finish=t), _order("C", finish=t),
              _order("D", finish=None), _order(None, finish=t)]  # type: ignore[arg-type]
    assert work_order_type_sequence(orders) == ["A", "C", "B"]


def test_transition_counts_count_consecutive_pairs() -> None:
    counts = transition_counts(["A", "B", "A", "B", "A", "C"])
    assert counts["A"] == {"B": 2, "C": 1}
    assert counts["B"] == {"A": 2}
    assert "C" not in counts


def test_next_type_is_conditioned_on_the_last_type_not_on_predecessors() -> None:
    # A->B twice, A->C once; A is entered from B twice and from D once. Textbook P(next | A) is
    # B 2/3, C 1/3; the reference's transposed matrix would have answered B 2/3, D 1/3.
    sequence = ["A", "B", "A", "B", "A", "C", "D", "A"]
    candidates = next_type_distribution(sequence)
    assert [(c.primary_code, c.probability, c.count) for c in candidates] == [("B", 0.6667, 2), ("C", 0.3333, 1)]


def test_next_type_ties_are_ordered_by_code() -> None:
    candidates = next_type_distribution(["X", "Z", "X", "Y", "X", "X", "X"])
    assert [c.primary_code for c in candidates] == ["X", "Y", "Z"]
    assert [c.count for c in candidates] == [2, 1, 1]


def test_no_transition_data_when_last_type_never_precedes_another() -> None:
    assert next_type_distribution(["A", "A", "B"]) == []
    assert next_type_distribution(["A"]) == []
    assert next_type_distribution([]) == []


def test_prediction_item_falls_back_to_the_data_description() -> None:
    [candidate] = next_type_distribution(["A", "B", "A"])
    item = prediction_item(candidate, None, "Routine")
    assert item == {"category": "", "primary_code": "B", "primary_code_description": "Routine",
                    "probability": 1.0, "transition_count": 1}


def test_alert_rules_are_sorted_by_id_with_unknown_names_empty() -> None:
    rules = alert_rule_items({"RUL0022": 3, "RUL0017": 1}, {"RUL0017": "Chiller - Load Low"})
    assert rules == [
        {"rule_id": "RUL0017", "rule_name": "Chiller - Load Low", "alert_count": 1},
        {"rule_id": "RUL0022", "rule_name": "", "alert_count": 3},
    ]
    assert describe_rules(rules) == "RUL0017 (Chiller - Load Low), RUL0022"


@pytest.mark.parametrize("sequence", [["A", "B", "A"], ["A", "B", "C", "A", "B", "A"]])
def test_predicted_probabilities_sum_to_one(sequence: list[str]) -> None:
    candidates = next_type_distribution(sequence)
    assert candidates
    assert sum(c.probability for c in candidates) == pytest.approx(1.0, abs=1e-3)
