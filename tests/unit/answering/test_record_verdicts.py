"""Yes/no from the records' analyses: do alerts lead to work orders, could repairs have shared a visit."""

from typing import Any

from artifacts.readings import alert_outcomes, order_groups, stated_rule
from graph.answering.record_verdicts import alert_outcome_verdict, bundle_verdict
from graph.answering.verdicts import yes_no_verdict
from tests.unit.answering.builders import alerts, art

TRIAGE = "meaningful when P(work order follows) >= 30%; likely spurious when it is below 10% over at least 10 alerts"
NAMES = {"RUL0017": "Chiller - Load Low", "RUL0022": "Chiller - Chiller Cycling", "RUL0021": "Chiller - Power Off"}


def outcome(rule: str, alerts_: int, p: float, verdict: str, **kw: Any) -> Any:
    return art("alert_to_failure", {"verdicts": [{"rule_id": rule, "alerts": alerts_, "p_work_order": p,
                                                  "mean_hours_to_maintenance": 78.0, "verdict": verdict}],
                                    "rule": TRIAGE},
               asset="Chiller 9", equipment=["CWC04009"], producer="maintenance", id=f"artifact_mp_{rule}", **kw)


def test_the_readings_are_typed() -> None:
    found = alert_outcomes(outcome("RUL0017", 46, 0.261, "weak"))
    assert found[0].rule_id == "RUL0017" and found[0].alerts == 46 and found[0].hours_to_work_order == 78.0
    groups = order_groups(art("bundles", {"bundles": [{"equipment_id": "CWC04006", "start": "2019-08-18",
                                                       "end": "2019-08-30", "wo_ids": ["WO1", "WO2"],
                                                       "codes": ["M006", "L002"], "visits_saved": 1,
                                                       "hours_saved": 3.0}], "rule": "within 14 days"}))
    assert groups[0].wo_ids == ("WO1", "WO2") and groups[0].visits_saved == 1
    assert stated_rule(outcome("RUL0017", 46, 0.261, "weak")) == TRIAGE


def test_that_one_is_the_rule_with_the_most_alerts_named_with_its_share() -> None:
    found = [outcome("RUL0022", 39, 0.256, "weak"), outcome("RUL0017", 46, 0.261, "weak"),
             outcome("RUL0021", 1, 1.0, "too few alerts")]
    listing = alerts("Chiller 9", "CWC04009", {"RUL0017": 46}, start="2019-01-01", end="2020-01-01", names=NAMES)
    verdict = alert_outcome_verdict(found, "Does that one ever actually lead to a repair?", [listing])
    assert verdict is not None and verdict.answer == "Partly"
    assert verdict.sentence.startswith("Sometimes: a work order followed 26% of the 46 RUL0017 Load Low alerts on "
                                       "CWC04009")
    assert any(line.startswith("Triage rule: ") for line in verdict.evidence)


def test_one_rule_yes_no_and_too_few() -> None:
    assert alert_outcome_verdict([outcome("RUL0017", 40, 0.45, "meaningful")], "does it lead to work?").answer == "Yes"  # type: ignore[union-attr]
    never = alert_outcome_verdict([outcome("RUL0017", 40, 0.0, "likely spurious")], "does it lead to work?")
    assert never is not None and never.answer == "No" and never.sentence.startswith("No, none of the 40 RUL0017")
    rare = alert_outcome_verdict([outcome("RUL0017", 40, 0.05, "likely spurious")], "does it lead to work?")
    assert rare is not None and rare.sentence.startswith("No, rarely: a work order followed only 5%")
    few = alert_outcome_verdict([outcome("RUL0021", 1, 1.0, "too few alerts")], "does it lead to work?")
    assert few is not None and few.answer == "Not clearly" and "too few to tell" in few.sentence


def test_a_named_rule_is_answered_even_when_it_is_not_the_busiest() -> None:
    found = [outcome("RUL0017", 46, 0.261, "weak"), outcome("RUL0022", 39, 0.41, "meaningful")]
    listing = alerts("Chiller 9", "CWC04009", {"RUL0022": 39}, start="2019-01-01", end="2020-01-01", names=NAMES)
    verdict = alert_outcome_verdict(found, "Do the chiller cycling alerts lead to maintenance?", [listing])
    assert verdict is not None and verdict.answer == "Yes" and "RUL0022 Chiller Cycling" in verdict.sentence


def test_they_is_every_rule_together() -> None:
    found = [outcome("RUL0017", 50, 0.45, "meaningful"), outcome("RUL0022", 50, 0.02, "likely spurious")]
    mixed = alert_outcome_verdict(found, "Do they actually lead to maintenance?")
    assert mixed is not None and mixed.answer == "Partly" and "RUL0017 (45% of 50) leads to work" in mixed.sentence
    leading = alert_outcome_verdict([found[0], outcome("RUL0022", 50, 0.35, "meaningful")], "Do these lead to work?")
    assert leading is not None and leading.sentence.startswith("Yes, a work order followed 40% of the 100 alerts")
    noise = alert_outcome_verdict([outcome("RUL0017", 50, 0.02, "likely spurious"),
                                   outcome("RUL0022", 50, 0.04, "likely spurious")], "Do the alerts lead anywhere?")
    assert noise is not None and noise.answer == "No"


