"""Records counted period by period ("each quarter of 2020", "year by year"): each period's count in order, and
the one rule behind most of them."""

from __future__ import annotations

from artifacts.model import Artifact
from graph.answering.asked_figures import orders_per_period_sentence, site_rules_sentence
from graph.answering.verdicts import zero_records_verdict
from tests.unit.answering.builders import alerts, art, orders


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


def test_did_any_get_through_with_zero_is_answered_from_each_count() -> None:
    counted = [orders(f"Chiller {n}", f"CWC0470{n}", total=t + 3, corrective=t, start="2020-01-01", end="2021-01-01",
                      listed="corrective") for n, t in ((3, 5), (4, 1), (6, 14))]
    verdict = zero_records_verdict(counted, "Did any unit get through 2020 with zero corrective WOs?")
    assert verdict is not None and verdict.sentence == (
        "No, every one of the 3 had at least one corrective work order in 2020; the fewest: Chiller 4 with 1.")
    counted.append(orders("Chiller 9", "CWC04709", total=2, corrective=0, start="2020-01-01", end="2021-01-01",
                          listed="corrective"))
    verdict = zero_records_verdict(counted, "was there a chiller without a single corrective order?")
    assert verdict is not None and verdict.sentence == "Yes, Chiller 9 had no corrective work orders in 2020."
    assert zero_records_verdict(counted, "how many corrective orders?") is None


def test_whether_one_chiller_tops_a_ranking_is_yes_or_no_with_the_figures() -> None:
    from graph.answering.asked_figures import rank_place
    from tests.unit.answering.builders import window
    june = [window(f"Chiller {n}", "2020-06-01", "2020-07-01", {"Chiller Efficiency": (v, "kW/ton")})
            for n, v in ((3, 0.49), (4, 0.46), (6, 0.47))]
    found = rank_place("Was that one also the worst in June 2020?", june, "Chiller 4", ["Chiller Efficiency"])
    assert found is not None and found[0] == "No"
    assert found[1] == "No, Chiller 3 was the worst on efficiency in June 2020: 0.49 kW/ton while running, against " \
                       "0.46 kW/ton on Chiller 4."
    best = rank_place("is 4 the most efficient?", june, "Chiller 4", ["Chiller Efficiency"])
    assert best is not None and best[0] == "Yes" and best[1].startswith("Yes, Chiller 4 was the most efficient")
    assert rank_place("was it the worst?", june, None, ["Chiller Efficiency"]) is None  # no subject
    assert rank_place("was it bad?", june, "Chiller 4", ["Chiller Efficiency"]) is None  # no ranking asked


def test_the_side_of_the_setpoint_asked_is_yes_more_than_a_degree_off_on_that_side() -> None:
    from graph.answering.asked_figures import setpoint_side
    from tests.unit.answering.builders import window
    june = [window("Chiller 6", "2021-06-01", "2021-07-01", {"Supply Temperature": (45.3, "degF"),
                                                             "Setpoint Temperature": (43.0, "degF")})]
    found = setpoint_side("its setpoint is 43 - is the supply reading sitting above that while it runs?", june)
    assert found is not None and found[0] == "Yes"
    assert found[1] == ("Yes, Chiller 6's supply averaged 45.3 degF against its 43.0 degF setpoint (2.3 degF above) "
                        "while running in June 2021.")
    below = setpoint_side("is it running below setpoint?", june)
    assert below is not None and below[0] == "No"
    assert setpoint_side("what was the supply temp?", june) is None  # no setpoint, no side


