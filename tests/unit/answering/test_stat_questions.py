"""A statistic other than the mean leads when the question asks it: the peak or low of a reading, run time."""

from datetime import UTC, datetime

from graph.answering.stat_questions import extreme_sentence, run_time_sentence
from tests.unit.answering.builders import art

JUNE = {"start": datetime(2021, 6, 1, 4, tzinfo=UTC), "end": datetime(2021, 7, 1, 4, tzinfo=UTC)}


def _window() -> object:
    stats = {"Chiller 4 Tonnage": {"mean": 208.9, "running_mean": 383.8, "min": 0.0, "max": 591.4, "unit": "tons"}}
    return art("telemetry_window", {"stats": stats, "running_share": 0.54}, asset="Chiller 4", producer="data", **JUNE)


def test_the_peak_of_the_named_reading_leads() -> None:
    assert extreme_sentence("what's the peak tonnage it hit in that month?", [_window()]) == (  # type: ignore[list-item]
        "Chiller 4 peaked at 591.4 tons of tonnage in June 2021 (383.8 tons on average while running).")
    assert extreme_sentence("what was its tonnage?", [_window()]) is None  # type: ignore[list-item]


def test_run_hours_are_the_running_share_of_the_window() -> None:
    assert run_time_sentence("how many hours did chiller 4 run last month?", [_window()]) == (  # type: ignore[list-item]
        "Chiller 4 ran about 389 hours in June 2021 (54% of the time, 16.2 days).")
    assert run_time_sentence("how did it run?", [_window()]) is None  # type: ignore[list-item]


def test_which_ran_the_most_hours_ranks_on_running_share() -> None:
    from graph.answering.stat_questions import run_time_ranking

    four = _window()
    nine = art("telemetry_window", {"stats": {"Chiller 9 Tonnage": {"running_mean": 500.0}}, "running_share": 0.61},
               asset="Chiller 9", producer="data", **JUNE)
    ranked = run_time_ranking("which chiller ran the most hours last month?", [four, nine])  # type: ignore[list-item]
    assert ranked is not None and ranked[0] == "Chiller 9 ran the most: about 439 hours (61%) in June 2021."
    least = run_time_ranking("and which ran the least?", [four, nine])  # type: ignore[list-item]
    assert least is not None and least[0].startswith("Chiller 4 ran the least")


def test_the_last_n_orders_are_listed_newest_first() -> None:
    from graph.answering.stat_questions import order_listing

    listing = art("work_order_summary", {"kind": "corrective", "recent": [
        {"wo_id": "WO3", "date": "2021-05-31", "code": "OP003", "description": "Biological Fouling"},
        {"wo_id": "WO2", "date": "2021-04-19", "code": "L002", "description": "Water Leak"},
        {"wo_id": "WO1", "date": "2021-02-26", "code": "M009", "description": "Seal Failure"}]},
        asset="Chiller 9", producer="maintenance")
    found = order_listing("what were the last two corrective jobs on it?", [listing])
    assert found is not None and found[0] == "The last 2 corrective work orders on Chiller 9: WO3 on 2021-05-31; WO2 on 2021-04-19."
    assert found[1] == ["- WO3, 2021-05-31: OP003 Biological Fouling", "- WO2, 2021-04-19: L002 Water Leak"]


def test_a_chiller_that_was_off_is_said_to_be_off_before_its_idle_readings() -> None:
    from graph.answering.stat_questions import idle_sentence

    off = art("telemetry_window", {"stats": {"Chiller 9 Supply Temperature": {"mean": 69.1, "unit": "degF"}},
                                   "running_share": 0.0}, asset="Chiller 9", producer="data", **JUNE)
    assert idle_sentence([off]) == (  # type: ignore[list-item]
        "Chiller 9 was not running in June 2021 (no running samples): the readings are those of an idle chiller, "
        "so they say nothing about how it holds setpoint or performs.")
    assert idle_sentence([_window()]) is None  # type: ignore[list-item]
    # a few running samples are not none: "barely ran", since figures while running follow
    barely = art("telemetry_window", {"stats": {"Chiller 9 Supply Temperature": {"mean": 69.1, "unit": "degF"}},
                                      "running_share": 0.004}, asset="Chiller 9", producer="data", **JUNE)
    assert (idle_sentence([barely]) or "").startswith(  # type: ignore[list-item]
        "Chiller 9 barely ran in June 2021 (under 1% of samples running)")


def test_a_point_value_read_with_the_load_at_zero_says_the_chiller_was_off() -> None:
    from graph.answering.stat_questions import idle_sentence
    from tests.unit.answering.builders import art, day

    def read(load_max: float) -> object:
        values = {"Chiller 9 Chiller % Loaded": {"mean": load_max / 2, "min": 0.0, "max": load_max, "count": 96}}
        return art("point_values", {"values": values}, asset="Chiller 9", producer="data",
                   start=day("2020-06-15"), end=day("2020-06-16"))

    assert (idle_sentence([read(0.0)]) or "").startswith("Chiller 9 was not running on 2020-06-15")  # type: ignore[list-item]
    assert idle_sentence([read(64.0)]) is None  # type: ignore[list-item]
    without_load = art("point_values", {"values": {"Chiller 9 Supply Temperature": {"mean": 55.0}}}, asset="Chiller 9")
    assert idle_sentence([without_load]) is None


