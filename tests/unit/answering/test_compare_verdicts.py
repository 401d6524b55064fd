"""Comparisons answered yes/no: two assets over one window, one asset over two windows, the polarity of
the comparative word, and no verdict when only one side is known."""

from graph.answering.compare_terms import comparison_sense, period_phrase, subject_first
from graph.answering.compare_verdicts import comparison_verdict
from graph.answering.verdicts import yes_no_verdict
from tests.unit.answering.builders import alerts, day, orders, window

EVAP = {"RUL0018": "Chiller - Evaporator Approach High"}


def test_comparative_words_read_the_way_the_figure_goes() -> None:
    assert comparison_sense("Is 6 breaking down more than 4?", higher_is_worse=True) == "higher"
    assert comparison_sense("fewer alerts than last month?", higher_is_worse=True) == "lower"
    # "less efficient" is more kW per ton although it says "less"
    assert comparison_sense("is 3 less efficient than 9?", higher_is_worse=True) == "higher"
    assert comparison_sense("is 3 more efficient than 9?", higher_is_worse=True) == "lower"
    assert comparison_sense("is its flow worse than on 9?", higher_is_worse=False) == "lower"
    assert comparison_sense("was the gap down to the condenser?", higher_is_worse=False) is None
    # "the worse one" names the one picked; "any better" is the comparison asked
    assert comparison_sense("was the worse one of the first pair any better the summer before?",
                            higher_is_worse=True) == "lower"


def test_the_subject_is_what_stands_before_than() -> None:
    candidates = [("Chiller 4", ["Chiller 4", "CWC04704"]), ("Chiller 6", ["Chiller 6", "CWC04006"])]
    assert subject_first("Is Chiller 6 breaking down more than Chiller 4?", candidates) == ["Chiller 6", "Chiller 4"]
    assert subject_first("is the 6 worse than ch4?", candidates) == ["Chiller 6", "Chiller 4"]
    # only the reference named: the other one is the subject
    assert subject_first("Is it failing more often than Chiller 6?", candidates) == ["Chiller 4", "Chiller 6"]


def test_periods_are_said_as_people_say_them() -> None:
    assert period_phrase(day("2020-01-01"), day("2020-12-16")) == "in 2020"
    assert period_phrase(day("2020-06-01"), day("2020-07-01")) == "in June 2020"
    assert period_phrase(day("2021-03-01"), day("2021-06-20")) == "from 2021-03-01 to 2021-06-20"
    assert period_phrase(day("2020-01-01"), day("2020-04-01")) == "in Q1 2020"  # a whole quarter, not the year
    assert period_phrase(day("2020-04-01"), day("2020-07-01")) == "in Q2 2020"


def test_more_breakdowns_on_one_asset_than_another_counts_corrective_orders() -> None:
    six = orders("Chiller 6", "CWC04006", total=30, corrective=13, start="2020-01-01", end="2020-12-16")
    four = orders("Chiller 4", "CWC04704", total=25, corrective=1, start="2020-01-01", end="2020-12-16")
    verdict = yes_no_verdict("Is Chiller 6 breaking down more than Chiller 4 this year?", [four, six])
    assert verdict.sentence == "Yes, Chiller 6 had 13 corrective work orders in 2020 against 1 on Chiller 4."
    flipped = yes_no_verdict("Is Chiller 4 breaking down more than Chiller 6 this year?", [six, four])
    assert flipped.answer == "No" and flipped.sentence.startswith("No, Chiller 4 had 1 corrective work order in 2020")
    fewer = yes_no_verdict("Does Chiller 4 have fewer repairs than Chiller 6?", [six, four])
    assert fewer.answer == "Yes"


def test_without_breakdown_words_all_work_orders_are_compared() -> None:
    six = orders("Chiller 6", "CWC04006", total=30, corrective=13, start="2020-01-01", end="2020-12-16")
    four = orders("Chiller 4", "CWC04704", total=35, corrective=1, start="2020-01-01", end="2020-12-16")
    verdict = comparison_verdict("Does Chiller 6 get more work orders than Chiller 4?", [six, four], [])
    assert verdict is not None and verdict.answer == "No" and "30 work orders" in verdict.sentence


def test_equal_counts_are_no_with_both_figures() -> None:
    six = orders("Chiller 6", "CWC04006", total=9, corrective=3, start="2020-01-01", end="2020-12-16")
    four = orders("Chiller 4", "CWC04704", total=9, corrective=3, start="2020-01-01", end="2020-12-16")
    verdict = comparison_verdict("Is Chiller 6 failing more than Chiller 4?", [six, four], [])
    assert verdict is not None and verdict.answer == "No" and "about the same" in verdict.sentence


