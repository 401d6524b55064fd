"""Record answers that read the dialog: a count compared with another period keeps the kind counted before, an
existing order is matched to the fault diagnosed, and an alert table names each chiller's two busiest rules."""

from __future__ import annotations

from graph.answering.compare_verdicts import comparison_verdict
from graph.answering.fleet_ranking import compare_assets
from graph.answering.verdicts import work_order_existence_verdict
from tests.unit.answering.builders import alerts, diagnosis, orders

EVAP = {"RUL0018": "Chiller - Evaporator Approach High"}


def test_is_that_more_than_last_year_compares_the_corrective_count_the_dialog_made() -> None:
    this_year = orders("Chiller 9", "CWC04009", total=12, corrective=8, start="2019-01-01", end="2019-12-16",
                       listed="corrective", turn=1)
    last_year = orders("Chiller 9", "CWC04009", total=22, corrective=1, start="2018-01-01", end="2019-01-01", turn=2)
    verdict = comparison_verdict("is that more than last year?", [last_year], [this_year, last_year])
    assert verdict is not None and verdict.answer == "Yes"
    assert "8 corrective work orders" in verdict.sentence and "against 1 " in verdict.sentence


def test_without_an_earlier_corrective_count_all_orders_are_compared() -> None:
    this_year = orders("Chiller 9", "CWC04009", total=12, corrective=8, start="2019-01-01", end="2019-12-16", turn=1)
    last_year = orders("Chiller 9", "CWC04009", total=22, corrective=1, start="2018-01-01", end="2019-01-01", turn=2)
    verdict = comparison_verdict("is that more than last year?", [last_year], [this_year, last_year])
    assert verdict is not None and verdict.answer == "No"


def test_an_order_for_the_diagnosed_fault_is_named_rather_than_the_latest() -> None:
    listing = orders("Chiller 6", "CWC04006", total=3, corrective=3, start="2019-08-01", end="2019-09-06", recent=[
        {"wo_id": "WO151028", "date": "2019-08-30", "code": "L002", "description": "Condenser Water Leak"},
        {"wo_id": "WO150967", "date": "2019-08-24", "code": "MT003", "description": "Compressor Oil Change"},
        {"wo_id": "WO150914", "date": "2019-08-18", "code": "M006", "description": "Overheating of Compressor"}])
    found = diagnosis("Chiller 6", ("Compressor Overheating: Failed due to Normal wear, overheating", 0.9, 1.0),
                      turn=2)
    verdict = work_order_existence_verdict([listing], "were work orders raised for it?", [found, listing])
    assert verdict is not None and verdict.sentence == (
        "Yes, 3 work orders from 2019-08-01 to 2019-09-06; WO150914 on 2019-08-18 (M006 Overheating of Compressor) "
        "is for the diagnosed Compressor Overheating.")
    no_match = diagnosis("Chiller 6", ("Evaporator Water side fouling", 0.9, 1.0), turn=2)
    plain = work_order_existence_verdict([listing], "were work orders raised for it?", [no_match, listing])
    assert plain is not None and "the latest is WO151028" in plain.sentence


def test_the_alert_table_names_each_chillers_two_busiest_rules() -> None:
    six = alerts("Chiller 6", "CWC04006", {"RUL0014": 35, "RUL0012": 30, "RUL0017": 2}, start="2021-06-01",
                 end="2021-07-01")
    nine = alerts("Chiller 9", "CWC04009", {"RUL0018": 31}, start="2021-06-01", end="2021-07-01")
    quiet = alerts("Chiller 3", "CWC04703", {}, start="2021-06-01", end="2021-07-01")
    ranked = compare_assets([nine, six, quiet])
    assert ranked is not None
    assert [r.finding for r in ranked.rows] == ["mostly RUL0014 (35), then RUL0012 (30)", "mostly RUL0018 (31)",
                                                "no alerts"]


def test_a_corrective_count_reused_in_the_turn_sets_the_kind_for_both_sides() -> None:
    this_year = orders("Chiller 9", "CWC04009", total=12, corrective=8, start="2019-01-01", end="2019-12-16",
                       listed="corrective", turn=1)
    last_year = orders("Chiller 9", "CWC04009", total=22, corrective=1, start="2018-01-01", end="2019-01-01", turn=2)
    verdict = comparison_verdict("is that more than last year?", [this_year, last_year], [this_year, last_year])
    assert verdict is not None and verdict.answer == "Yes" and "against 1 " in verdict.sentence