def test_the_busiest_or_quietest_month_for_alerts_is_picked_from_the_monthly_counts() -> None:
    from graph.answering.stat_questions import busiest_month_sentence
    from tests.unit.answering.builders import alerts

    read = alerts("Chiller 6", "CWC04006", {"RUL0017": 62}, start="2021-01-01", end="2021-04-03")
    read.results["per_month"] = {"2021-01": 20, "2021-02": 17, "2021-03": 25}
    found = busiest_month_sentence("what's the worst month for alarms on 6 this year?", [read])
    assert found is not None and found[0] == (
        "March 2021 was the busiest month for alerts on CWC04006: 25 of 62 in 2021.")
    assert found[1][0] == "- January 2021: 20 alerts"
    quiet = busiest_month_sentence("which month was quietest?", [read])
    assert quiet is not None and quiet[0].startswith("February 2021 was the quietest month")
    assert busiest_month_sentence("which rule fires most?", [read]) is None


def test_the_labour_the_orders_took_is_summed_per_equipment() -> None:
    from graph.answering.stat_questions import labour_sentence
    from tests.unit.answering.builders import orders

    six = orders("Chiller 6", "CWC04006", total=3, corrective=3, start="2020-08-01", end="2020-09-01")
    six.results.update({"labor_hours": 7.5, "corrective_labor_hours": 7.5})
    three = orders("Chiller 3", "CWC04703", total=1, corrective=1, start="2020-08-01", end="2020-09-01")
    three.results.update({"labor_hours": 2.0, "corrective_labor_hours": 1.0})
    assert labour_sentence("how much labour did those take?", [six, three]) == (
        "The 3 work orders on CWC04006 in August 2020 took 7.5 labour hours; the 1 work order on CWC04703 in August "
        "2020 took 2 labour hours (1 on corrective orders).")
    assert labour_sentence("how many work orders?", [six]) is None


def test_a_total_over_the_plant_sums_each_chillers_mean_and_gives_the_energy() -> None:
    from graph.answering.stat_questions import total_sentence
    from tests.unit.answering.builders import window

    reads = [window(f"Chiller {n}", "2020-08-14", "2020-08-15", {"Power Input": (kw, "kW")}) for n, kw in
             ((3, 185.7), (9, 300.0))]  # the builder's all-samples mean is half the running mean
    assert total_sentence("what was the plant's total power draw yesterday?", reads) == (
        "The 2 chillers drew 242.8 kW in all on average on 2020-08-14 (about 5,828 kWh): Chiller 9 150.0 kW, "
        "Chiller 3 92.8 kW.")
    assert total_sentence("what was chiller 3's power yesterday?", reads) is None


def test_the_listed_order_that_took_the_most_labour_is_picked() -> None:
    from graph.answering.stat_questions import most_labour_sentence
    from tests.unit.answering.builders import orders

    listing = orders("Chiller 9", "CWC04009", total=2, corrective=0, start="2020-02-01", end="2020-03-01", recent=[
        {"wo_id": "WO2", "date": "2020-02-18", "code": "MT013", "description": "Vibration Analysis", "labor_hours": 1.0},
        {"wo_id": "WO1", "date": "2020-02-17", "code": "MT008", "description": "Leak Detection", "labor_hours": 2.0}])
    assert most_labour_sentence("which of those took the most hours?", [listing]) == (
        "WO1 on 2020-02-17 (MT008 Leak Detection) took the most labour: 2 h of the 3 h booked on the 2 listed.")
    assert most_labour_sentence("which of those was the latest?", [listing]) is None


def test_a_total_takes_one_window_for_every_chiller() -> None:
    from graph.answering.stat_questions import total_sentence
    from tests.unit.answering.builders import window

    week = [window(f"Chiller {n}", "2021-05-26", "2021-06-02", {"Power Input": (kw, "kW")}) for n, kw in
            ((3, 200.0), (9, 400.0))]
    day = [window(f"Chiller {n}", "2021-06-01", "2021-06-02", {"Power Input": (kw, "kW")}, id=f"day{n}")
           for n, kw in ((3, 2.0), (4, 300.0), (9, 100.0))]
    said = total_sentence("what was the plant's total power draw yesterday?", [*week, *day])
    assert said is not None and said.startswith("The 3 chillers drew 201.0 kW in all on average on 2021-06-01")