def test_a_named_rule_against_every_other_equipment_of_the_same_window_in_the_session() -> None:
    window_ = {"start": "2021-01-01", "end": "2021-09-02", "names": EVAP}
    nine = alerts("Chiller 9", "CWC04009", {"RUL0018": 51, "RUL0017": 20}, **window_)
    others = [alerts("Chiller 6", "CWC04006", {"RUL0018": 1, "RUL0014": 120}, **window_),
              alerts("Chiller 3", "CWC04703", {"RUL0018": 0}, **window_)]
    question = "Is the Evaporator Approach High rule firing more on Chiller 9 than anywhere else?"
    verdict = comparison_verdict(question, [nine], others)
    assert verdict is not None and verdict.answer == "Yes"
    assert verdict.sentence.startswith("Yes, Chiller 9 had 51 RUL0018 Evaporator Approach High alerts in 2021")
    assert "1 on Chiller 6" in verdict.sentence  # the rule's count there, not all of Chiller 6's 121 alerts
    # a session artifact over another window is not the same comparison
    later = alerts("Chiller 6", "CWC04006", {"RUL0018": 90}, start="2021-06-01", end="2021-07-01", names=EVAP)
    assert comparison_verdict(question, [nine], [later]) is None


def test_one_sensor_of_two_assets_less_efficient_is_higher_kw_per_ton() -> None:
    three = window("Chiller 3", "2020-06-01", "2020-07-01", {"Chiller Efficiency": (0.49, "kW/ton")})
    nine = window("Chiller 9", "2020-06-01", "2020-07-01", {"Chiller Efficiency": (0.42, "kW/ton")})
    verdict = yes_no_verdict("is 3 less efficient than 9?", [three, nine])
    assert verdict.answer == "Yes"
    assert verdict.sentence == ("Yes, Chiller 3's efficiency was 0.49 kW/ton while running in June 2020 against "
                                "0.42 kW/ton while running on Chiller 9.")
    assert yes_no_verdict("is 9 less efficient than 3?", [three, nine]).answer == "No"


def test_one_asset_over_two_windows_of_different_length_is_compared_per_day() -> None:
    june = alerts("Chiller 9", "CWC04009", {"RUL0018": 24}, start="2021-06-01", end="2021-06-16", names=EVAP)
    may = alerts("Chiller 9", "CWC04009", {"RUL0018": 31}, start="2021-05-01", end="2021-06-01", names=EVAP)
    question = "Are its Evaporator Approach High alerts more frequent this month than last?"
    verdict = comparison_verdict(question, [june], [may])
    assert verdict is not None and verdict.answer == "Yes"  # 24 in 15 days is more often than 31 in 31 days
    assert "per 30 days" in verdict.sentence and "24 RUL0018 Evaporator Approach High alerts" in verdict.sentence


def test_no_verdict_with_one_side_or_no_comparison() -> None:
    six = orders("Chiller 6", "CWC04006", total=30, corrective=13, start="2020-01-01", end="2020-12-16")
    assert comparison_verdict("Is Chiller 6 breaking down more than Chiller 4?", [six], []) is None
    four = orders("Chiller 4", "CWC04704", total=25, corrective=1, start="2020-01-01", end="2020-12-16")
    assert comparison_verdict("Any work orders on Chiller 6 and Chiller 4?", [six, four], []) is None


def test_a_comparison_with_one_alert_count_is_not_answered_by_that_count() -> None:
    june = alerts("Chiller 9", "CWC04009", {"RUL0018": 24}, start="2021-06-01", end="2021-06-29", names=EVAP)
    verdict = yes_no_verdict("Are its Evaporator Approach High alerts more frequent this month than last?", [june])
    assert verdict.answer == "Not clearly"
    assert verdict.sentence.startswith("Not clearly from this alone: ")


