"""The intent-options benchmark's metrics (bench/intent_metrics.py) on hand-made predictions."""

from __future__ import annotations

from bench.intent_metrics import Scored, confusions, covered, exact_match, summarise, top1_match


def _s(labels: set[str], *predicted: str) -> Scored:
    return Scored(frozenset(labels), predicted)


def test_exact_match_needs_the_same_set_in_any_order() -> None:
    assert exact_match(_s({"restart", "validation"}, "validation", "restart"))
    assert not exact_match(_s({"restart", "validation"}, "restart"))
    assert not exact_match(_s({"diagnose"}, "diagnose", "plan_fix"))


def test_nothing_predicted_is_right_only_for_none() -> None:
    assert exact_match(_s({"none"})) and top1_match(_s({"none"}))
    assert not exact_match(_s({"history"})) and not top1_match(_s({"history"}))
    assert not top1_match(_s({"none"}, "history"))


def test_top1_looks_at_the_first_prediction_only() -> None:
    assert top1_match(_s({"anomalies", "alerts"}, "alerts", "history"))
    assert not top1_match(_s({"alerts"}, "history", "alerts"))


def test_coverage_counts_any_prediction() -> None:
    assert covered(_s({"none"}, "history")) and not covered(_s({"history"}))


def test_summary_rates() -> None:
    items = [_s({"forecast"}, "forecast"),                  # exact, top-1, covered
             _s({"finetune", "evaluate_forecast"}, "finetune"),  # top-1, covered
             _s({"compare"}),                               # nothing
             _s({"none"})]                                  # exact, top-1
    summary = summarise(items)
    assert (summary.count, summary.exact, summary.top1, summary.coverage) == (4, 0.5, 0.75, 0.5)
    assert summarise([]).top1 == 0.0


def test_confusions_count_top1_misses_most_frequent_first() -> None:
    items = [_s({"investigate"}), _s({"investigate"}), _s({"compare"}, "bundling"),
             _s({"forecast"}, "forecast"), _s({"anomalies", "alerts"}, "history")]
    assert confusions(items) == [("investigate", "none", 2), ("alerts+anomalies", "history", 1),
                                 ("compare", "bundling", 1)]
    assert confusions(items, limit=1) == [("investigate", "none", 2)]