def test_worse_than_the_year_before_compares_the_subjects_two_years_not_the_fleet() -> None:
    listing = [orders(f"Chiller {n}", f"CWC0470{n}", total=9, corrective=c, start="2020-01-01", end="2021-01-01",
                      listed="corrective", turn=1) for n, c in ((6, 14), (3, 5), (4, 1))]
    earlier = orders("Chiller 6", "CWC04706", total=20, corrective=11, start="2019-01-01", end="2020-01-01",
                     listed="corrective", turn=3)
    verdict = comparison_verdict("is that worse than the year before?", [listing[0], earlier], [*listing, earlier])
    assert verdict is not None and verdict.sentence == (
        "Yes, Chiller 6 had 14 corrective work orders in 2020 against 11 in 2019.")


def test_kpi_anomaly_events_are_answered_from_the_event_log_not_the_alert_rules() -> None:
    from graph.answering.verdicts import yes_no_verdict

    read = alerts("Chiller 9", "CWC04009", {"RUL0018": 60}, start="2016-06-01", end="2016-09-01")
    read.results["kpi_anomalies"] = [{"kpi": "Flow Efficiency above upper bound", "count": 7},
                                     {"kpi": "Delta Temperature below lower bound", "count": 2}]
    verdict = yes_no_verdict("were there any KPI anomaly events on it over the same stretch?", [read])
    assert verdict.sentence == ("Yes, 9 KPI anomaly events on CWC04009 from 2016-06-01 to 2016-09-01: Flow Efficiency "
                                "above upper bound (7), Delta Temperature below lower bound (2).")
    assert yes_no_verdict("any alarms on it?", [read]).sentence.startswith("Yes, 60 alerts")


def test_the_busiest_rules_across_the_site_are_summed_over_the_equipment() -> None:
    from graph.answering.asked_figures import site_rules_sentence

    reads = [alerts("Chiller 9", "CWC04009", {"RUL0017": 46, "RUL0022": 33}, start="2020-01-01", end="2020-12-21"),
             alerts("Chiller 6", "CWC04006", {"RUL0017": 33, "RUL0022": 27, "RUL0021": 2}, start="2020-01-01",
                    end="2020-12-21"),
             alerts("Chiller 3", "CWC04703", {"RUL0017": 34, "RUL0021": 1}, start="2020-01-01", end="2020-12-21")]
    assert site_rules_sentence("give me the top 2 alarm rules on site this year", reads) == (
        "Across CWC04009, CWC04006 and CWC04703, the busiest rules were RUL0017 (113 alerts) and RUL0022 (60 alerts).")
    assert site_rules_sentence("which chiller had the most alarms?", reads) is None
    assert site_rules_sentence("which rules fire most?", reads[:1]) is None


def test_is_it_fouled_is_answered_with_the_likeliest_fouling_mode() -> None:
    from graph.answering.verdicts import yes_no_verdict

    found = diagnosis("Chiller 6", ("No fault: normal operation", 0.6, 0.7), ("Purge Unit Excessive purge", 0.03, 0.35),
                      ("Evaporator Water side fouling", 0.0, 0.25), ("Condenser Water side fouling", 0.0, 0.1))
    verdict = yes_no_verdict("is it fouled?", [found])
    assert verdict.answer == "No" and verdict.sentence.startswith(
        "No, Evaporator Water side fouling is less likely (0.00-0.25)")


def test_the_most_common_codes_across_the_site_are_summed_over_the_listings() -> None:
    from graph.answering.asked_figures import site_codes_sentence

    six = orders("Chiller 6", "CWC04006", total=41, corrective=41, start="2015-01-01", end="2021-05-10")
    six.results["top_codes"] = [{"code": "M013", "description": "Condenser Plugged", "count": 9},
                                {"code": "L004", "description": "Gasket Leak", "count": 4}]
    nine = orders("Chiller 9", "CWC04009", total=20, corrective=12, start="2015-01-01", end="2021-05-10")
    nine.results["top_codes"] = [{"code": "L004", "description": "Gasket Leak", "count": 7},
                                 {"code": "MT001", "description": "Routine Maintenance", "count": 3}]
    assert site_codes_sentence("what's the most common failure code across the site?", [six, nine]) == (
        "Across 2 equipment ids, the most common codes were L004 Gasket Leak (11), M013 Condenser Plugged (9) and "
        "MT001 Routine Maintenance (3).")
    assert site_codes_sentence("which chiller had the most work orders?", [six, nine]) is None