def test_a_comparison_with_a_norm_is_not_a_comparison_of_two_assets() -> None:
    three = window("Chiller 3", "2020-06-01", "2020-07-01", {"Chiller Efficiency": (0.49, "kW/ton")})
    nine = window("Chiller 9", "2020-06-01", "2020-07-01", {"Chiller Efficiency": (0.42, "kW/ton")})
    assert comparison_verdict("Is Chiller 3 less efficient than normal?", [three, nine], []) is None
    hotter = window("Chiller 3", "2020-06-01", "2020-07-01", {"Supply Temperature": (46.0, "degF")})
    cooler = window("Chiller 9", "2020-06-01", "2020-07-01", {"Supply Temperature": (44.0, "degF")})
    verdict = comparison_verdict("Is Chiller 3's supply running hotter than Chiller 9's?", [hotter, cooler], [])
    assert verdict is not None and verdict.answer == "Yes"


def test_two_periods_of_one_asset_do_not_answer_a_question_about_another_asset() -> None:
    june = alerts("Chiller 9", "CWC04009", {"RUL0018": 24}, start="2021-06-01", end="2021-07-01", names=EVAP)
    may = alerts("Chiller 9", "CWC04009", {"RUL0018": 10}, start="2021-05-01", end="2021-06-01", names=EVAP)
    assert comparison_verdict("Is Chiller 9 firing more alerts than Chiller 6?", [june], [may]) is None
    assert comparison_verdict("Is the 9 firing more alerts than the 6?", [june], [may]) is None
    assert comparison_verdict("More alerts than last month?", [june], [may]).answer == "Yes"  # type: ignore[union-attr]


def test_two_directions_offered_are_answered_with_the_one_the_figures_took() -> None:
    from graph.answering.compare_verdicts import direction_choice

    def decide(question: str) -> object:
        return yes_no_verdict(question, [this_year, last_year])

    this_year = orders("Chiller 2", "CWC04702", total=9, corrective=7, start="2020-01-01", end="2021-01-01")
    last_year = orders("Chiller 2", "CWC04702", total=6, corrective=3, start="2019-01-01", end="2020-01-01")
    moved = direction_choice("more or fewer breakdowns vs 2019?", decide)  # type: ignore[arg-type]
    assert moved is not None and moved.sentence == ("More: Chiller 2 had 7 corrective work orders in 2020 against 3 "
                                                    "in 2019.")
    flat = orders("Chiller 2", "CWC04702", total=9, corrective=3, start="2020-01-01", end="2021-01-01")
    this_year = flat
    same = direction_choice("more or fewer breakdowns vs 2019?", decide)  # type: ignore[arg-type]
    assert same is not None and same.sentence.startswith("About the same:")
    assert direction_choice("is it more than 2019?", decide) is None  # type: ignore[arg-type]


def test_which_of_two_periods_had_more_records_is_answered_with_the_period_and_both_counts() -> None:
    from graph.answering.compare_verdicts import period_record_pick
    earlier = orders("Chiller 2", "CWC04702", total=9, corrective=4, start="2018-01-01", end="2019-01-01")
    later = orders("Chiller 2", "CWC04702", total=9, corrective=6, start="2019-01-01", end="2020-01-01")
    pick = period_record_pick("were there more breakdowns in 2018 or in 2019?", [earlier, later])
    assert pick is not None and pick.sentence == ("More in 2019: Chiller 2 had 6 corrective work orders in 2019 "
                                                  "against 4 in 2018.")
    fewer = period_record_pick("fewer breakdowns in 2018 or 2019?", [earlier, later])
    assert fewer is not None and fewer.sentence.startswith("Fewer in 2018:")
    assert period_record_pick("breakdowns in 2018 or 2019?", [earlier, later]) is None  # which way not asked


def test_a_difference_in_records_between_two_periods_states_both_counts_and_the_busier_rule() -> None:
    from graph.answering.compare_verdicts import period_record_difference
    earlier = alerts("Chiller 4", "CWC04704", {"RUL0018": 0}, start="2020-06-01", end="2020-07-01")
    later = alerts("Chiller 4", "CWC04704", {"RUL0018": 12, "RUL0016": 2}, start="2021-06-01", end="2021-07-01",
                   names={"RUL0018": "Chiller - Evaporator Approach High"})
    found = period_record_difference("did the alarm count change between those two junes?", [earlier, later])
    assert found is not None and found.answer == "Yes"
    assert found.sentence.startswith("Yes, Chiller 4 had 14 alerts in June 2021 against 0 in June 2020, mostly RUL0018")
    same = alerts("Chiller 4", "CWC04704", {"RUL0018": 14}, start="2020-06-01", end="2020-07-01")
    unchanged = period_record_difference("any difference in alarms?", [same, later])
    assert unchanged is not None and unchanged.answer == "No"
    assert period_record_difference("how many alarms?", [earlier, later]) is None  # no difference asked