def test_a_count_against_a_bare_number_and_a_rule_that_never_fired() -> None:
    from graph.answering.verdicts import yes_no_verdict
    from tests.unit.answering.builders import art
    four = [orders("Chiller 4", "CWC04704", total=9, corrective=4, start="2021-01-01", end="2022-01-01",
                   listed="corrective")]
    verdict = yes_no_verdict("what about chiller 4 - more than 5?", four, four)
    assert verdict.sentence == "No, Chiller 4 had 4 corrective work orders in 2021, not more than 5."
    listing = art("alert_rules", {"rules": [{"rule_id": "RUL0017", "rule_name": "Chiller - Load Low", "count": 26}],
                                  "asked_rules": ["RUL0018"]}, asset="Chiller 4", equipment=["CWC04704"],
                  producer="maintenance", window=False)
    never = yes_no_verdict("has it ever had an evaporator approach high alert?", [listing], [listing])
    assert never.sentence == "No, RUL0018 has never fired on CWC04704."
    nine = art("alert_rules", {"rules": [{"rule_id": "RUL0017", "rule_name": "Chiller - Load Low", "count": 26}],
                               "asked_rules": ["RUL0017"]}, asset="Chiller 9", equipment=["CWC04009"],
               producer="maintenance")
    without = yes_no_verdict("did ch9 go all of 2021 without a single load low alert?", [nine], [nine])
    assert without.answer == "No" and "fired 26 times" in without.sentence


def test_a_count_over_two_periods_says_which_way_it_moved_when_asked() -> None:
    from graph.answering.asked_figures import alert_count_sentence
    from tests.unit.answering.builders import alerts
    years = [alerts("Chiller 9", "CWC04009", {"RUL0017": n}, start=f"{y}-01-01", end=f"{y + 1}-01-01")
             for y, n in ((2018, 68), (2019, 86))]
    said = alert_count_sentence("how many alerts this year compared with last year? Did those go up as well?", years)
    assert said == "Yes, alerts on CWC04009 went up from 68 in 2018 to 86 in 2019."
    assert alert_count_sentence("how many alerts this year and last?", years) == "Alerts on CWC04009: 68 in 2018 and 86 in 2019."


def test_anything_odd_names_the_reading_flagged_most() -> None:
    from graph.answering.verdicts import anomaly_verdict
    from tests.unit.answering.builders import art
    flagged = art("anomaly_detection", {"anomaly_rate": 0.461, "conditional_columns": ["x"], "sustained_shifts": [],
                                        "per_sensor": {"Chiller 3 Condenser Water Flow": {"sensor": "Chiller 3 Condenser Water Flow",
                                                                                          "rate": 0.461},
                                                       "Chiller 3 Power Input": {"sensor": "Chiller 3 Power Input",
                                                                                 "rate": 0.08}}}, asset="Chiller 3")
    verdict = anomaly_verdict([flagged], "anything odd on chiller 3 in the last fortnight?")
    assert verdict is not None and verdict.sentence.startswith(
        "Yes, Chiller 3 shows abnormal behaviour, mostly in its condenser water flow, well above")


def test_a_job_named_with_pm_is_that_job() -> None:
    from graph.understanding.last_done import last_done_job
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary
    job = last_done_job(Text.of("had we already done a leak detection PM on it this year?"), vocabulary())
    assert "leak" in job and "preventiv" not in job
    assert last_done_job(Text.of("when did it last have a preventive WO done?"), vocabulary()) >= {"preventiv"}


def test_the_busiest_month_of_work_orders_comes_from_their_monthly_counts() -> None:
    from graph.answering.stat_questions import busiest_month_sentence
    from specialists.maintenance.history import summarise_work_orders
    summary = summarise_work_orders([{"wo_id": f"W{i}", "actual_finish": day, "preventive": False}
                                     for i, day in enumerate(["2019-07-13", "2019-07-20", "2019-08-02"])])
    assert summary.per_month == {"2019-07": 2, "2019-08": 1}
    listing = orders("Chiller 9", "CWC04009", total=3, corrective=3, start="2019-01-01", end="2019-12-21",
                     listed="corrective")
    listing.results["per_month"] = summary.per_month
    found = busiest_month_sentence("which month this year had the most of them?", [listing])
    assert found is not None and found[0] == "July 2019 was the busiest month for corrective work orders on CWC04009: " \
                                             "2 of 3 in 2019."