def test_a_named_rule_is_totalled_across_the_site_counting_zero_where_it_did_not_fire() -> None:
    from graph.answering.asked_figures import alert_count_sentence

    reads = [alerts("Chiller 9", "CWC04009", {"RUL0018": 12, "RUL0017": 3}, start="2021-01-01", end="2021-04-01",
                    names=EVAP),
             alerts("Chiller 6", "CWC04006", {"RUL0018": 0, "RUL0022": 8}, start="2021-01-01", end="2021-04-01",
                    names=EVAP),
             alerts("Chiller 3", "CWC04703", {"RUL0017": 7}, start="2021-01-01", end="2021-04-01")]
    assert alert_count_sentence("how many alerts did RUL0018 throw site-wide last quarter?", reads) == (
        "RUL0018 Evaporator Approach High fired 12 times in all: RUL0018 Evaporator Approach High fired 12 times on "
        "CWC04009.")


def test_a_named_fault_the_evidence_does_not_support_is_answered_no() -> None:
    from graph.answering.verdicts import yes_no_verdict

    found = diagnosis("Chiller 4", ("Control Panel: Electrical failure (safety trip)", 0.94, 1.0),
                      ("Compressor Overheating: Failed due to Normal wear, overheating", 0.0, 0.14))
    verdict = yes_no_verdict("so is it a refrigerant leak?", [found])
    assert verdict.sentence == ("No, Purge Unit Excessive purge is not among the likely causes on Chiller 4; the most "
                                "likely is Control Panel: Electrical failure (safety trip) (0.94-1.00).")


def test_alerts_of_one_equipment_over_two_periods_are_not_summed() -> None:
    from graph.answering.asked_figures import alert_count_sentence

    june = alerts("Chiller 9", "CWC04009", {"RUL0018": 1}, start="2021-06-01", end="2021-07-01", id="june")
    may = alerts("Chiller 9", "CWC04009", {"RUL0017": 2, "RUL0022": 3}, start="2021-05-01", end="2021-06-01", id="may")
    assert alert_count_sentence("how many alarms did ch9 have this month vs last?", [june, may]) == (
        "Alerts on CWC04009: 1 in June 2021 and 5 in May 2021.")


def test_a_named_rule_of_one_equipment_counted_a_year_at_a_time_gives_each_year_in_order() -> None:
    from graph.answering.asked_figures import alert_count_sentence

    low = {"RUL0017": "Chiller - Load Low"}
    years = [alerts("Chiller 3", "CWC04703", {"RUL0017": n, "RUL0021": 4}, start=f"{y}-01-01", end=f"{y + 1}-01-01",
                    id=f"y{y}", names=low) for y, n in ((2018, 36), (2017, 27))]
    assert alert_count_sentence("low-load alarms off chiller 3, how many a year since 2017?", years) == (
        "RUL0017 Load Low fired 63 times on CWC04703: 27 in 2017 and 36 in 2018.")


def test_did_we_do_a_job_is_yes_with_the_order_or_no_with_the_period() -> None:
    from graph.answering.shapes import AnswerInputs, shaped_lead
    from tests.unit.answering.builders import orders

    summer = orders("Chiller 4", "CWC04704", total=6, corrective=0, start="2018-06-01", end="2018-09-01")
    summer.results["latest_per_job"] = [
        {"wo_id": "WO147484", "date": "2018-08-03", "code": "MT008", "description": "Leak Detection", "preventive": True},
        {"wo_id": "WO147575", "date": "2018-08-13", "code": "MT001", "description": "Routine Maintenance",
         "preventive": True}]
    lead = shaped_lead(AnswerInputs(shape="yes_no", scope="asset", question="did we already do a leak check on it "
                                    "this summer?", artifacts=[summer]))
    assert lead is not None and lead.first == "Yes, Chiller 4: WO147484 on 2018-08-03 (MT008 Leak Detection)."
    lead = shaped_lead(AnswerInputs(shape="yes_no", scope="asset", question="have we had an oil analysis done on it "
                                    "this summer?", artifacts=[summer]))
    assert lead is not None and lead.first.startswith("No, no such work order on Chiller 4")


def test_maintenance_raising_corrective_orders_is_who_raised_them_not_a_job_done() -> None:
    from graph.answering.shapes import AnswerInputs, shaped_lead
    from tests.unit.answering.builders import orders

    quarter = orders("Chiller 6", "CWC04006", total=2, corrective=2, start="2020-04-01", end="2020-07-01", listed="corrective",
                     recent=[{"wo_id": "WO153604", "date": "2020-05-26", "code": "M013",
                              "description": "Condenser Plugged", "preventive": False}])
    lead = shaped_lead(AnswerInputs(shape="yes_no", scope="asset", question="did maintenance raise any corrective work "
                                    "orders on it during that second quarter?", artifacts=[quarter]))
    assert lead is not None and lead.first.startswith("Yes")


