"""Records counted period by period ("each quarter of 2020", "year by year"): each period's count in order, and
the one rule behind most of them."""

from __future__ import annotations

from graph.answering.asked_figures import orders_per_period_sentence, site_rules_sentence
from tests.unit.answering.builders import alerts, orders


def test_one_rule_asked_over_one_equipment_s_periods_is_a_pick_with_its_share() -> None:
    quarters = [alerts("Chiller 6", "CWC04006", counts, start=start, end=end) for counts, start, end in (
        ({"RUL0022": 11, "RUL0017": 6}, "2020-01-01", "2020-04-01"),
        ({"RUL0017": 10, "RUL0022": 5}, "2020-04-01", "2020-07-01"),
        ({"RUL0017": 17, "RUL0022": 11}, "2020-10-01", "2021-01-01"))]
    sentence = site_rules_sentence("what rule was behind most of them?", quarters)
    assert sentence is not None
    assert sentence == "RUL0017: 33 of the 60 alerts on CWC04006 over Q1 2020, Q2 2020 and Q4 2020, then RUL0022 (27)."


def test_one_asset_s_orders_over_several_periods_are_counted_period_by_period() -> None:
    years = [orders("Chiller 9", "CWC04009", total=n + 2, corrective=n, start=f"{y}-01-01", end=f"{y + 1}-01-01",
                    listed="corrective") for y, n in ((2017, 1), (2018, 1), (2019, 8))]
    assert orders_per_period_sentence("corrective orders year by year?", years) == \
        "Corrective work orders on CWC04009: 1 in 2017, 1 in 2018 and 8 in 2019."
    assert orders_per_period_sentence("how many per year?", years[:1]) is None  # one period: nothing side by side
    assert orders_per_period_sentence("the most common code in those?", years) is None  # not a count