def test_that_alert_on_the_other_chillers_leaves_out_the_one_discussed() -> None:
    from graph.answering.shapes import AnswerInputs, shaped_lead
    from tests.unit.answering.builders import art
    listings = [art("alert_rules", {"rules": [{"rule_id": "RUL0018", "rule_name": "Chiller - Evaporator Approach High",
                                               "count": n}] if n else [], "asked_rules": ["RUL0018"]},
                    asset=asset, equipment=[equipment], producer="maintenance", id=f"a_{equipment}")
                for asset, equipment, n in (("Chiller 3", "CWC04703", 0), ("Chiller 6", "CWC04006", 0),
                                            ("Chiller 9", "CWC04009", 31))]
    lead = shaped_lead(AnswerInputs(shape="yes_no", scope="fleet", artifacts=listings, subject="Chiller 9",
                                    question="did any of the other chillers get that alert in June?"))
    assert lead is not None and lead.first.startswith("No, RUL0018 did not fire on CWC04703 and CWC04006")


def test_when_a_rule_last_fired_and_those_two_alarms_are_counted_each() -> None:
    from graph.answering.asked_figures import alert_count_sentence
    from graph.answering.stat_questions import rule_last_fired_sentence
    from tests.unit.answering.builders import art
    listing = art("alert_rules", {"rules": [{"rule_id": "RUL0021", "rule_name": "Chiller - Excessive Power use in chiller "
                                             "that is off", "count": 11, "last": "2021-05-23"},
                                            {"rule_id": "RUL0017", "rule_name": "Chiller - Load Low", "count": 178,
                                             "last": "2021-12-01"}], "asked_rules": ["RUL0021"]},
                  asset="Chiller 4", equipment=["CWC04704"], producer="maintenance", window=False)
    assert rule_last_fired_sentence("when did it last log excessive power while off?", [listing]) == \
        "RUL0021 Excessive Power use in chiller that is off last fired on CWC04704 on 2021-05-23."
    may = art("alert_rules", {"rules": [{"rule_id": "RUL0012", "count": 41}, {"rule_id": "RUL0014", "count": 23},
                                        {"rule_id": "RUL0017", "count": 3}], "asked_rules": ["RUL0012", "RUL0014"]},
              asset="Chiller 6", equipment=["CWC04006"], producer="maintenance")
    said = alert_count_sentence("how many of each of those two alarms did it log in May?", [may])
    assert said is not None and "RUL0012 fired 41 times" in said and "RUL0014 fired 23 times" in said


def test_the_most_common_code_of_one_listing_is_a_pick_with_its_share() -> None:
    from graph.answering.asked_figures import site_codes_sentence
    listing = orders("Chiller 6", "CWC04006", total=20, corrective=14, start="2020-01-01", end="2021-01-01",
                     listed="corrective")
    listing.results["top_codes"] = [{"code": "M009", "description": "Seal Failure", "count": 4},
                                    {"code": "CS004", "description": "Software Error", "count": 2}]
    assert site_codes_sentence("which failure code came up most among last year's ones?", [listing]) == \
        "M009 Seal Failure came up most: 4 of the 14 corrective work orders on CWC04006 in 2020, then CS004 " \
        "Software Error (2)."


def test_getting_worse_after_two_yearly_listings_reads_both() -> None:
    from graph.answering.verdicts import yes_no_verdict
    from tests.unit.answering.builders import work_orders
    last_year = work_orders("Chiller 6", {"2020": 14}, 0.0, id="wo2020", turn=1)
    year_before = work_orders("Chiller 6", {"2019": 11, "2020": 0}, 0.0, id="wo2019", turn=2)  # its window's edge
    verdict = yes_no_verdict("so it's getting worse?", [year_before], [last_year, year_before])
    assert verdict.sentence == "Yes, breakdowns are getting more frequent: 11, 14 corrective orders a year 2019-2020."