def test_a_repeat_counts_the_rule_the_dialog_asked_about_and_the_worst_year_all_alarms() -> None:
    from graph.answering.asked_figures import alert_count_sentence
    from graph.answering.compare_verdicts import period_record_pick

    low = {"RUL0017": "Chiller - Load Low"}
    years = []
    for year, load_low in ((2017, 29), (2018, 32), (2019, 43)):
        listing = alerts("Chiller 4", "CWC04704", {"RUL0017": load_low, "RUL0021": 2}, start=f"{year}-01-01",
                         end=f"{year + 1}-01-01", id=f"y{year}", names=low)
        listing.results["asked_rules"] = ["RUL0017"]
        years.append(listing)
    verdict = period_record_pick("worst yr?", years)  # (the alarms as a whole: a rule asked before is not assumed)
    assert verdict is not None and verdict.sentence.startswith(
        "2019 was the worst: Chiller 4 had 45 alerts in 2019, against 31 in 2017, 34 in 2018.")
    assert alert_count_sentence("same breakdown for 9", years) == (
        "RUL0017 Load Low fired 104 times on CWC04704: 29 in 2017, 32 in 2018 and 43 in 2019.")


def test_the_busiest_month_counts_the_rule_the_dialog_asked_about() -> None:
    from graph.answering.stat_questions import busiest_month_sentence

    spring = alerts("Chiller 9", "CWC04009", {"RUL0022": 20, "RUL0017": 21}, start="2019-03-01", end="2019-06-01",
                    names={"RUL0022": "Chiller - Chiller Cycling"})
    spring.results["rules"][0]["months"] = {"2019-03": 5, "2019-04": 10, "2019-05": 5}
    spring.results["rules"][1]["months"] = {"2019-03": 1, "2019-04": 7, "2019-05": 13}
    spring.results["per_month"] = {"2019-03": 6, "2019-04": 17, "2019-05": 18}
    spring.results["asked_rules"] = ["RUL0022"]
    found = busiest_month_sentence("which month was worst this year?", [spring])
    assert found is not None and found[0].startswith(
        "April 2019 was the busiest month for RUL0022 Chiller Cycling alerts on CWC04009: 10 of 20")


def test_alerts_fired_on_several_chillers_are_said_by_chiller_name() -> None:
    from graph.answering.verdicts import alert_verdict

    reads = [alerts("Chiller 9", "CWC04009", {"RUL0017": 9}, start="2021-01-01", end="2021-03-10"),
             alerts("Chiller 4", "CWC04704", {"RUL0017": 5}, start="2021-01-01", end="2021-03-10")]
    verdict = alert_verdict(reads, "have any of the chillers been throwing alerts since new year, and which one the most?")
    assert verdict is not None and verdict.sentence.startswith(
        "Yes, alerts fired on 2 equipment ids: 9 on Chiller 9 (CWC04009) and 5 on Chiller 4 (CWC04704)")


def test_on_top_again_is_the_place_of_the_one_picked_in_the_new_period() -> None:
    from graph.answering.asked_figures import rank_place
    from tests.unit.answering.builders import window

    june = [window(c, "2019-06-01", "2019-07-01", {"Power Input": (kw, "kW")}, id=f"w{c[-1]}")
            for c, kw in (("Chiller 6", 304.2), ("Chiller 9", 271.7), ("Chiller 3", 188.5))]
    place = rank_place("was 6 also on top in the same month a year earlier?", june, "Chiller 6", ["Power Input"])
    assert place is not None and place[0] == "Yes"
    assert place[1].startswith("Yes, Chiller 6 was the highest on power input in June 2019: 304.2 kW")


def test_a_ranking_of_alerts_asked_for_leads_with_the_ranking_not_the_total() -> None:
    from graph.answering.asked_figures import alert_count_sentence

    reads = [alerts("Chiller 9", "CWC04009", {"RUL0017": 41}, start="2020-01-01", end="2020-07-01"),
             alerts("Chiller 3", "CWC04703", {"RUL0017": 16}, start="2020-01-01", end="2020-07-01")]
    assert alert_count_sentence("rank the chillers by how many alerts they threw in the first half", reads) is None
    assert alert_count_sentence("how many alerts did the chillers throw in the first half?", reads) is not None