def test_is_one_any_better_after_a_ranking_holds_it_against_the_worst_of_the_others() -> None:
    from graph.answering.compare_verdicts import comparison_verdict
    from tests.unit.answering.builders import window

    ranked = [window(f"Chiller {n}", "2021-05-01", "2021-05-21", {"Chiller Efficiency": (v, "kW/ton")})
              for n, v in ((3, 0.40), (4, 0.44), (6, 0.38))]
    nine = window("Chiller 9", "2021-05-01", "2021-05-21", {"Chiller Efficiency": (0.37, "kW/ton")})
    verdict = comparison_verdict("is 9 any better?", [nine], ranked)
    assert verdict is not None and verdict.sentence.startswith("Yes, Chiller 9's efficiency was 0.37 kW/ton")
    assert "0.44" in verdict.sentence and "Chiller 4" in verdict.sentence
    assert comparison_verdict("is 9 getting any better?", [nine], ranked) is None  # a change over time, not this


def test_is_another_one_any_worse_adds_up_its_records_over_the_same_periods() -> None:
    from graph.answering.compare_verdicts import comparison_verdict
    from tests.unit.answering.builders import alerts

    quarters = (("2020-01-01", "2020-04-01"), ("2020-04-01", "2020-07-01"), ("2020-07-01", "2020-10-01"))
    nine = [alerts("Chiller 9", "CWC04009", {"RUL0017": n}, start=s, end=e, id=f"a9{s}")
            for (s, e), n in zip(quarters, (24, 17, 1), strict=True)]
    again = [alerts("Chiller 9", "CWC04009", {"RUL0017": n}, start=s, end=e, id=f"b9{s}")  # a later reuse
             for (s, e), n in zip(quarters, (24, 17, 1), strict=True)]
    six = [alerts("Chiller 6", "CWC04006", {"RUL0014": n}, start=s, end=e, id=f"a6{s}")
           for (s, e), n in zip(quarters, (18, 15, 3), strict=True)]
    verdict = comparison_verdict("is 6 any worse?", six, [*nine, *again])
    assert verdict is not None
    assert verdict.sentence == "No, Chiller 6 had 36 alerts in Q1 2020, Q2 2020 and Q3 2020 against 42 on Chiller 9."


def test_an_idle_chiller_is_not_better_for_its_zero_kw_per_ton() -> None:
    from graph.answering.compare_verdicts import comparison_verdict
    from tests.unit.answering.builders import window

    others = [window("Chiller 3", "2021-05-20", "2021-05-21", {"Chiller Efficiency": (0.44, "kW/ton")})]
    idle = window("Chiller 9", "2021-05-20", "2021-05-21", {"Chiller Efficiency": (0.0, "kW/ton")})
    assert comparison_verdict("is 9 any better?", [idle], others) is None


def test_did_it_get_worse_after_one_chiller_over_two_periods_is_the_later_against_the_earlier() -> None:
    # kW/ton: higher is worse; the two windows of this turn, no "than" in the question
    earlier = window("Chiller 4", "2020-04-01", "2020-07-01", {"Chiller Efficiency": (0.42, "kW/ton")})
    later = window("Chiller 4", "2021-04-01", "2021-07-01", {"Chiller Efficiency": (0.47, "kW/ton")})
    verdict = comparison_verdict("so did it get worse?", [earlier, later], [earlier, later])
    assert verdict is not None and verdict.answer == "Yes"
    assert verdict.sentence.startswith("Yes, Chiller 4's efficiency was 0.47 kW/ton while running in Q2 2021")
    one_period = comparison_verdict("so did it get worse?", [later], [later])
    assert one_period is None  # one period alone is no comparison


def test_up_or_down_on_that_reads_the_one_reading_the_turn_fetched() -> None:
    last = window("Chiller 3", "2020-04-01", "2020-07-01", {"Power Input": (154.0, "kW"), "Tonnage": (300.0, "tons")})
    this = window("Chiller 3", "2021-04-01", "2021-07-01", {"Power Input": (143.7, "kW"), "Tonnage": (310.0, "tons")})
    question = "so this year's quarter, up on that?"
    assert comparison_verdict(question, [this, last], [last, this]) is None  # two readings: which one is unsaid
    verdict = comparison_verdict(question, [this, last], [last, this], reading="Power Input")
    assert verdict is not None and verdict.sentence.startswith("No, Chiller 3's power input was 143.7 kW")