def test_one_chiller_over_two_periods_leads_with_the_later_figure_and_how_far_it_moved() -> None:
    from graph.answering.period_verdict import period_change_sentence
    from tests.unit.answering.builders import window
    now = window("Chiller 4", "2021-06-01", "2021-07-01", {"Tonnage": (380.0, "tons")})
    before = window("Chiller 4", "2020-06-01", "2020-07-01", {"Tonnage": (400.0, "tons")})
    assert period_change_sentence("how does the tonnage stack up against last june?", [now, before]) == (
        "Chiller 4's tonnage averaged 380.0 tons while running in June 2021, 5% lower than 400.0 tons in June 2020.")
    # a follow-up naming no reading is about the one the turn fetched
    assert period_change_sentence("same comparison for chiller 4", [now, before], ["Tonnage"]) is not None
    assert period_change_sentence("same comparison for chiller 4", [now, before]) is None
    overlapping = window("Chiller 4", "2021-06-15", "2021-07-15", {"Tonnage": (390.0, "tons")})
    assert period_change_sentence("tonnage vs the month before?", [now, overlapping]) is None


def test_chillers_read_over_the_same_two_periods_are_ranked_on_the_change_the_question_asks_about() -> None:
    from graph.answering.period_verdict import change_ranking
    from tests.unit.answering.builders import window

    def pair(asset: str, before: float, now: float) -> list[object]:
        return [window(asset, "2020-05-01", "2020-06-01", {"Chiller Efficiency": (before, "kW/ton")}),
                window(asset, "2021-05-01", "2021-06-01", {"Chiller Efficiency": (now, "kW/ton")})]

    artifacts = [*pair("Chiller 3", 0.40, 0.40), *pair("Chiller 4", 0.38, 0.44), *pair("Chiller 9", 0.37, 0.38)]
    worse = change_ranking("whose kW/ton is worse than this time last year?", artifacts)  # type: ignore[arg-type]
    assert worse is not None and worse.first == "Chiller 4"
    assert worse.headline.startswith("Chiller 4: its efficiency is 16% worse than in May 2020, 0.44 kW/ton while running")
    assert "also Chiller 9" in worse.headline  # 3% worse too; Chiller 3 did not move
    better = change_ranking("did any chiller's kW/ton get better than last may?", artifacts)  # type: ignore[arg-type]
    assert better is not None and better.headline.startswith("None:")
    assert change_ranking("kW/ton last may and this may?", artifacts) is None  # which way is not asked


def test_what_a_reading_was_doing_is_its_mean_and_range_over_the_window() -> None:
    from graph.answering.stat_questions import reading_course_sentence
    from tests.unit.answering.builders import window
    week = window("Chiller 9", "2019-07-17", "2019-07-24", {"Power Input": (261.3, "kW")})
    week.results["stats"]["Chiller 9 Power Input"].update({"min": 1.5, "max": 460.1})
    assert reading_course_sentence("what was the kw doing in the week before the trip?", [week]) == (
        "Chiller 9's power input averaged 261.3 kW while running from 2019-07-17 to 2019-07-24, between 1.5 kW "
        "and 460.1 kW.")
    assert reading_course_sentence("what was the kw last week?", [week]) is None  # a figure, not its course


def test_the_same_period_last_year_is_set_against_this_years_same_dates_not_another_window() -> None:
    from graph.answering.period_verdict import period_verdict
    from tests.unit.answering.builders import window
    summer = window("Chiller 6", "2017-06-01", "2017-08-20", {"Chiller Efficiency": (0.44, "kW/ton")}, turn=1)
    august = window("Chiller 6", "2017-08-01", "2017-08-21", {"Chiller Efficiency": (0.47, "kW/ton")}, turn=2)
    last_year = window("Chiller 6", "2016-08-01", "2016-08-21", {"Chiller Efficiency": (0.45, "kW/ton")}, turn=3)
    verdict = period_verdict("was its kW/ton this bad over the same period last year?", [last_year],
                             [summer, august, last_year])
    assert verdict is not None and verdict.answer == "No"
    assert "0.47 kW/ton while running in August 2017" in verdict.sentence  # this year's same dates, not the summer


def test_a_change_over_the_same_days_a_year_apart_says_so() -> None:
    from graph.answering.period_verdict import change_ranking
    from tests.unit.answering.builders import window
    artifacts = [window(a, start, end, {"Chiller Efficiency": (value, "kW/ton")}, id=f"w{a[-1]}{start}")
                 for a, pairs in (("Chiller 3", ((0.40, 0.48),)), ("Chiller 4", ((0.40, 0.41),)))
                 for before, now in pairs
                 for start, end, value in (("2020-04-28", "2020-05-28", before), ("2021-04-28", "2021-05-28", now))]
    worse = change_ranking("whose kW/ton is worse than this time last year?", artifacts)  # type: ignore[arg-type]
    assert worse is not None and worse.headline.startswith(
        "Chiller 3: its efficiency is 20% worse than the same days a year earlier (2020-04-28 to 2020-05-28)")