def test_a_job_said_to_be_on_file_is_confirmed_with_the_order_its_words_describe() -> None:
    from graph.answering.verdicts import work_order_existence_verdict
    from tests.unit.answering.builders import orders

    plugged = {"wo_id": "WO156507", "date": "2021-03-31", "code": "M013",
               "description": "Condenser Plugged: Condenser Plugged (Partial) (condenser)"}
    routine = {"wo_id": "WO157002", "date": "2021-05-19", "code": "MT001",
               "description": "Routine Maintenance: Scheduled Inspection (entire chiller system)"}
    spring = orders("Chiller 4", "CWC04704", total=7, corrective=1, start="2021-03-01", end="2021-06-01",
                    recent=[routine, plugged])
    verdict = work_order_existence_verdict([spring], "there's already a condenser-plugged job on file from the spring, "
                                                     "isn't there?")
    assert verdict is not None and verdict.sentence.startswith("Yes, 7 work orders")
    assert "WO156507 on 2021-03-31 (M013 Condenser Plugged" in verdict.sentence
    plain = work_order_existence_verdict([spring], "any work orders on it this spring?")
    assert plain is not None and "the latest is WO157002" in plain.sentence


def test_a_named_rule_over_one_equipments_periods_is_summed_in_a_yes() -> None:
    from graph.answering.verdicts import alert_verdict

    evap = {"RUL0018": "Chiller - Evaporator Approach High"}
    months = [alerts("Chiller 9", "CWC04009", {"RUL0018": n}, start=f"2016-{m:02d}-01", end=f"2016-{m + 1:02d}-01",
                     id=f"m{m}", names=evap) for m, n in ((6, 0), (7, 20), (8, 40))]
    verdict = alert_verdict(months, "did the evaporator approach alarm fire much over those three months?")
    assert verdict is not None and verdict.sentence == (
        "Yes, RUL0018 Evaporator Approach High fired 60 times on CWC04009: 0 in June 2016, 20 in July 2016 and 40 in "
        "August 2016.")


def test_tuning_the_alarm_named_is_advised_on_that_rule_not_the_busiest() -> None:
    from graph.answering.recommend import recommend
    from tests.unit.answering.test_record_verdicts import NAMES, outcome

    listing = alerts("Chiller 9", "CWC04009", {"RUL0022": 26, "RUL0017": 146}, start="2020-01-01", end="2021-01-01",
                     names=NAMES)
    advice = recommend("is it worth loosening the cycling alarm?", [listing, outcome("RUL0022", 26, 0.57, "meaningful"),
                                                                    outcome("RUL0017", 146, 0.05, "likely spurious")],
                       None)
    assert "RUL0022 Chiller Cycling" in advice.sentence


def test_did_it_make_a_difference_is_judged_around_the_order_the_readings_sit_either_side_of() -> None:
    from graph.answering.change_verdicts import repair_verdict
    from tests.unit.answering.builders import orders, window

    cleaning = {"wo_id": "WO153938", "date": "2020-07-09", "code": "MT002",
                "description": "Cleaning: Condenser Tube Cleaning (condenser)", "preventive": True}
    leak = {"wo_id": "WO157323", "date": "2021-07-01", "code": "L002", "description": "Water Leak: Condenser Water Leak"}
    listing = orders("Chiller 6", "CWC04006", total=35, corrective=15, start="2020-07-06", end="2021-07-06",
                     recent=[leak])
    listing.results["latest_per_job"] = [cleaning]
    before = window("Chiller 6", "2020-06-25", "2020-07-09", {"Chiller Efficiency": (0.46, "kW/ton")}, id="b")
    after = window("Chiller 6", "2020-07-10", "2020-07-24", {"Chiller Efficiency": (0.41, "kW/ton")}, id="a")
    verdict = repair_verdict("did it make a difference? compare the fortnight before with the fortnight after.",
                             [listing, before, after], [])
    assert verdict is not None and verdict.sentence.startswith(
        "Yes, Chiller 6 runs more efficiently after WO153938 (Cleaning: Condenser Tube Cleaning (condenser)) on "
        "2020-07-09: 0.41 kW/ton")


def test_was_a_year_any_quieter_holds_that_year_against_the_one_discussed() -> None:
    from graph.answering.compare_verdicts import comparison_verdict
    from tests.unit.answering.builders import alerts as listed

    twenty = listed("Chiller 6", "CWC04006", {"RUL0017": 33, "RUL0022": 30}, start="2020-01-01", end="2021-01-01",
                    id="y2020")
    nineteen = listed("Chiller 6", "CWC04006", {"RUL0017": 46, "RUL0022": 31}, start="2019-01-01", end="2020-01-01",
                      id="y2019")
    verdict = comparison_verdict("was 2019 any quieter on that front?", [nineteen], [twenty, nineteen])
    assert verdict is not None and verdict.sentence.startswith("No, Chiller 6 had 77 alerts in 2019 against 63 in 2020")