def test_the_side_after_than_decides_which_period_is_asked() -> None:
    from graph.answering.period_verdict import period_verdict
    june_21 = window("Chiller 6", "2021-06-01", "2021-07-01", {"Chiller Efficiency": (0.41, "kW/ton")})
    june_20 = window("Chiller 6", "2020-06-01", "2020-07-01", {"Chiller Efficiency": (0.47, "kW/ton")})
    verdict = period_verdict("was kw/ton last month any worse than june last year?", [june_21, june_20], [])
    assert verdict is not None and verdict.sentence.startswith(
        "No, Chiller 6's efficiency was 0.41 kW/ton while running in June 2021, better than")
    alerts_21 = alerts("Chiller 6", "CWC04006", {"RUL0017": 252}, start="2021-01-01", end="2022-01-01")
    alerts_20 = alerts("Chiller 6", "CWC04006", {"RUL0017": 63}, start="2020-01-01", end="2021-01-01")
    lower = comparison_verdict("were CWC04006's alerts last year lower than the year before?", [alerts_20, alerts_21],
                               [alerts_20, alerts_21])
    assert lower is not None and lower.sentence.startswith("No, Chiller 6 had 252 alerts in 2021 against 63 in 2020")


def test_a_carried_question_is_answered_on_this_turn_s_evidence() -> None:
    from assetops.domain.turn import Focus, TurnDecision
    from graph.answering.compose import TurnOutcome, asked_as
    outcome = TurnOutcome(decision=TurnDecision(), plan=[], results=[], artifacts=[], zone=None,  # type: ignore[arg-type]
                          question="and in august?", focus=Focus(asked="is 4 worse than 3 on kw/t in June?"))
    question = asked_as(outcome)
    assert question == "is 4 worse than 3 on kw/t in June? and in august?"
    four = window("Chiller 4", "2021-08-01", "2021-09-01", {"Chiller Efficiency": (0.45, "kW/ton")})
    three = window("Chiller 3", "2021-08-01", "2021-09-01", {"Chiller Efficiency": (0.49, "kW/ton")})
    verdict = comparison_verdict(question, [four, three], [four, three])
    assert verdict is not None and verdict.sentence.startswith("No, Chiller 4's efficiency was 0.45 kW/ton")


def test_a_reading_s_mean_over_two_windows_of_different_length_is_a_level_not_a_rate() -> None:
    # "creeping up the days before?": the days read now against the months read before, the later first;
    # a temperature's mean is not divided by days, and "before" in the question does not make the months the subject
    months = window("Chiller 9", "2019-03-26", "2019-07-24", {"Supply Temperature": (44.4, "degF")})
    days = window("Chiller 9", "2019-07-22", "2019-07-23", {"Supply Temperature": (46.0, "degF")})
    verdict = comparison_verdict("anything funny the days before? chw supply creeping up?", [months, days], [])
    assert verdict is not None and verdict.answer == "Yes"
    assert "per 30 days" not in verdict.sentence
    assert verdict.sentence.startswith("Yes, Chiller 9's supply temperature was 46.0 degF")


def test_more_power_drawn_than_a_year_before_is_worse() -> None:
    now = window("Chiller 6", "2019-08-01", "2019-09-01", {"Power Input": (353.9, "kW")})
    before = window("Chiller 6", "2018-08-01", "2018-09-01", {"Power Input": (307.5, "kW")})
    verdict = comparison_verdict("so its power worse than last year?", [now, before], [])
    assert verdict is not None and verdict.answer == "Yes"


def test_records_compared_openly_over_two_periods_give_both_counts_and_how_far_apart() -> None:
    from graph.answering.compare_verdicts import period_record_comparison
    earlier = alerts("Chiller 9", "CWC04009", {"RUL0017": 30, "RUL0022": 11}, start="2019-06-01", end="2019-07-01",
                     names={"RUL0017": "Chiller - Load Low"})
    later = alerts("Chiller 9", "CWC04009", {"RUL0017": 21, "RUL0022": 11}, start="2020-06-01", end="2020-07-01")
    sentence = period_record_comparison("how does that total compare with june 2019?", [later, earlier])
    assert sentence == ("Chiller 9 had 32 alerts in June 2020 against 41 in June 2019 (22% fewer), mostly RUL0017 "
                        "Load Low.")
    assert period_record_comparison("how many alerts in june?", [later, earlier]) is None  # no comparison asked