def test_actionable_or_nuisance_about_alerts_reads_whether_work_orders_followed_them() -> None:
    from graph.answering.shapes import AnswerInputs, shaped_lead

    def outcome(rule: str, alerts: int, share: float) -> Artifact:
        verdict = {"rule_id": rule, "alerts": alerts, "p_work_order": share, "verdict": "weak",
                   "mean_hours_to_maintenance": 40.0}
        return art("alert_to_failure", {"verdicts": [verdict]}, asset="Chiller 9", equipment=["CWC04009"],
                   producer="maintenance", id=f"a2f_{rule}")
    inputs = AnswerInputs(shape="which", scope="asset", question="anything actionable in there or is it mostly "
                          "nuisance stuff?", artifacts=[outcome("RUL0017", 46, 0.26), outcome("RUL0022", 39, 0.26)])
    lead = shaped_lead(inputs)
    assert lead is not None and lead.first.startswith("Mostly nuisance: a work order followed 26% of the 85 alerts")


def test_the_same_rate_each_year_is_read_from_the_orders_per_month() -> None:
    from graph.answering.asked_figures import yearly_rate_sentence

    steady = orders("Chiller 6", "CWC04006", total=63, corrective=0, start="2018-01-01", end="2021-01-01",
                    listed="preventive")
    steady.results["per_month"] = {f"{y}-{m:02d}": 2 if m in (3, 6, 9, 12) else 1 for y in (2018, 2019, 2020)
                                   for m in range(1, 13) if m % 2 == 0 or m in (3, 9)}
    said = yearly_rate_sentence("were the PMs done at the same rate each year, or did we slip?", [steady])
    assert said is not None and said[0].startswith("Yes, the same rate:") and "preventive work orders" in said[0]
    slipped = orders("Chiller 6", "CWC04006", total=50, corrective=0, start="2018-01-01", end="2021-01-01",
                     listed="preventive")
    slipped.results["per_month"] = {"2018-03": 20, "2019-03": 20, "2020-03": 10}
    said = yearly_rate_sentence("did we slip on the PMs?", [slipped])
    assert said is not None and said[0].startswith("No, the rate slipped in 2020")
    assert yearly_rate_sentence("how many PMs?", [slipped]) is None


def test_a_rule_raised_by_its_words_or_a_versus_follow_up_is_counted_per_period() -> None:
    from graph.answering.asked_figures import alert_count_sentence
    from tests.unit.answering.builders import alerts
    rules = {"RUL0012": 0, "RUL0014": 0}
    names = {"RUL0012": "Chiller - Cooling Substance Temperature Setpoint Attainment",
             "RUL0014": "Chiller - Cooling Substance Delta T Low"}
    months = [alerts("Chiller 6", "CWC04006", {**rules, "RUL0012": n, "RUL0014": 5}, start=start, end=end, names=names)
              for n, start, end in ((41, "2021-05-01", "2021-06-01"), (30, "2021-06-01", "2021-07-01"))]
    said = alert_count_sentence("6 keeps flagging setpoint attainment. how many of those in may, and last month?", months)
    assert said is not None and said.startswith("RUL0012") and "41" in said and "30" in said
    versus = alert_count_sentence("vs this spring", months)
    assert versus is not None and "46" in versus and "35" in versus
    assert alert_count_sentence("what about the flow", months) is None


def test_a_sensor_that_stopped_reporting_is_a_sensor_that_dropped_out() -> None:
    from graph.answering.signal_verdicts import sensor_health_verdict
    from tests.unit.answering.builders import art, window
    stats = art("trend_stats", {"per_sensor": {"p": {"sensor": "Chiller 9 Power Input", "flags": []}}},
                asset="Chiller 9", producer="timeseries")
    readings = window("Chiller 9", "2019-07-10", "2019-07-24", {"Power Input": (250.0, "kW")})
    assert sensor_health_verdict([stats, readings], "did any sensor drop out after the trip?").answer == "No"
    readings.results["sensors_stopped"] = {"Chiller 9 Condenser Water Flow": "2019-07-23T15:00:00"}
    verdict = sensor_health_verdict([stats, readings], "did any sensor drop out after the trip?")
    assert verdict is not None and verdict.answer == "Yes" and "Condenser Water Flow" in verdict.sentence