def test_repairs_in_one_visit_yes_with_the_group_or_no_with_the_rule() -> None:
    groups = [{"equipment_id": "CWC04006", "start": "2019-08-18", "end": "2019-08-30", "span_days": 12,
               "wo_ids": ["WO150914", "WO150967", "WO151023"], "codes": ["M006", "MT003", "L002"],
               "visits_saved": 2, "hours_saved": 6.0}]
    rule = "corrective orders on the same equipment finishing within 14 days of the first of a group"
    bundles = art("bundles", {"bundles": groups, "rule": rule}, equipment=["CWC04006"], producer="maintenance")
    verdict = yes_no_verdict("Could any of these repairs have been done in one visit?", [bundles])
    assert verdict.sentence == ("Yes, 3 corrective orders on CWC04006 between 2019-08-18 and 2019-08-30 could have "
                                "been one visit, saving 2 visits (~6 h).")
    assert "WO150914 (M006)" in verdict.evidence[0]
    none = art("bundles", {"bundles": [], "rule": rule}, equipment=["CWC04009"], producer="maintenance")
    no = bundle_verdict([none], "Could any of them have been combined?")
    assert no is not None and no.answer == "No" and "no two finished within 14 days of each other" in no.sentence


def test_two_chillers_breakdowns_are_compared_year_by_year_the_one_asked_first() -> None:
    from graph.answering.record_verdicts import per_year_comparison
    from tests.unit.answering.builders import work_orders
    six = work_orders("Chiller 6", {"2017": 4, "2018": 7, "2019": 11, "2020": 14}, 3.4)
    nine = work_orders("Chiller 9", {"2017": 1, "2018": 1, "2019": 8, "2020": 3}, 0.9)
    assert per_year_comparison("how does chiller 9 compare over the same years?", [six, nine]) == (
        "Chiller 9 had 1, 1, 8 and 3 corrective work orders a year in 2017-2020 (13 in all), against 4, 7, 11 and "
        "14 on Chiller 6 (36).")
    assert per_year_comparison("how many on chiller 9?", [six, nine]) is None  # no comparison asked
    assert per_year_comparison("chiller 9 vs 6?", [nine]) is None  # one summary


def test_when_did_they_happen_gives_the_months_of_the_rule_asked_about() -> None:
    from graph.answering.stat_questions import alert_dates_sentence

    listing = alerts("Chiller 4", "CWC04704", {"RUL0017": 12, "RUL0021": 3}, start="2021-01-01", end="2021-06-02",
                     names={"RUL0021": "Chiller - Excessive Power use in chiller that is off"})
    listing.results["rules"][1]["months"] = {"2021-01": 1, "2021-04": 1, "2021-05": 1}
    listing.results["rules"][0]["months"] = {"2021-02": 12}
    listing.results["asked_rules"] = ["RUL0021"]
    said = alert_dates_sentence("when did they happen", [listing])
    assert said is not None
    assert said[0].startswith("The 3 RUL0021 Excessive Power use in chiller that is off alerts on CWC04704 came in "
                              "January 2021 (1), April 2021 (1) and May 2021 (1)")
    assert alert_dates_sentence("how many were there", [listing]) is None


def test_the_worst_of_several_years_is_picked_from_one_listing_per_year() -> None:
    from graph.answering.compare_verdicts import period_record_pick
    from tests.unit.answering.builders import orders

    years = [orders("Chiller 6", "CWC04006", total=n, corrective=n, start=f"{y}-01-01", end=f"{y + 1}-01-01",
                    listed="corrective") for y, n in ((2018, 7), (2019, 11), (2020, 14))]
    verdict = period_record_pick("which of those three years was the worst", years)
    assert verdict is not None and verdict.sentence.startswith("2020 was the worst")
    best = period_record_pick("which of those years was the best", years)
    assert best is not None and best.sentence.startswith("2018 was the best")


def test_breakdowns_per_year_from_one_listing_per_year_are_one_series() -> None:
    from tests.unit.answering.builders import work_orders

    years = [work_orders("Chiller 6", {str(y): n}, 0.0, id=f"artifact_mp_{y}") for y, n in
             ((2018, 7), (2019, 11), (2020, 14))]
    verdict = yes_no_verdict("so its getting worse, right?", years)
    assert verdict.sentence.startswith("Yes, breakdowns are getting more frequent: 7, 11, 14 corrective orders a year")


def test_tuning_an_alarm_is_advised_on_whether_its_alerts_led_to_work() -> None:
    from graph.answering.recommend import recommend

    listing = alerts("Chiller 9", "CWC04009", {"RUL0022": 26, "RUL0017": 46}, start="2020-01-01", end="2021-01-01",
                     names=NAMES)
    kept = recommend("is it worth loosening the cycling alarm, or would I be hiding genuine problems?",
                     [listing, outcome("RUL0022", 26, 0.81, "meaningful")], None)
    assert kept.sentence.startswith("No, I would leave RUL0022 Chiller Cycling as it is: a work order followed 81% "
                                    "of its 26 alerts on CWC04009")
    noisy = recommend("should we raise the load low limit?", [listing, outcome("RUL0017", 46, 0.04, "likely spurious")],
                      None)
    assert noisy.sentence.startswith("Yes, RUL0017 Load Low is worth re-tuning: a work order followed only 4%")
    plain = recommend("should we inspect it?", [listing, outcome("RUL0017", 46, 0.04, "likely spurious")], None)
    assert "re-tuning" not in plain.sentence


def test_an_inspection_advised_on_alerts_names_the_rules_behind_them() -> None:
    from graph.answering.recommend import recommend

    listing = alerts("Chiller 9", "CWC04009", {"RUL0018": 41, "RUL0017": 10}, start="2016-01-01", end="2016-08-15",
                     names={"RUL0018": "Chiller - Evaporator Approach High", **NAMES})
    advice = recommend("would it be worth planning an inspection shutdown for it?", [listing], None)
    assert any("mostly RUL0018 Evaporator Approach High (41) and RUL0017 Load Low (10)" in r for r in advice.reasons)
