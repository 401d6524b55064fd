"""The offline planner: one turn's message -> a `Decision` (run / answer / clarify / reject), no LLM.

`plan_turn` is a pure function of (message, focus, reference date, artifact summaries): it reads the
message with the vocabulary, resolves references against the focus and the artifacts, refuses or
asks when it must, and otherwise returns ordered specialist tasks (independent ones without
dependencies, so the supervisor can run them concurrently) and the updated focus.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime, timedelta, tzinfo
from functools import lru_cache

from assetops.domain.catalog import FleetCatalog
from assetops.domain.turn import Decision, Focus, SpecialistTask, TimeWindow
from assetops.settings import get_settings
from graph.planning import messages
from graph.planning import recipes_advice as advice
from graph.planning import recipes_failure as failure
from graph.planning import recipes_maintenance as maintenance
from graph.planning import recipes_models as models
from graph.planning import recipes_telemetry as telemetry
from graph.planning.acts import ADVICE_INTENTS, ActReading, apply_request
from graph.planning.artifacts import ArtifactSummary, event_time_from, hypotheses_from, rule_ids_from
from graph.planning.asked_rules import ALERT_LISTINGS, asked_rules, rule_named
from graph.planning.builder import PlanBuilder
from graph.planning.context import PlanContext, Stop
from graph.planning.resolve import (
    OVER_THE_YEARS,
    RULES_TRIPPED,
    impossible_period,
    is_trip,
    resolve_assets,
    resolve_sensors,
    resolve_window,
    stop,
)
from graph.planning.scope import DESCRIBED_ONE, NEXT_ON_THE_LIST, superlative_one
from graph.understanding import Understanding, understand, vocabulary
from graph.understanding import calendar_math as cal
from graph.understanding.assets import find_assets
from graph.understanding.dates import time_of_day
from graph.understanding.fleet_subset import telemetry_subset
from graph.understanding.identifiers import asks_rule_codes, find_rule_names
from graph.understanding.intents import score_intents
from graph.understanding.last_done import job_stems, last_done_job, names_job
from graph.understanding.model import intent_scores, points_back_beside, speaks_of_alerts
from graph.understanding.off_topic import function_words, is_off_topic, topic_words
from graph.understanding.periods import SINCE_THEN, PeriodMention, Periods, adjacent_window
from graph.understanding.picks import picked_listing
from graph.understanding.request import (
    ACTION_NEEDED,
    ALARM_TUNING,
    BARE_COMPARATIVE,
    BESIDES,
    DIRECTION_CHOICE,
    LAST_RAN,
    MONTH_WORD,
    MOVED_MORE,
    OFF_ITS_NORMAL,
    ONE_BEFORE_ALONE,
    ORDER_PRIORITY,
    OWN_DOUBT,
    PAST_MOVE,
    PERIOD_SUPERLATIVE,
    PERIODS_PICKED_AMONG,
    RAN_AT_ALL,
    SAME_ONE,
    SAME_RESULT,
    THAN_EXPECTED,
    WHEN_LAST,
    WHEN_OF_THOSE,
    WHY_THE_CHANGE,
    RequestReading,
    asked_question,
    asking_clause,
    asks_back_in_service,
    asks_change_over_time,
    asks_data_available,
    asks_difference,
    asks_if_resolved,
    asks_rank_place,
    asks_real_or_noise,
    asks_reliability,
    asks_repair_worked,
    asks_repeat,
    asks_to_erase_records,
    asks_when_tripped,
    asks_where_to_begin,
    bullets_asked,
    described_before,
    doubts_instrument,
    held_up_for_checking,
    named_job,
    names_both_periods,
    pick_end,
    question_parts,
    ranking_end,
    read_request,
    request_sentences,
    scene_before_question,
    states_then_asks,
)
from graph.understanding.sensors import canonical_of, expand, find_sensors
from graph.understanding.symptoms import described_symptoms
from graph.understanding.text import Text, phrase_stems
from graph.understanding.vocabulary import Vocabulary

Recipe = Callable[[PlanContext, PlanBuilder], "Stop | None"]

# Intent -> recipe, in the order their tasks appear when a message carries several intents.
RECIPES: dict[str, Recipe] = {
    "inventory": models.inventory,
    "data_coverage": models.data_coverage,
    "models": models.models,
    "history": telemetry.history,
    "point_value": telemetry.point_value,
    "compare": telemetry.compare,
    "investigate": telemetry.investigate,
    "anomalies": telemetry.anomalies,
    "worsening": telemetry.worsening,
    "running_now": telemetry.running_now,
    "load_bins": telemetry.load_bins,
    "forecast": models.forecast,
    "finetune": models.finetune,
    "evaluate_forecast": models.evaluate_forecast,
    "sensor_health": models.sensor_health,
    "thresholds": models.thresholds,
    "failure_modes": failure.failure_modes,
    "diagnose": failure.diagnose,
    "sensor_validity": failure.sensor_validity,
    "prioritize": failure.prioritize,
    "lifecycle": advice.lifecycle,
    "onset": advice.onset,
    "resolution": advice.resolution,
    "repair_check": advice.repair_check,
    "work_orders": maintenance.work_orders,
    "bundling": maintenance.bundling,
    "predict_next": maintenance.predict_next,
    "alerts": maintenance.alerts,
    "alert_to_failure": maintenance.alert_to_failure,
    "monitor": advice.monitor,
    "recommend_wo": advice.recommend_wo,
    "fix_procedure": advice.fix_procedure,
    "draft_wo": maintenance.draft_wo,
    "plan_fix": maintenance.plan_fix,
    "restart": maintenance.restart,
    "validation": maintenance.validation,
    "report": maintenance.report,
    "verdict": advice.verdict,
}
# Intents a turn with no request words falls back on when the message asks in a particular way.
_SHAPE_FALLBACK = {"which": "prioritize", "recommend": "recommend_wo", "how_to": "fix_procedure",
                   "verdict": "verdict"}
# A below-the-bar intent score still decides a message that has nothing stronger ("why?").
_WEAK_SCORE = 2
# The assistant's own judgement asked for: "in your view", "your take", "what do you reckon"
_OPINION_ASKED = re.compile(r"\b(?:in )?your (?:view|take|opinion|read|best guess|professional opinion)\b|"
                            r"\bwhat do you (?:reckon|think|make of)\b")
# "hotter summer, or something on the machines?", "is it the chiller or just the load?": weather against a fault
_SEASON = r"(?:hotter|warmer|cooler|weather|seasons?|seasonal|summer|ambient|(?:the |just the |more )?load|demand|building)"
_MACHINE = r"(?:(?:machines?|chillers?|units?)(?! ?#?\d)|faults?|problems?|wrong|broken|equipment|something on)"
_WEATHER_OR_MACHINE = re.compile(rf"\b{_SEASON}\b[^?]*\bor\b[^?]*\b{_MACHINE}\b|"
                                 rf"\b{_MACHINE}\b[^?]*\bor\b[^?]*\b{_SEASON}\b")
# "if the power starts creeping up ...", "should it ever trip again ...": a condition supposed, not observed
_HYPOTHETICAL = re.compile(r"\b(?:if|once|should|suppose|supposing|say)\b[^?]*?\b(?:starts?|begins?|ever|were to|was to|"
                           r"goes|happens?|again|later)\b")
# "there was an odd one on ch3 in july, what was that?", "one on 9 last week - what was it?": a record of the kind the
# dialog listed, singled out and asked about
_A_RECORD_ASKED = re.compile(r"\b(?:an?|one|that|this)(?: \w+)? one\b(?! of)(?: [\w#]+){0,6}? (?:what (?:was|is) (?:that|it|this)|"
                             r"what happened|what was (?:that|it) (?:about|for))\b")
# "was it?", "is that right?", "true?": a bare question that puts the claim just made up for checking (a tag after
# the claim, "..., agree?", is the grammar's: `held_up_for_checking`)
_BARE_CONFIRM = re.compile(r"^(?:(?:so|and|but|well|ok)\s+)?(?:(?:was|is|did|does|has|were|are) (?:it|that|he|she|they|"
                           r"he right|she right|they right|that right|that true)|right|true|really|correct)\s*\??\s*$")
# Requests on readings that a follow-up naming another reading continues ("and its flow?" after anomalies).
_READINGS_CONTINUED = frozenset({"history", "point_value", "compare", "anomalies", "investigate", "forecast",
                                 "evaluate_forecast", "finetune", "sensor_health", "sensor_validity", "thresholds",
                                 "load_bins", "worsening"})
# Work-order listings a telemetry-sounding follow-up ("compare", "look at") continues.
_WORK_ORDER_LISTINGS = frozenset({"work_orders", "bundling", "predict_next"})
# "which chillers (don't) have sensors?", "which ones are monitored?": the question is which, nothing more.
_ASKS_FOR_THE_SET = re.compile(r"^(?:so |and |ok )?(?:which|what)(?: of (?:our|the|these|those|all the|all our))? "
                               r"(?:chillers|units|ones|machines|assets)\b(?: \w+){0,3}? "
                               r"(?:have|has|are|is|report|don't|dont|do not|aren't|lack|get|can (?:you|i|we) "
                               r"(?:actually |even |really )?(?:see|get|pull|look at|access|view))\b"
                               r"(?:(?! for (?!\?)| during ).)*$")
# Records a "how many of those?" follow-up counts again (over its own period), and how it asks.
_COUNTED_RECORDS = ("alerts", "work_orders")
_LISTED_BY = {"alert_to_failure": "alerts"}  # the records an intent lists, where it is not named after them
# "when did they happen?", "when were those?": the dates of the records listed last.
_HOW_MANY = re.compile(r"\bhow many\b")
_HOW_MANY_OF_THOSE = re.compile(r"\bhow many (?:of )?(?:those|these|them)\b")
# Bound on how much of an oversized message is scanned to say what it mentions.
_SCAN_LIMIT = 20_000


def _fallback_intents(understood: Understanding, focus: Focus) -> list[str]:
    """Intents for a message without request words: a follow-up continues the dialog.

    Naming something new ("and chiller 4?", "same for june") repeats the last request on it; a bare
    follow-up ("what could be causing it", "and then?") takes the natural next step after the last
    request (anomalies -> failure modes -> diagnosis -> fix); never an asset the dialog lacks.
    """
    vocab = vocabulary()
    new_subject = bool(understood.assets.assets or understood.assets.all_assets or understood.periods.mentions
                       or understood.sensors.canonical or understood.failure_modes
                       or understood.sensors.other_sensors or understood.sensors.all_sensors
                       or bool(understood.references & {"first_asset", "second_asset"}))
    has_entities = new_subject or bool(understood.references or understood.assets.bare_asset_word)
    if understood.periods.of_kind("future"):
        return ["forecast"]
    # "why?", "help": a lone weak cue still says what is wanted, when written as such ("DROP TABLE" is
    # not the word "dropped")
    if focus.listed and WHEN_OF_THOSE.search(understood.text.joined):
        return [focus.listed]  # "when did they happen?": the dates of the records listed last
    as_written = score_intents(understood.text, vocab, inflected=False)
    # (only cues of the request itself: `scores` are the request sentences' when the message set a scene first)
    weak = sorted(((score, name) for name, score in as_written.items()
                   if score >= _WEAK_SCORE and name in understood.scores), reverse=True)
    if weak:
        return [weak[0][1]]
    if focus.listed and _HOW_MANY_OF_THOSE.search(understood.text.joined):
        return [focus.listed]  # "how many of those have we had since the 1st?": the records listed last
    dated = {(m.window.start, m.window.end) for m in understood.periods.mentions if m.window is not None}
    if understood.sensors.canonical and len(dated) == 2:
        return ["history"]  # "how far has its flow shifted between March and June?": the two periods side by side
    if understood.sensors.canonical and focus.last_intent not in _READINGS_CONTINUED:
        # "was its kW/ton better...?" after a work-order question, "how high did its kW/ton get?" after a
        # ranking: naming a reading asks for that reading, unless the dialog was already reading sensors
        return ["history"]
    if understood.sensors.canonical and (_STATISTIC.search(understood.text.joined)
                                         or _AVERAGING.search(understood.text.joined)):
        return ["history"]  # "whats the chw supply averaging over june?": the figure, whatever the last analysis was
    past = [m for m in understood.periods.mentions if m.kind in ("past", "absolute")]
    measured = understood.sensors.canonical or _STATISTIC.search(understood.text.joined) \
        or _AVERAGING.search(understood.text.joined) or _ACTUALS.search(understood.text.joined)
    recorded = {(m.window.start, m.window.end) for m in understood.periods.mentions
                if m.window is not None and m.kind in ("past", "absolute", "focus")}
    if len(recorded) >= 2 and focus.last_intent == "forecast":
        # "did its spring go the same way, March to May against the same months of last year?" after a forecast: two
        # recorded periods set side by side are readings to compare, not another forecast
        return ["history"]
    if past and measured and focus.last_intent in ("forecast", "evaluate_forecast"):
        # "what has the supply averaged over the past two weeks?", "what's it actually been averaging this month?"
        # after a forecast: what was measured, not another forecast
        return ["history"]
    if new_subject and focus.last_intent in _ONE_OFF and understood.periods.mentions:
        return ["history"]  # "and how's it looking this summer so far?" after a repair check: a look, not another check
    if new_subject and focus.last_intent in RECIPES:
        return [focus.last_intent]
    if focus.last_intent in _WORK_ORDER_LISTINGS and any(understood.text.contains(word) for words in
                                                         vocab.work_order_kinds.values() for word in words):
        return [focus.last_intent]  # "and the unplanned ones?" after planned jobs counted: the same count, that kind
    if focus.last_intent in ("alerts", "work_orders") and _HOW_MANY.search(understood.text.joined):
        return [focus.last_intent]  # "how many on that one?" after the chiller with the most alerts: its count
    next_step = vocab.follow_up_next.get(focus.last_intent or "")
    if next_step and focus.asset_ids and vocab.follow_up_cues & set(understood.text.tokens):
        return [next_step]
    if has_entities and focus.last_intent in RECIPES:
        return [focus.last_intent]
    if understood.assets.assets or understood.periods.mentions or understood.sensors.canonical:
        return ["history"]
    if understood.assets.unknown or understood.assets.bare_asset_word or understood.assets.other_equipment \
            or "asset" in understood.references:
        return ["investigate"]
    return []


def _work_order_follow_up(intents: list[str], understood: Understanding, focus: Focus) -> list[str]:
    """After a work-order question, "how does chiller 4 compare over the same years?" compares work orders;
    after an alert listing, "vs the same quarter in 2019?" counts the alerts of that quarter.

    Only when no sensor is named: "show its power for 2019" still asks for telemetry.
    """
    over_the_years = bool(OVER_THE_YEARS.search(understood.text.joined))
    follows = ("compare", "history", "point_value", "investigate") if over_the_years else ("compare", "history",
                                                                                          "point_value")
    # ("same comparison for chiller 4" after alarms over two periods repeats the comparison that set them)
    listing = "work_orders" if focus.last_intent in _WORK_ORDER_LISTINGS else \
        "alerts" if focus.last_intent in ALERT_LISTINGS and not asks_repeat(understood.text.joined) else None
    if not intents or intents[0] not in follows or listing is None:
        return intents
    if understood.sensors.canonical or understood.sensors.all_sensors or _STATISTIC.search(understood.text.joined) \
            or any(understood.text.contains(word) for word in vocabulary().telemetry_words):
        return intents  # ("what did that temp average last august?": records are counted, readings averaged)
    return [listing, *(i for i in intents[1:] if i not in ("compare", "history", "point_value", "investigate"))]


# Words that name work orders rather than alerts ("break the worst one down by rule" names alerts by their rules)
# (and that say a record is meant: "what was that job about?")
_ORDER_WORDS = re.compile(r"\b(?:work ?orders?|wos?|jobs?|tickets?|repairs?|maintenance|pms?|corrective|preventive|"
                          r"breakdowns|failure codes?|codes?|call-?outs?|visits?)\b")


# "the power-while-off ones", "any of the cycling ones": records of a kind just listed, picked by their words
_ONES = re.compile(r"\bones\b")
# Work orders named as such (not the failure codes alone, which alert rules map to as well)
_NAMED_ORDERS = re.compile(r"\b(?:work ?orders?|wos?|jobs?|tickets?)\b")


# "rank all four, best to worst", "order them", "sort the lot": the set discussed, in order of what was compared
_RANK_THEM = re.compile(r"^(?:(?:ok|so|now|and|then|can you|could you|please|pls)\s+)*(?:rank|order|sort|list)\s+"
                        r"(?:them|'?em|those|these|all|all of them|the lot|everything|all (?:four|three|two|\d+)|the (?:four|three"
                        r"|two|\d+)|the top (?:two|three|four|five|\d+))\b")
# "..., or am I imagining it?", "real, or is it just me?": a claim just made, held up for checking
_CLAIM_DOUBTED = re.compile(r"\bor (?:am i|am i just|is it just me|are we) ?(?:imagining|wrong|off|seeing things)?\b|"
                            r"\bor is it just me\b")


def _alerts_when_said(intents: list[str], understood: Understanding) -> list[str]:
    """A record listing asked in alert words ("break it down by rule", "which rules fired most?") lists alerts,
    whatever generic record phrase ("break down by", "most frequent") the work-order intent matched on."""
    text = understood.text.joined
    if not intents or intents[0] not in ("work_orders", "bundling") or not speaks_of_alerts(text) \
            or _ORDER_WORDS.search(text):
        return intents
    return ["alerts", *(i for i in intents[1:] if i not in ("work_orders", "alerts"))]


def _two_chillers_compare(intents: list[str], understood: Understanding, catalog: FleetCatalog) -> list[str]:
    """A plain history request naming several telemetry chillers is a side-by-side comparison."""
    named = [a for a in understood.assets.assets if catalog.has_telemetry(a)]
    if intents and intents[0] == "history" and (len(named) > 1 or understood.assets.all_assets):
        return ["compare", *intents[1:]]
    return intents


def _failure_mode_question(intents: list[str], understood: Understanding) -> list[str]:
    """Naming a failure mode ("is it condenser fouling?") asks for a diagnosis checking it."""
    reasoning = {"failure_modes", "diagnose", "sensor_validity", "draft_wo", "plan_fix", "prioritize", "report",
                 "restart", "validation"}
    if not understood.failure_modes or reasoning & set(intents):
        return intents
    if intents and intents[0] in ("history", "investigate", "anomalies"):
        return ["diagnose", *intents]
    return [*intents, "diagnose"]


_MAINTENANCE_PLAN = re.compile(r"\b(?:maintenance|pm|service|servicing|work) (?:plan|schedule)\b|"
                               r"\bplan (?:for|covering) (?:this|the|next|the next|the coming) (?:week|month|quarter|"
                               r"\d+ (?:weeks|months)|few (?:weeks|months))\b|\ba plan for (?:this|next) (?:week|month)\b")


def _plan_on_the_evidence(ctx: PlanContext) -> None:
    """"A plan for this week", "a maintenance plan for the next 3 months": the span named is the plan's, ahead;
    what it ranks rests on the period the dialog looked at."""
    span, looked = ctx.window, ctx.focus.window
    if not _MAINTENANCE_PLAN.search(ctx.understanding.text.joined) or looked is None or span is None or span == looked:
        return
    if span.end - span.start >= looked.end - looked.start:
        return
    ctx.note(f"The plan covers {span.label or 'the span named'}; what it ranks rests on {looked.label or 'the period discussed'}.")
    ctx.window, ctx.window_explicit = looked, False


_TELEMETRY_LOOKS = frozenset({"history", "point_value", "compare", "investigate", "anomalies"})


# "how does 6's Q1 total stack up against last year's?", "what's the count for 4?": a tally, of the records counted last
_TALLY = re.compile(r"\b(?:total|totals|tally|count|counts)\b")


def _tally_of_the_listing(understood: Understanding, focus: Focus) -> str | None:
    """The record listing a bare tally refers back to, when the message names no reading nor records of its own."""
    listing = _LISTED_BY.get(focus.last_intent or "", focus.last_intent)
    if listing not in _COUNTED_RECORDS or not _TALLY.search(understood.text.joined) \
            or understood.sensors.canonical or understood.sensors.all_sensors:
        return None
    return listing if set(understood.intents) <= _TELEMETRY_LOOKS else None


def _choose_intents(understood: Understanding, focus: Focus, catalog: FleetCatalog) -> list[str]:
    """The turn's intents, strongest first: the classified ones, else what a follow-up implies."""
    tally = _tally_of_the_listing(understood, focus)
    if tally is not None:
        return [tally]  # "how does 6's Q1 total stack up against Q1 of last year?" after alerts counted: the alerts
    if rule_named(understood, focus) and all(i in _TELEMETRY_LOOKS for i in understood.intents):
        return ["alerts"]  # the rule's alerts, not the readings its name shares
    if focus.listed and understood.intents and WHEN_OF_THOSE.search(understood.text.joined) \
            and not understood.assets.assets:
        return [focus.listed]  # "when was the latest of those?": the dates of the records listed last
    if understood.intents:
        intents = _alerts_when_said(_work_order_follow_up(understood.intents, understood, focus), understood)
        if "draft_wo" in intents and ORDER_PRIORITY.search(understood.text.joined):
            intents = [i for i in intents if i != "prioritize"]  # "raise a WO ..., priority 2": the order's field
        if intents[0] in _RECORD_LISTINGS:
            intents = _records_compare_themselves(intents, understood)
        return _failure_mode_question(_two_chillers_compare(intents, understood, catalog), understood)
    if understood.rule_ids:  # "what does RUL0018 mean?": the rule, and how often it fired
        return ["alerts"]
    if understood.named_rules and BESIDES.search(understood.text.joined):
        return ["alerts"]  # "anything besides load low on them?": the other rules' alerts
    fallback = ["diagnose"] if understood.failure_modes else _fallback_intents(understood, focus)
    return _two_chillers_compare(_work_order_follow_up(fallback, understood, focus), understood, catalog)


_DISCUSSED_KEPT = 12  # assets remembered for "both" / "taking everything into account" once the focus has narrowed


# "Is that the same thing chiller 9 had?", "is this like what chiller 4 did in 2019?": the finding under
# discussion (a demonstrative) set beside another chiller's, which the message names.
_LIKENESS = re.compile(r"\b(?:that|this|it)\b.*\b(?:same|like|similar|as|than|compared|versus|vs)\b")


def _compared_with_another(ctx: PlanContext) -> bool:
    named = ctx.understanding.assets.assets
    return bool(named) and not set(named) & set(ctx.focus.asset_ids) \
        and bool(_LIKENESS.search(ctx.understanding.text.joined))


# The side a comparison measures against: "how does that compare with July?", "lower than in June", "against
# last year". The other period is the one asked about.
_REFERENCE_SIDE = re.compile(
    r"\b(?:than|compared?(?: (?:it|that|this|them))? (?:with|to)|against|versus|vs|relative to|next to)"
    r"(?: (?:in|during|over|for|the|of|with|to))* $")


def _compared_periods(ctx: PlanContext) -> tuple[TimeWindow, TimeWindow | None] | None:
    """The period the dialog goes on about after a comparison of two, and the one it was set against.

    "How does last month compare with July?" asks about last month, against July: later turns ("why?", "the same
    month") are about last month. "How much has it moved between March and June?" names no side: what follows is
    about the span, March to June, and there is no reference period.
    """
    if ctx.primary != "compare" or ctx.window_is_aside:
        return None
    text = ctx.understanding.text.joined
    dated = [m for m in ctx.understanding.periods.mentions if m.window is not None and m.kind != "future"]
    distinct = list({(m.window.start, m.window.end): m for m in dated if m.window is not None}.values())
    windows = [m.window for m in distinct if m.window is not None]
    if len(windows) != 2 or any(_nested(a, b) for a in windows for b in windows if a is not b):
        return None
    references = [m for m in distinct if _REFERENCE_SIDE.search(text[:m.start])]
    if len(references) == 1:
        asked = next(m.window for m in distinct if m is not references[0] and m.window is not None)
        return asked, references[0].window
    first, last = sorted(windows, key=lambda w: w.start)
    if last.start - first.end >= _YEAR_APART_GAP:  # "july against july last year": two periods, not the year between
        return None
    return TimeWindow(first.start, max(first.end, last.end), f"{first.label} to {last.label}"), None


_YEAR_APART_GAP = timedelta(days=180)


def _new_focus(ctx: PlanContext, tasks: Sequence[SpecialistTask]) -> Focus:
    """The focus after this turn: its assets, window, sensors, failure modes, hypotheses and rules."""
    focus = ctx.focus
    analysed = [s for t in tasks if t.specialist in ("timeseries", "failure") for s in t.sensors]
    fetched = [s for t in tasks if t.specialist == "data" for s in t.sensors]
    named = expand(ctx.telemetry_assets, ctx.canonical_sensors, ctx.vocab, ctx.catalog)[0] if ctx.sensors_explicit else []
    previous = expand(ctx.telemetry_assets, [canonical_of(s) for s in focus.sensors], ctx.vocab, ctx.catalog)[0]
    sensors = analysed or named or fetched or previous
    same_assets = set(ctx.assets) == set(focus.asset_ids)
    hypotheses = hypotheses_from(ctx.artifacts, ctx.assets) or (list(focus.hypotheses) if same_assets else [])
    named = ctx.understanding.named_rules if rule_named(ctx.understanding, focus) else []
    rules = ctx.understanding.rule_ids or named or rule_ids_from(ctx.artifacts, ctx.assets) or (
        # ("same breakdown for 9": the rules asked about stay, on the other chiller)
        list(focus.rule_ids) if same_assets or asks_repeat(ctx.understanding.text.joined) else [])
    # "Is that the same thing Chiller 9 had last year?": Chiller 9 and last year are the comparison's side;
    # the subject chiller keeps its own period.
    side_look = (ctx.request is not None and ctx.request.others) or _compared_with_another(ctx)
    subject = focus.asset_ids[0] if side_look and len(focus.asset_ids) == 1 \
        and focus.asset_ids[0] not in ctx.assets else None
    window = focus.window if ctx.window_is_aside or (subject and focus.window) else ctx.window or focus.window
    # (a look on a default window, "is it worth replacing?", keeps the periods the dialog listed)
    periods = list(focus.periods) if window == focus.window or not ctx.window_explicit else []
    compared = _compared_periods(ctx)
    if compared is not None:  # "how much has it moved between March and June?": what follows is about that span
        window = compared[0]
    if subject:  # and its own hypotheses
        hypotheses = hypotheses_from(ctx.artifacts, [subject]) or list(focus.hypotheses)
    moved = window is not None and focus.window is not None and (window.start, window.end) != (
        focus.window.start, focus.window.end)
    # records or readings of two periods apart ("more repair tickets in 2019 or in 2020?", "tonnage last month
    # against june last year")
    plain_windows = [t.window for t in tasks if t.window is not None and (
        t.specialist == "maintenance" or (t.specialist == "data" and compared is None))]  # a span asked stays
    apart = sorted({(w.start, w.end): w for w in plain_windows}.values(), key=lambda w: w.start)
    if len(apart) == 2 and apart[0].end <= apart[1].start and not ctx.window_is_aside:
        # both periods are the dialog's, the later one last ("across those two years" then spans them, "any
        # difference between those two junes?" sets them side by side)
        window, focus = apart[1], replace(focus, window=apart[0])
        moved = True
    elif len(apart) > 2 and all(a.end <= b.start for a, b in itertools.pairwise(apart)):
        # "for 2018, 2019 and 2020": what follows ("getting worse?", "which of those years?") is about all of them
        window = TimeWindow(apart[0].start, apart[-1].end, f"{apart[0].label} to {apart[-1].label}")
        periods = apart
    # "and the August before that?" after this August against last August: the three Augusts, for "which of those
    # three Augusts ...?"
    periods = _same_stretch_of_years([*apart, window, ctx.focus.window, ctx.focus.earlier_window, *ctx.focus.periods]) \
        or periods
    # "Are the other three showing the same thing?" compares the rest against the chiller under discussion,
    # which stays the subject: a later "it" is that chiller, "them" all of them.
    assets = [subject, *ctx.assets] if subject else list(ctx.assets)
    return Focus(
        site=ctx.vocab.site_name,
        asset_ids=assets,
        equipment_ids=ctx.equipment_ids(assets),
        window=window,
        earlier_window=(compared[1] if compared is not None and compared[1] is not None
                        else focus.window if moved else focus.earlier_window),
        periods=periods,
        # (the subject the others are set against is no pick: "the worst one" after "how did the other two do?" is
        # still the top of the ranking the dialog walked down)
        picked=(focus.picked if subject and focus.picked in focus.ranked else subject) or ctx.compared_subject
        or focus.picked,
        asked=ctx.asked,  # (a follow-up asking something else of its own ends the carried question)
        ranked=list(focus.ranked),
        # ("which ran more efficiently?" picks the good end: "the worse one" next is the other end)
        picked_for=(pick_end(ctx.understanding.text.joined) if ctx.request is not None and ctx.request.shape == "which"
                    else focus.picked_for),
        window_named=ctx.window_explicit if ctx.window is not None and not ctx.window_is_aside else focus.window_named,
        sensors=list(dict.fromkeys(sensors)),
        failure_modes=list(ctx.understanding.failure_modes or (focus.failure_modes if same_assets else [])),
        hypotheses=hypotheses,
        rule_ids=rules,
        asked_rules=asked_rules(ctx),
        last_intent=focus.last_intent if ctx.primary in ADVICE_INTENTS and focus.last_intent else ctx.primary,
        # (the alerts checked for follow-up work are listed too: "how many of those did it log in June?")
        listed=next((_LISTED_BY.get(i, i) for i in ctx.intents if _LISTED_BY.get(i, i) in _COUNTED_RECORDS),
                    focus.listed),
        discussed=list(dict.fromkeys([*ctx.assets, *focus.asset_ids, *focus.discussed]))[:_DISCUSSED_KEPT],
        named_periods=_named_periods(ctx.understanding, focus),
        told_jobs=_told_jobs(ctx, focus),
        told_event=ctx.understanding.event_dated or focus.told_event,
    )


_NAMED_KEPT = 6
_LENGTH_SLACK = timedelta(days=3)


def _same_stretch_of_years(windows: Sequence[TimeWindow | None]) -> list[TimeWindow]:
    """Three or more periods that are one stretch of the calendar in different years (the Augusts of three years),
    in time order; empty otherwise."""
    distinct = list({(w.start, w.end): w for w in windows if w is not None}.values())
    if len(distinct) < 3 or len({w.start.year for w in distinct}) != len(distinct):
        return []
    first = distinct[0]
    same = all((w.start.month, w.start.day) == (first.start.month, first.start.day)
               and abs((w.end - w.start) - (first.end - first.start)) <= _LENGTH_SLACK for w in distinct)
    return sorted(distinct, key=lambda w: w.start)[-_NAMED_KEPT:] if same else []


def _named_periods(understood: Understanding, focus: Focus) -> list[TimeWindow]:
    """The periods this message named relative to another ("the week before"), then those named earlier."""
    said = [m.window for m in understood.periods.mentions if m.kind == "focus" and m.window is not None
            and m.window.label]
    kept = [w for w in focus.named_periods if w.label not in {s.label for s in said}]
    return [*said, *kept][:_NAMED_KEPT]


_TOLD_JOB_MAX = timedelta(days=31)


def _told_jobs(ctx: PlanContext, focus: Focus) -> list[TimeWindow]:
    """A job the message says was done in a past period ("it was shut down for a tube clean on the 9th"), labelled
    with the job's stems, then the jobs told earlier. A question about when a job was last done, or an order to
    draft, tells of none."""
    stems = job_stems(ctx.understanding.text, ctx.vocab)
    today_end = cal.at_midnight(ctx.reference_date + timedelta(days=1), ctx.catalog.zone)
    # (the day is often given in passing: "we had the tubes cleaned on July 9th. did its kW/ton improve?")
    periods = [*ctx.understanding.periods.context, *ctx.understanding.periods.mentions]
    when = [m.window for m in periods if m.kind in ("absolute", "past")
            and m.window is not None and m.window.end <= today_end and m.window.end - m.window.start <= _TOLD_JOB_MAX]
    writes = ctx.request is not None and ctx.request.writes
    if not stems or not when or writes or last_done_job(ctx.understanding.text, ctx.vocab):
        return list(focus.told_jobs)
    day = min(when, key=lambda w: w.end - w.start)  # a job is done on a day: the narrowest period said
    told = TimeWindow(day.start, day.end, " ".join(sorted(stems)))
    return [told, *focus.told_jobs][:_NAMED_KEPT]


_MONTH_BESIDE = re.compile(rf"^(?:the |that )?{MONTH_WORD} (?P<side>before|after|prior)\b")


# "and the year before that?", "the month after it": the period of the same length next to the one discussed
_STEP_BESIDE = re.compile(r"^the (?:one|month|week|year|quarter|period|stretch) (?P<side>before|after)|^the previous one")


def _past_the_discussed(understood: Understanding, focus: Focus) -> Understanding:
    """"And the August before that?" after this August against last August: before both, not before the latest
    (a month a year away from one discussed steps on past every period the dialog has looked at)."""
    discussed = {(w.start, w.end) for w in (focus.window, focus.earlier_window, *focus.periods) if w is not None}
    named = {(w.start, w.end, w.label) for w in focus.named_periods}
    mentions = []
    for mention in understood.periods.mentions:
        if mention.window is not None and (mention.window.start, mention.window.end, mention.window.label) in named:
            mentions.append(mention)  # (said in the words that named it: that period, see _as_named_before)
            continue
        beside = _MONTH_BESIDE.match(understood.text.joined[mention.start:]) if mention.kind == "focus" else None
        window = mention.window
        while beside is not None and window is not None and (window.start, window.end) in discussed:
            year = window.start.year + (1 if beside.group("side") == "after" else -1)
            window = cal.months_window(year, window.start.month, 1, f"{date(year, window.start.month, 1):%B %Y}",
                                       window.start.tzinfo)  # type: ignore[arg-type]
        # ("and the year before that?" after 2020 against 2019: before both, 2018)
        step = _STEP_BESIDE.match(understood.text.joined[mention.start:]) if mention.kind == "focus" else None
        while step is not None and window is not None and (window.start, window.end) in discussed:
            window = adjacent_window(window, step.group("side") != "after", zone=window.start.tzinfo)  # type: ignore[arg-type]
        mentions.append(replace(mention, window=window))
    if mentions == understood.periods.mentions:
        return understood
    return replace(understood, periods=replace(understood.periods, mentions=mentions))


_SHORT_PERIOD = timedelta(days=100)


_WHOLE_SPAN = re.compile(r"\b(?:so far|to date|overall|as a whole|in total|all year|the whole year|the full year|"
                         r"the entire year|year to date|ytd|calendar years?|full years?|whole years?)\b|"
                         # "over the whole of 2020 against 2019?", "all of 2019": the year, not its stretch discussed
                         r"\b(?:the whole of|the entirety of|all of|the full|the entire) (?:19|20)\d\d\b")


def _years_as_the_discussed(understood: Understanding, focus: Focus) -> Understanding:
    """"Was it carrying more load this year?" after this August against last August: "this year" is this year's
    August. A whole year named while the dialog sets the same stretch of different years side by side is that
    year's stretch."""
    discussed = [w for w in (focus.window, focus.earlier_window, *focus.periods)
                 if w is not None and w.end - w.start <= _SHORT_PERIOD]
    if len({w.start.year for w in discussed}) < 2 or _WHOLE_SPAN.search(understood.text.joined):
        return understood  # ("what about so far this year overall?": the whole year to date, said so)
    mentions = []
    for mention in understood.periods.mentions:
        window = mention.window
        whole_year = window is not None and (window.start.month, window.start.day) == (1, 1) \
            and window.end - window.start >= timedelta(days=_YEAR_APART_GAP.days)
        inside = [w for w in discussed if whole_year and window is not None and window.start <= w.start < window.end]
        mentions.append(replace(mention, window=inside[0]) if len({(w.start, w.end) for w in inside}) == 1 else mention)
    if mentions == understood.periods.mentions:
        return understood
    return replace(understood, periods=replace(understood.periods, mentions=mentions))


def _as_named_before(understood: Understanding, focus: Focus) -> Understanding:
    """"was it carrying more load the week before?" after "this past week vs the week before" (and a look at both
    since): a period said in the words that named one earlier is that period, not the week before the span
    discussed now. When the dialog is on that very period, the words walk back from it ("and the week before?")."""
    named = {w.label: w for w in reversed(focus.named_periods)}
    mentions = []
    for mention in understood.periods.mentions:
        earlier = named.get(mention.window.label) if mention.kind == "focus" and mention.window is not None else None
        on_it = earlier is not None and focus.window is not None and (earlier.start, earlier.end) == (
            focus.window.start, focus.window.end)
        mentions.append(replace(mention, window=earlier) if earlier is not None and not on_it else mention)
    if mentions == understood.periods.mentions:
        return understood
    return replace(understood, periods=replace(understood.periods, mentions=mentions))


def _guard(message: str, focus: Focus, reference_date: date, limit: int, catalog: FleetCatalog) -> Decision | None:
    """Refuse empty and oversized (over `limit` characters) messages before reading them."""
    if not message.strip():
        return Decision(kind="clarify", message=messages.not_understood_text(), focus=focus,
                        reference_date=reference_date)
    if len(message) > limit:
        mentioned = find_assets(Text.of(message[:_SCAN_LIMIT]), vocabulary(), catalog).assets
        return Decision(kind="reject", message=messages.too_long_text(len(message), limit, mentioned), focus=focus,
                        intent="too_long", reference_date=reference_date)
    return None


def plan_turn(message: str, focus: Focus, reference_date: date,
              artifacts: Sequence[ArtifactSummary] = (), *, catalog: FleetCatalog,
              max_message_chars: int | None = None) -> Decision:
    """Decide what to do with one user message.

    Returns "answer" (capabilities, answered without tools), "clarify" (which chiller? what do you
    mean?), "reject" (unknown asset, date outside coverage, oversized input: with what would work),
    or "run" with ordered tasks whose `depends_on` index earlier tasks, and the new focus.
    `catalog` is the loaded fleet (its chillers, sensors, coverage and time zone);
    `max_message_chars` defaults to the service setting of that name.
    """
    limit = max_message_chars if max_message_chars is not None else get_settings().max_message_chars
    guarded = _guard(message, focus, reference_date, limit, catalog)
    if guarded is not None:
        return guarded
    vocab = vocabulary()
    message = _same_again(message) if focus.asked else message
    if focus.picked and focus.last_intent in _LISTED_NOUN and _WHAT_WERE_THEY.match(message.strip()):
        # "what were they?" after "which had the most corrective WOs?": the records of the one picked
        kind = next((k for k in ("corrective", "preventive") if k in (focus.asked or "").lower()), "")
        message = f"list the {kind} {_LISTED_NOUN[focus.last_intent]} on {focus.picked}".replace("  ", " ")
    if focus.asked and ONE_BEFORE_ALONE.match(message.strip()) and last_done_job(Text.of(focus.asked), vocab):
        # "and the one before?" after "when was the last corrective WO on 9?": that question, for the order before it
        message = f"{focus.asked.strip().rstrip('?')} and the one before it?"
    message = _since_the_job_told(message, focus, artifacts, vocab)
    understood = _understand(message, reference_date, focus, artifacts, catalog)
    judged = _judged_against_last_year(message, understood, focus, catalog)
    if judged is not None:  # "ch6 pulling more kw than it should this month?": against its own year-earlier self
        message, understood = judged, _understand(judged, reference_date, focus, artifacts, catalog)
    parts = question_parts(message)
    reading = _first_question_reading(message, parts)
    flipped = _other_end_asked(understood, focus)
    if flipped is not None:  # "and the best?" after "which chiller had the worst kW/ton last month?"
        message, understood = flipped, _understand(flipped, reference_date, focus, artifacts, catalog)
        parts = question_parts(message)
        reading = _first_question_reading(message, parts)
    carried = _carried_question(understood, reading, focus)
    if carried is not None:  # "and in august?" after "is 4 worse than 3 in June?": asked the same way again
        asked_before = read_request(carried)
        reading = replace(reading, shape=asked_before.shape, comparative=asked_before.comparative or reading.comparative)
    # ("is that something to worry about?" in a dialog about a chiller points back at it, whatever its words)
    # (so does advice asked in a word or two: "should I be worried?", "anything I need to escalate?")
    # (and a verdict asked always is: "what do I tell the room, in one sentence?")
    points_back = bool(focus.asset_ids) and (bool(_POINTS_BACK.search(understood.text.joined)) or reading.shape == "verdict"
                                             or (reading.shape == "recommend" and len(topic_words(understood.text)[1]) <= 1))
    if is_off_topic(understood.text, reading, has_entities=_names_something(understood) or points_back):
        return Decision(kind="reject", message=messages.off_topic_text(topic_words(understood.text)[1],
                                                                       focus.asset_ids),
                        focus=focus, intent="off_topic", reference_date=reference_date)
    if asks_to_erase_records(understood.text.joined) and reading.act in ("question", "command") \
            and not reading.writes:
        # "can you just wipe the 2015 work orders off 4?": the records are the evidence, never changed here
        return Decision(kind="reject", message=messages.read_only_records_text(focus.asset_ids), focus=focus,
                        intent="read_only", reference_date=reference_date)
    if reading.act == "acknowledge" and not understood.intents and not (
            understood.assets.assets or understood.sensors.canonical or understood.periods.mentions):
        # "thanks, that's helpful": nothing asked; the dialog keeps its subject for the next question
        return Decision(kind="answer", message=messages.acknowledged_text(focus.asset_ids), focus=focus,
                        intent="acknowledge", reference_date=reference_date)
    subset = telemetry_subset(understood.text.joined)
    if subset is not None and reading.shape in ("which", "open") and _ASKS_FOR_THE_SET.search(reading.clause) \
            and not understood.periods.mentions:  # ("which units have alerts in june?" asks about the alerts)
        # "which chillers don't have sensors?": the set itself is the answer, from the catalog
        # (the dialog remembers the question: "for the ones without, ...?" is the other side)
        return Decision(kind="answer", message=messages.subset_text(subset == "telemetry", catalog),
                        focus=replace(focus, last_intent="inventory"), intent="inventory", reference_date=reference_date)
    act = apply_request(_compound_intents(parts, understood, reading, focus, reference_date, artifacts, catalog),
                        reading, focus)
    if act.declined:
        return Decision(kind="answer", message=messages.declined_offer_text(focus.pending_offer or ""),
                        focus=replace(focus, pending_offer=None), intent="decline", reference_date=reference_date)
    intents = act.intents or _informative_next_step(understood, reading, focus) or _carry_on(understood, focus)
    if carried is None and focus.asked and focus.last_intent == "work_orders" and _THE_LAST_ONE.search(
            understood.text.joined) and not understood.sensors.canonical and not job_stems(understood.text, vocab) \
            and job_stems(Text.of(focus.asked), vocab):
        # "chiller 1 had a couple water leaks this year, didn't it?" - "when was the last one?": the latest of those
        # orders, read from the listing (the job is the last question's)
        carried, intents = focus.asked, ["work_orders"]
    if not intents:
        return Decision(kind="clarify", message=messages.not_understood_text(), focus=focus,
                        reference_date=reference_date)
    if carried is None and focus.asked and intents == [focus.last_intent] and asks_repeat(understood.text.joined):
        carried = focus.asked  # "same breakdown for 9": the last question, asked again of what this one names
    advising = _advising(intents, reading)
    understood = _ahead_when_looking_ahead(understood, intents, reference_date, advising)
    horizon_note = ""
    if advising:
        understood, horizon_note = _horizon_of_the_advice(understood, reference_date, catalog.zone)
    ctx = PlanContext(understanding=understood, focus=focus, reference_date=reference_date, artifacts=artifacts,
                      intents=intents, vocab=vocab, catalog=catalog, request=reading, writes_allowed=act.writes_allowed,
                      asked=carried or (message if reading.act in ("question", "command") and not _ELLIPTICAL_OPENING.match(
                          understood.text.joined) else None))
    ctx.note(act.note)
    ctx.note(horizon_note)
    if ctx.primary == "capabilities":
        return Decision(kind="answer", message=messages.capabilities_text(ctx.catalog),
                        focus=replace(focus, last_intent="capabilities"), intent="capabilities",
                        reference_date=reference_date)
    if not understood.intents and focus.last_intent and intents[0] == vocab.follow_up_next.get(focus.last_intent):
        ctx.note(f"Read as a follow-up: after the {_readable(focus.last_intent)} step, the "
                 f"{_readable(intents[0])} step.")
    refused = impossible_period(ctx)
    if refused is not None:
        resolve_assets(ctx)  # (a chiller named stays the subject of the correction: "sorry, Q4 2020")
        return impossible_period(ctx) or refused
    decision = resolve_assets(ctx)
    if decision is not None:
        return decision
    _symptom_across_site(ctx)
    _symptom_on_one_chiller(ctx)
    _comparison_with_earlier_period(ctx)
    decision = resolve_window(ctx)
    if decision is not None:
        return decision
    _plan_on_the_evidence(ctx)
    resolve_sensors(ctx)
    decision = _run(ctx)
    decision.shape, decision.scope = act.shape, _scope(ctx)  # type: ignore[assignment]
    if decision.kind == "run":
        offer = _offer(act, ctx)
        decision.focus = replace(decision.focus, scope=decision.scope, pending_offer=offer,
                                 offered_work=named_job(reading.clause) if offer == "draft_wo" else None)
    return decision


# Data requests that, across the whole site and with a symptom stated, become a ranked investigation.
_LISTING_INTENTS = ("history", "compare", "inventory", "data_coverage", "point_value")


# "is one of the chillers to blame?", "which unit is responsible?": asking which one is at fault.
_BLAME = re.compile(r"\b(?:to blame|responsible|at fault|the culprit|the cause|behind (?:it|this|that))\b")



def _symptom_across_site(ctx: PlanContext) -> None:
    """"the plant can't hold setpoint", "flow is down on one of our chillers": a symptom across the site
    asks which chiller shows it, so every chiller is analysed and ranked rather than listed."""
    if ctx.scope != "fleet" or ctx.request is None or ctx.primary not in _LISTING_INTENTS:
        return
    blames = ctx.request.shape in ("yes_no", "which") and _BLAME.search(ctx.understanding.text.joined)
    # ("burning more power than they should": a reading gone the wrong way against what is normal for it)
    beyond_normal = ctx.request.shape == "yes_no" and THAN_EXPECTED.search(ctx.understanding.text.joined) is not None \
        and bool(described_symptoms(ctx.understanding.text, ctx.vocab))
    if not (ctx.request.symptom or blames or beyond_normal):  # "is one of the chillers to blame?" asks which one too
        return
    if ctx.request.comparative and not THAN_EXPECTED.search(ctx.understanding.text.joined):
        return  # "less efficient than its siblings": levels side by side answer it ("than they should" is no sibling)
    ctx.intents = ["investigate", *(i for i in ctx.intents if i not in _LISTING_INTENTS)]
    ctx.note("Read as a symptom to find: each chiller is checked against its own expected behaviour and ranked.")


# "what do you make of that?", "what's wrong with it?", "what happened to it?": asking what a state means.
_WHAT_IT_MEANS = re.compile(r"\bwhat (?:do|would) you make of\b|\bwhat(?:'s| is| was)? (?:wrong|up) with\b|"
                            r"\bwhat (?:happened|is happening|'s happening) (?:to|with)\b|\bwhat(?:'s| is| was| were) going on\b")
# "is something wrong with it?", "should I be worried?": whether what was just described is a fault
_ASKS_IF_FAULTY = re.compile(r"\b(?:something|anything) (?:wrong|off|amiss)\b|\b(?:a|any) (?:real )?(?:problem|fault|"
                             r"issue)\b|\bworr(?:ied|y)\b|\bfaulty\b|\bbroken\b")


# "anything odd?", "is something off?": asking whether there is a symptom, not stating one.
_ASKS_WHETHER = re.compile(r"\b(?:anything|something|any \w+)\b[^.?!]*\?")


def _symptom_on_one_chiller(ctx: PlanContext) -> None:
    """"The evaporator refrigerant temp on 4 has been sliding for weeks. What do you make of that?": a symptom
    stated on one chiller, or a question about what is wrong with it, asks for the cause, so the look at its
    data becomes a diagnosis (which gathers the anomaly evidence it still needs). A yes/no ("anything weird
    on ch6?"), a trend question and a trip keep their own answers."""
    request = ctx.request
    if request is None or ctx.scope == "fleet" or len(ctx.telemetry_assets) != 1 or is_trip(ctx):
        return
    # a yes/no asks whether there is something ("anything weird on ch6?"), unless a sentence before it already
    # said what and it asks whether that is a fault ("#9 has been pulling more kW for the same load. Is something
    # wrong with it?")
    described = request.shape == "yes_no" and bool(_ASKS_IF_FAULTY.search(request.clause)) \
        and described_before(ctx.understanding.text.source)
    text = ctx.understanding.text.joined
    # ("looking back at ch9 summer 2016 what was going on w it": a question behind a lead-in, its mark left off)
    asked = request.act == "question" or _WHAT_IT_MEANS.search(text) is not None
    if ctx.primary not in ("investigate", "anomalies", "history") or request.shape == "which" \
            or (request.shape == "yes_no" and not described) or request.asks_change or not asked:
        return
    stated = described or (request.symptom and ctx.primary != "history" and not _ASKS_WHETHER.search(text))
    if not (stated or _WHAT_IT_MEANS.search(text)):
        return
    ctx.intents = ["diagnose", *(i for i in ctx.intents if i not in ("investigate", "anomalies", "history"))]
    ctx.note("Read as a symptom to explain: the likely causes are ranked from this chiller's data.")



def _nested(outer: TimeWindow, inner: TimeWindow) -> bool:
    """"Closing Q3 - how did it run in August?": a context period around the one asked is no second period."""
    return outer.start <= inner.start and inner.end <= outer.end


def _repeated_on(ctx: PlanContext) -> str | None:
    """"Same comparison for chiller 3" after one chiller was compared across two periods: the chiller named, to be
    compared over the same two periods (not set beside the one compared); None for any other message."""
    named = [a for a in ctx.understanding.assets.assets if ctx.catalog.has_telemetry(a)]
    if asks_repeat(ctx.understanding.text.joined) and len(ctx.focus.asset_ids) == 1 and len(named) == 1 \
            and named[0] not in ctx.focus.asset_ids:
        return named[0]
    return None


# What "did it get worse?" after a reading over two periods is read as, beside the comparison that answers it
_CHANGE_AS_COMPARED = (*_LISTING_INTENTS, "investigate", "prioritize", "worsening", "diagnose", "sensor_health",
                       "anomalies", "trend")


def _comparison_with_earlier_period(ctx: PlanContext) -> None:
    """"Was its kW/ton better in the same month a year earlier?": one new period plus the one discussed,
    compared side by side (the new period alone would not answer "better"). "How did they compare across
    those two quarters?" names no period: the two the dialog discussed last are compared."""
    periods = [m.window for m in ctx.understanding.periods.mentions if m.window is not None and m.kind != "future"]
    earlier, later = ctx.focus.earlier_window, ctx.focus.window
    if earlier is not None and later is not None and later.end <= earlier.start:
        earlier, later = later, earlier  # "Q2 this year", then "same quarter last year": the two in time order
    repeated_on = _repeated_on(ctx)
    text = ctx.understanding.text.joined
    # "so did it get worse?" right after a reading over two periods: between those two, with what is fetched
    between_the_two = not periods and ctx.focus.last_intent in _READINGS_LOOKED and (
        asks_change_over_time(text) or PAST_MOVE.search(text) is not None or (ctx.request is not None and ctx.request.shape == "which" and " or " not in
                                        f" {text} " and ctx.request.comparative and not ctx.understanding.assets.assets))
    if not periods and len(ctx.focus.periods) > 1 and len(ctx.telemetry_assets) == 1 and ctx.request is not None \
            and ctx.request.shape == "which" and PERIODS_PICKED_AMONG.search(text):
        # "of those three Augusts, which one had the worst kW/ton?": the reading over each of them, picked on
        ctx.intents = ["compare"]
        ctx.window = ctx.focus.periods[-1]
        ctx.extra_windows = list(ctx.focus.periods)
        return
    if (not periods and earlier is not None and later is not None and earlier.end <= later.start
            and (ctx.primary in ("history", "point_value", "compare", "investigate", "prioritize") or between_the_two)
            and ((len(ctx.telemetry_assets) == 1 and (names_both_periods(text) or between_the_two))
                 or repeated_on is not None)):
        if repeated_on is not None:
            ctx.assets = [repeated_on]  # the chiller named replaces the one compared
        # ("so is it drifting? what failure modes make kw/ton worse ...": the change is the comparison, the other
        # question is still asked)
        ctx.intents = ["compare", *(i for i in ctx.intents if i not in _CHANGE_AS_COMPARED)] \
            if between_the_two and repeated_on is None else \
            ["compare", *(i for i in ctx.intents if i not in (*_LISTING_INTENTS, "investigate", "prioritize"))]
        ctx.window = later
        ctx.extra_windows = [earlier, later]
        return
    distinct = list({(w.start, w.end): w for w in periods}.values())

    # ("did the chillers use more power this summer than last?": every chiller over both, each on its own)
    compared_over_two = len(distinct) == 2 and ctx.request is not None and ctx.request.comparative
    if (len(distinct) > 1 and (len(ctx.telemetry_assets) == 1 or (ctx.telemetry_assets and compared_over_two))
            and ctx.primary in ("history", "point_value")
            and not any(_nested(a, b) for a in distinct for b in distinct if a is not b)):
        # "what was its kW/ton in May, and in May last year?": two periods asked, side by side
        ctx.intents = ["compare", *(i for i in ctx.intents if i not in _LISTING_INTENTS)]
        return
    if _confirms_a_move_in(ctx, periods):
        # "bms showed ch3 cond water flow sagging last month, can u confirm?": a move is seen against what came
        # before, so the period named is read beside the one just before it
        before = adjacent_window(periods[0], True, zone=ctx.catalog.zone)
        ctx.intents = ["compare", *(i for i in ctx.intents if i not in _LISTING_INTENTS)]
        ctx.extra_windows = [periods[0], before]
        ctx.note(f"A move is judged against the period before: {before.label} beside {periods[0].label}.")
        return
    if _still_as_before(ctx, periods):
        # "is it still bad now? last month's number" after August's kW/ton was found worse: the reading over the new
        # period beside the one it was judged on
        assert ctx.focus.window is not None
        ctx.intents = ["compare"]
        ctx.extra_windows = [ctx.focus.window]
        ctx.note(f"'Still' judged against {ctx.focus.window.label}, the period discussed.")
        return
    # ("avg over those same 3 months, and then this month after the tube clean": the period discussed, pointed at,
    # and the one named, side by side)
    pointed = points_back_beside(ctx.understanding) and all(
        m.kind in ("absolute", "past") for m in ctx.understanding.periods.mentions)
    both = ctx.request is not None and (ctx.request.comparative or pointed)
    # ("same month a year earlier - were they cheaper to run then?" after two chillers in March: each over both)
    each_over_both = bool(ctx.telemetry_assets) and ctx.request is not None and ctx.request.comparative and all(
        m.kind == "focus" for m in ctx.understanding.periods.mentions)
    if (not both or len(periods) != 1 or ctx.focus.window is None
            or ctx.primary not in ("history", "point_value", "compare")
            or (len(ctx.telemetry_assets) != 1 and not each_over_both)):
        return
    partner: TimeWindow | None = ctx.focus.window
    if partner is not None and (periods[0].start, periods[0].end) == (partner.start, partner.end):
        # "was it carrying more load this year?" after this August against last August: against the other one
        partner = ctx.focus.earlier_window
    if partner is None or (partner.start, partner.end) == (periods[0].start, periods[0].end):
        return
    ctx.intents = ["compare", *(i for i in ctx.intents if i not in _LISTING_INTENTS)]
    ctx.extra_windows = [partner]


_STILL = re.compile(r"\bstill\b")
# "when was the last one?", "the most recent one": the latest of the records just discussed
# ("since the last of those was closed" dates something else by it)
_THE_LAST_ONE = re.compile(r"(?<!since )(?<!after )(?<!before )\b(?:the|its) (?:last|latest|most recent) "
                           r"(?:one|of them|of those)\b")


def _still_as_before(ctx: PlanContext, periods: list[TimeWindow]) -> bool:
    """A yes/no asking whether a chiller is "still" as it was, over one period after the one discussed, with the
    readings of the dialog to judge it on."""
    focus = ctx.focus.window
    return (ctx.request is not None and ctx.request.shape == "yes_no" and len(periods) == 1 and focus is not None
            and periods[0].start >= focus.end and len(ctx.telemetry_assets) == 1 and bool(ctx.focus.sensors)
            and not ctx.understanding.sensors.canonical and bool(_STILL.search(ctx.request.clause)))


def _confirms_a_move_in(ctx: PlanContext, periods: list[TimeWindow]) -> bool:
    """A yes/no that puts up a reading's move ("sagging", "dropping off", "creeping up") in one past period named,
    for one chiller, with nothing to set it against."""
    # (a closed period: "climbing since January" runs to now, a trend inside it; "above setpoint" is a level, no move)
    return (ctx.request is not None and ctx.request.shape == "yes_no" and len(periods) == 1
            and len(ctx.telemetry_assets) == 1 and ctx.primary in ("history", "point_value")
            and periods[0].end - periods[0].start <= _SHORT_PERIOD
            and periods[0].end.date() <= ctx.reference_date
            and bool(_A_MOVE.search(ctx.understanding.text.joined))
            and bool(described_symptoms(ctx.understanding.text, ctx.vocab)))


_A_MOVE = re.compile(r"\b(?:sagg(?:ing|ed)|dropp(?:ing|ed)|falling|fell|sinking|sank|slipp(?:ing|ed)|slump(?:ing|ed)|"
                     r"rising|rose|climb(?:ing|ed)|creep(?:ing)|crept|declin(?:ing|ed)|increas(?:ing|ed)|"
                     r"decreas(?:ing|ed)|drift(?:ing|ed) (?:up|down)|went (?:up|down)|gone (?:up|down))\b")


_READINGS_LOOKED = ("history", "point_value", "compare")
# "which one puts out the most tons?", "which had the highest flow?": the end of a ranking on the reading named
# ("the bulk of the cooling", "the lion's share": the most, said as a share, as the answer reads it too)
_SUPERLATIVE = re.compile(r"\b(?:most|highest|lowest|least|biggest|largest|smallest|top|hardest|heaviest|lightest|"
                          r"bulk of|majority of|lion's share)\b")
# "mostly what sort?", "what kind were they?", "what were most of them?": the make-up of the records just listed
# ("what's driving the top one?" after a ranking on alert counts: the rules its count is made of)
_WHAT_THEY_WERE = re.compile(r"\bwhat (?:sort|sorts|kind|kinds|type|types)\b|\bmostly what\b|"
                             r"\bwhat (?:were|are) (?:most of )?(?:them|they|those)\b|\bwhat (?:is|was) driving\b|"
                             r"\bwhat drives\b")
# "what was that about?", "what was it for?": the content of a record the message points at
_WHAT_IT_WAS_ABOUT = re.compile(r"\bwhat (?:was|is|were|are) (?:that|it|this|those|these|the \w+) (?:about|for)\b|"
                                r"\bwhat did (?:that|it|they) (?:find|say|cover)\b")
# "did chiller 9 trip last month?", "has 4 tripped since the repair?": whether a stop happened, not why.
_ASKS_IF_TRIPPED = re.compile(r"^(?:so |and |ok )?(?:did|has|have|had|was|were|is) (?:it|they|\w+ \d+|chiller \d+|ch\d+|"
                              r"#\d+|any (?:of them|chillers?|units?)|\d+) (?:\w+ )?(?:trip|tripped|trips|shut down|"
                              r"go down|gone down|went down|drop offline|dropped offline)\b")
# "ch 3 tripped sometime in aug 2018, didn't it?", "4 shut down last week, right?": the same asked as a statement
# to be confirmed (the question shape is the tag's)
_SAYS_IT_TRIPPED = re.compile(r"^(?:so |and |ok |i think |i heard )?(?:it|they|\w+ \d+|chiller \d+|ch ?\d+|#\d+|\d+) "
                              r"(?:\w+ )?(?:tripped|shut down|went down|dropped offline)\b"
                              r".*\b(?:didn'?t (?:it|they)|did (?:it|they) not|right|correct|yes|no|yeah|true|"
                              r"isn'?t (?:it|that) (?:right|so))\W*$")
@lru_cache(maxsize=2)
def _reading_stems(vocab: Vocabulary) -> frozenset[str]:
    """Every word stem of a reading's names and phrases, with the function words and the asset word a rule's name
    shares with any sentence ("... through a chiller that is off"): what alone names no rule."""
    return frozenset(s for alias in vocab.sensor_aliases for s in phrase_stems(alias)) | frozenset(
        phrase_stems(" ".join([*function_words(), vocab.asset_word])))
# A correction's opening words ("oops, meant 4", "ah, typo - march this year", "sorry, the 30th").
_CORRECTING = r"(?:sorry|oops|ah|oh|typo|my bad|correction|i meant|meant)"
_DAY_CORRECTION = re.compile(rf"^(?:(?:{_CORRECTING}|no)\W*\s*)*(?:the )?(\d{{1,2}})(?:st|nd|rd|th)\b")
_MONTH_NAMED = re.compile(rf"\b{MONTH_WORD}\b")
# A follow-up that only swaps what it is about: "and in august?", "what about #4?", "same for ch6".
_ELLIPTICAL_OPENING = re.compile(r"^(?:(?:ok|so|right) )?(?:and|what about|how about|same (?:for|with|on|again)|ditto|"
                                 rf"now|then|also|or|{_CORRECTING})\b")
_ELLIPTICAL_MAX_TOKENS = 6


# "same ranking for last summer?", "same check for chiller 3": the last question again, of another period or chiller
# (the noun names the last answer, not a new request: "ranking" here asks for no ranking of causes)
# ("same question/thing for ..." are `asks_repeat`'s, which keeps the request itself)
_SAME_AGAIN = re.compile(r"^(?:(?:ok|so|right|now)[,.]? )?(?:do )?(?:the )?same (?:ranking|check|list|figures?|query|one)"
                         r"(?: again)? (?=for |with |on |in |over )",
                         re.IGNORECASE)


_WHAT_WERE_THEY = re.compile(r"^(?:(?:and|so|ok|okay|right)[,.]?\s+)*what (?:were|are) (?:they|those|these|them)"
                             r"(?: about| all about| for| exactly| then)?\s*\??\s*$", re.IGNORECASE)
_LISTED_NOUN = {"work_orders": "work orders", "alerts": "alerts"}


def _same_again(message: str) -> str:
    """"same ranking for last summer?" read as "and for last summer?"; any other message as it is."""
    return _SAME_AGAIN.sub("and ", message.strip(), count=1)


_ENDS = {"worst": "best", "best": "worst", "worse": "better", "better": "worse", "highest": "lowest",
         "lowest": "highest", "least efficient": "most efficient", "most efficient": "least efficient",
         "least": "most", "most": "least"}
_END_WORD = re.compile(r"\b(?:least efficient|most efficient|worst|best|worse|better|highest|lowest|least|most)\b")


# "ch6 pulling more kw than it should this month?", "supply temp ran hot in aug?", "kw/ton been ugly since jul 1?": a
# reading judged with no level and no other period to judge it by; its own normal is the same stretch a year before
_JUDGED_LEVEL = re.compile(r"\b(?:ugly|bad|poor|rough|hot|high|elevated|heavy)\b|\bthan (?:it|they) should\b|"
                           r"\bthan (?:normal|usual)\b")
_SET_AGAINST = re.compile(r"\b(?:than|vs|versus|against|compared|compare)\b(?! (?:it|they) should\b| normal\b| usual\b)")
_LEVEL_GIVEN = re.compile(r"\d+(?:\.\d+)? ?(?:%|kw|degf|deg|f|gpm|tons?)\b")  # "above 300 kw?" names its level
_YEAR = timedelta(days=365)


def _since_the_job_told(message: str, focus: Focus, artifacts: Sequence[ArtifactSummary], vocab: Vocabulary) -> str:
    """"when was it recalibrated?" - "any calibration work on it since then?": "then" is the day of the job the last
    answer gave (the latest order of that job in the listing), so the span starts the day after it."""
    said = SINCE_THEN.search(message)
    job = last_done_job(Text.of(focus.asked), vocab) if said is not None and focus.asked else frozenset()
    listing = next((a for a in reversed(artifacts) if a.kind == "wo_summary"), None) if job else None
    if said is None or listing is None:
        return message
    asked = set(Text.of(focus.asked or "").stems)
    days = sorted(((len(asked & set(Text.of(f"{o.get('code')} {o.get('description')}").stems)), str(o.get("date")))
                   for o in listing.key_results.get("latest_per_job", ()) if isinstance(o, Mapping) and o.get("date")
                   and names_job(f"{o.get('code')} {o.get('description')}", job)), reverse=True)
    if not days:
        return message
    try:
        after = date.fromisoformat(days[0][1]) + timedelta(days=1)
    except ValueError:
        return message
    return message[:said.start()] + f"since {after.isoformat()}" + message[said.end():]


def _judged_against_last_year(message: str, understood: Understanding, focus: Focus,
                              catalog: FleetCatalog) -> str | None:
    """The message set against the same period a year before, when it asks yes or no whether one chiller's named
    reading was high or bad over one period and gives nothing to measure that by; None otherwise (or when the
    record holds no year before)."""
    text = understood.text.joined
    asked = Text.of(asking_clause(message)).joined  # ("ops think the probe read high. is that right?" asks of a claim)
    dated = [m.window for m in understood.periods.mentions if m.window is not None and m.kind != "future"]
    assets = understood.assets.assets or focus.asset_ids
    reading = read_request(message)
    judged = reading.shape == "yes_no" and bool(_JUDGED_LEVEL.search(asked))
    if reading.shape == "which" and OFF_ITS_NORMAL.search(asked) and not understood.assets.assets \
            and understood.sensors.canonical and len(dated) == 1 and catalog.first_day is not None \
            and dated[0].start - _YEAR >= cal.at_midnight(catalog.first_day, catalog.zone):
        # "which chiller was off its normal last month? look at power and kw/t": each one against its own self a year
        # before, ranked by how far it moved (a chiller's normal is its own, not the site's)
        return f"{message.rstrip().rstrip('?').rstrip()} compared with the same period a year earlier?"
    # (a comparison, a level, an alert rule named "... High" or several chillers say what it is judged by)
    measured = bool(_SET_AGAINST.search(text) or _LEVEL_GIVEN.search(text) or speaks_of_alerts(text)
                    or understood.named_rules or understood.rule_ids)
    if not judged or measured or not understood.sensors.canonical or len(dated) != 1 or len(assets) != 1 \
            or catalog.first_day is None or dated[0].start - _YEAR < cal.at_midnight(catalog.first_day, catalog.zone):
        return None
    return f"{message.rstrip().rstrip('?').rstrip()} compared with the same period a year earlier?"


def _other_end_asked(understood: Understanding, focus: Focus) -> str | None:
    """"and the best?" right after "which chiller had the worst kW/ton last month?": the last question asked of the
    other end of its ranking (its ends swapped); None for anything else."""
    text = understood.text.joined
    asked = focus.asked.lower() if focus.asked else ""
    if not asked or len(understood.text.tokens) > _ELLIPTICAL_MAX_TOKENS or not _ELLIPTICAL_OPENING.match(text) \
            or understood.assets.assets or understood.periods.mentions or understood.sensors.canonical \
            or set(understood.intents) - {"prioritize"}:
        return None
    now, before = ranking_end(text), ranking_end(asked)
    if now is None or before is None or now == before:
        return None
    return _END_WORD.sub(lambda m: _ENDS[m.group(0)], asked)


def _carried_question(understood: Understanding, reading: RequestReading, focus: Focus) -> str | None:
    """The last full question, for a follow-up that only swaps its chiller, period or reading ("and in august?")
    and asks nothing of its own; None otherwise."""
    text = understood.text
    if focus.asked is None or understood.intents or len(text.tokens) > _ELLIPTICAL_MAX_TOKENS \
            or not _ELLIPTICAL_OPENING.match(text.joined):
        return None
    ends = ranking_end(text.joined), ranking_end(focus.asked.lower())
    if None not in ends and ends[0] != ends[1]:
        return None  # "and the best last month?" after "was 4 the worst in June 2020?" asks another question
    # (a reading swapped in, "what about tonnage?", changes what the question was about: not carried)
    swapped = (understood.assets.assets or understood.periods.mentions) and not understood.sensors.canonical
    return focus.asked if swapped and reading.shape in ("open", "yes_no", "which") else None
_ABOUT_THE_FAULT = re.compile(r"\b(?:faults?|causes?|problems?|issues?|failures?|diagnos\w*)\b")
_THAN_A_PERIOD = re.compile(r"\bthan (?:in |during |over )?(?:the |last |previous |this )?(?:q[1-4]|(?:19|20)\d\d|year|month|"
                            rf"quarter|week|{MONTH_WORD}|spring|summer|autumn|fall|winter)\b")
# "the most alerts", "the fewest corrective work orders", "more breakdowns": chillers picked by a count of records.
_RECORD_NOUNS = (r"(alerts?|alarms?|work orders?|wos?|breakdowns?|repairs?|repair tickets?|tickets?|corrective jobs?|"
                 r"jobs?|call-?outs?)\b")
_RECORDS_PICKED_BY = re.compile(r"\b(?:most|fewest|least|more|fewer|highest number of|lowest number of)\b(?: [\w-]+){0,2}? "
                                + _RECORD_NOUNS)


# "is it the worst chiller on site for that?", "the worst for breakdowns": a place in the site's ranking on records
_RECORD_WORDS = frozenset({"alerts", "alarms", "work", "orders", "breakdowns", "repairs", "tickets", "wos", "jobs",
                           "failures", "callouts", "corrective"})
_WORST_FOR = re.compile(r"\b(?:the )?(?:worst|best|top|highest|lowest)\b(?: [\w-]+){0,4}? for "
                        rf"(?:the )?(that|those|it|this|them|{'|'.join(sorted(_RECORD_WORDS))})\b")


# "there's already a condenser-plugged job on file, isn't there?", "is there a work order open for the leak?": a record
# said to exist, checked against the work orders
_RECORD_ON_FILE = re.compile(r"^(?:so |and |but |ok )?(?:there|is there|was there|are there)(?: is| was| are)? "
                             r"(?:already |still )?(?:a|an|any|one) (?:[\w-]+ ){0,4}?(?:job|work order|wo|ticket)s?\b")
# "rank the four chillers by average power draw", "sort them by kW/ton": a ranking on what follows "by".
_RANKED_BY = re.compile(r"\b(?:rank|ranked|ranking|order|ordered|sort|sorted)\b(?: [\w/-]+){0,6}? by\b")
# "rank the chillers by total alarms last year", "sort them by number of work orders": a ranking on a count of records.
_RANKED_BY_RECORDS = re.compile(r"\b(?:rank|ranked|ranking|sort|sorted|order|ordered|list)\b(?: [\w-]+){0,5}? by "
                                r"(?:(?:the )?(?:total|number of|count of|how many)\s+)?" + _RECORD_NOUNS)


def _between_the_two_periods(understood: Understanding, reading: RequestReading, focus: Focus) -> bool:
    """A pick or a change asked with nothing named, right after one chiller's reading over two periods ("whch was
    worse", "so did it get worse?"): between those two periods."""
    named = understood.assets.assets or understood.periods.mentions or understood.assets.all_assets \
        or (set(understood.intents) - {"prioritize"}) or reading.fleet or reading.others  # ("worse" scores a ranking)
    two = focus.earlier_window is not None and focus.window is not None and focus.earlier_window != focus.window
    # ("is that the sensor or is the load different?" offers its own two answers, not the two periods)
    asked = (reading.shape == "which" and reading.comparative and " or " not in f" {reading.clause} ") \
        or asks_change_over_time(reading.clause) \
        or (reading.shape == "yes_no" and bool(BARE_COMPARATIVE.match(reading.clause)))  # "worse y/n": of the two
    return not named and two and len(focus.asset_ids) == 1 and focus.last_intent in _READINGS_LOOKED and asked


_FAULT_NOUN = re.compile(r"\b(?:fault|faults|problem|problems|issue|issues|failure|machine|chiller)\b")
# A reading pointed at without its name ("that temp", "the flow", "those numbers"): not a count of records.
_A_READING = re.compile(r"\b(?:temp|temps|temperature|temperatures|reading|readings|flow|pressure|power|load|avg|"
                        r"average|mean|efficiency|kw|numbers|figures)\b")
_KPI = re.compile(r"\bkpis?\b")
# "with zero?", "had none?", "get through it without any?": a count of nothing asked of the listing just made.
_NONE_OF_THEM = re.compile(r"\b(?:with|had|has|have|logged|got|get|saw|see|at) (?:zero|none|nothing|0)\b|"
                           r"\bwithout (?:any|a single one)\s*\??$")
# "did anyone raise a WO for it?", "was a ticket ever opened?", "has a work order been logged for that?": whether an
# order is on file (asked, not commanded: a draft is only written when asked for).
_ASKED_IF_RAISED = re.compile(
    r"^(?:\w+ )?(?:did|has|have|had|was|were|is) (?:anyone|anybody|someone|somebody|we|you|they|the crew|ops|a|an|"
    r"any)\b(?: \w+){0,4}? (?:raise[ds]?|raising|open(?:ed)?|log(?:ged)?|create[ds]?|file[ds]?|put in|submit(?:ted)?|"
    r"cut|written|write|issued?|ever)\b(?: \w+){0,3}? ?(?:wo|wos|work orders?|tickets?|orders?|jobs?)\b|"
    r"^(?:\w+ )?(?:was|were|has|have|is) (?:a|an|any) (?:wo|work order|ticket|job)s? (?:ever |already )?(?:been )?"
    r"(?:raised|opened|logged|created|filed|put in|submitted|cut|written|issued)\b")
# "is that typical?", "usual for it?", "normal for june?": set against what is usual for it.
# A reading said to be higher or lower than in another period ("is that higher than may?", "was it lower in march?",
# "hotter than last summer?"): a degree of the reading discussed, set against the period named.
_HIGHER_THAN_THEN = re.compile(r"\b(?:higher|lower|more|less|hotter|colder|warmer|cooler|bigger|smaller|greater|"
                               r"up|down)\b(?: \w+){0,2}? (?:than|in|vs|versus|compared (?:to|with))\b")
_USUAL = re.compile(r"\b(?:typical|usual|normal|unusual|atypical|par for the course)\b")
# A pick by concern ("which one worries you?", "most at risk", "needs attention first"): a ranking on fault
# evidence, not on a reading's level.
_CONCERN = re.compile(r"\b(?:worr\w*|concern\w*|at risk|risk\w*|attention|urgent\w*|priorit\w*|weakest|"
                      r"fragile|vulnerable|trouble\w*|keeps? you up)\b")
# A pick whose noun is a stretch of time ("the worst month", "which week was busiest"): among periods, not chillers.
_PERIOD_PICK = re.compile(r"\b(?:worst|busiest|best|highest|lowest|peak|quietest|heaviest|most|least)\b"
                          r"(?: (?!last\b|this\b|that\b|next\b|past\b|previous\b)\w+){0,2}? "
                          r"(?<!last )(?<!this )(?<!that )(?<!next )(?<!past )(?<!previous )"
                          r"(?:month|week|day|year|quarter|season)s?\b|\b(?:which|what) (?:month|week|day|year|quarter|season|summer|winter|"
                          r"spring|autumn|fall)s?\b")
# "which of those three years was the worst?" after records listed per period: a pick among those periods
_PICK_OF_PERIODS = re.compile(r"\b(?:which|what) (?:one )?of (?:the|those|these)(?: \w+)? "
                              r"(?:months|weeks|days|years|quarters)\b")
# A pick on running time: "which one ran the longest?", "who logged the most run hours?".
_RUN_TIME_PICK = re.compile(r"\b(?:ran|run|runs|running|operated|worked)\b(?: \w+){0,3}? (?:longest|shortest|most|least|"
                            r"fewest|longer|shorter)\b|"
                            # ("ran more hrs", but "ran more efficiently" is no running time)
                            r"\b(?:ran|run|runs|running|operated|worked)\b(?: \w+){0,3}? (?:more|fewer|less)\b"
                            r"(?! (?!hours\b|hrs\b|time\b|often\b)[a-z])|"
                            r"\b(?:most|fewest|least|more|fewer|less) (?:run(?:ning)? |operating )?(?:hours|hrs)\b|"
                            r"\brun ?time\b|\brunning time\b")
# "what could be behind it?" asks for the candidates (failure modes); "what failure mode is behind it?" for the cause.
# A chiller's health asked yes or no ("was 4 fine in july?", "the rest of them ok?").
_HEALTHY = re.compile(r"\b(?:fine|ok|okay|alright|all right|healthy|normal|in good shape|behaving)\b")
# A pronoun or demonstrative standing for what the dialog found ("is that ...", "should we worry about it?").
_POINTS_BACK = re.compile(r"^(?:so |and |but |ok |okay |hmm )?(?:is|was|are|were|does|did|do|has|have|will|would|could|"
                          r"should|can) (?:that|this|it|those|these|they)\b|"
                          r"\b(?:worry|worried|care|bother|concerned) about (?:that|this|it|those|these|them)\b")
_MODAL = re.compile(r"\b(?:could|might|may|would|can)\b")
_IN_GENERAL = re.compile(r"\b(?:usually|typically|normally|generally|in general|commonly|often)\b")
# ... unless its object is the event discussed ("what would explain the trip?", "what could be behind it?"): the
# causes of what happened, ranked on its evidence; "what could cause high condenser temps?" stays a question of
# candidates.
_OF_THE_EVENT = re.compile(r"\b(?:explain|explains|behind|cause|causing|caused|trigger|triggered|make|made|drive|"
                           r"driving|push|pushing)(?: (?:the|that|this|those|these|its|it|them)\b(?! (?:kind|sort|type)\b)"
                           r"(?: \w+)?(?: \w+)? ?\?*$| (?:it|that|this|those|these|them)\b)")
# "should we shut it down?", "is it worth a shutdown?": advice on an action ("what now?" is the next step).
# ("anything we should act on?", "is there anything I need to escalate?": request.ACTION_NEEDED)
_ADVICE_ON_AN_ACTION = re.compile(r"^(?:\w+ )?(?:should|shall|ought|would it|is it (?:worth|time|wise|safe)|worth|"
                                  r"do (?:we|i) need)\b|" + ACTION_NEEDED.pattern)


def _names_instruments(understood: Understanding, vocab: Vocabulary) -> bool:
    """The message speaks of the instruments themselves ("sensors", "transmitter"), not of a reading by name
    (how "the sensors" moved before a trip or over time is a look at the readings, not at the instruments)."""
    return any(understood.text.contains(noun) for noun in vocab.pick_objects.get("sensor_health", ()))


def _turn_intents(understood: Understanding, reading: RequestReading, focus: Focus,
                  catalog: FleetCatalog) -> list[str]:
    """The classified intents; without request words, how the message asks decides before the dialog's
    generic next step ("of those, which one is worse?" picks from the last listing)."""
    chosen = _choose_intents(understood, focus, catalog)
    if focus.listed in _COUNTED_RECORDS and _A_RECORD_ASKED.search(understood.text.joined) \
            and not understood.sensors.canonical:
        # "there was an odd one on ch3 back in july, what was that?" after alert counts: one of those records
        return [focus.listed]
    if reading.shape == "yes_no" and (_BARE_CONFIRM.match(reading.clause) or held_up_for_checking(reading.clause)) \
            and doubts_instrument(
            understood.text.joined) and (understood.assets.assets or focus.asset_ids):
        # "the tech reckons its return temp sensor was reading off earlier this year. was it?": the claim made is
        # the question, and it doubts the instrument
        return ["sensor_validity"]
    if "failure_modes" in chosen and _HYPOTHETICAL.search(understood.text.joined) \
            and not _HYPOTHETICAL.search(reading.clause):
        # "if the power starts creeping up at the same load again, what failure mode am I looking at?": the symptom is
        # supposed, not seen; the failure-mode knowledge answers, no look at the readings
        chosen = [i for i in chosen if i not in _LOOK_INTENTS and i != "sensor_health"] or ["failure_modes"]
    if _WEATHER_OR_MACHINE.search(reading.clause) and (understood.assets.assets or focus.asset_ids) \
            and not (understood.named_rules or understood.rule_ids or speaks_of_alerts(reading.clause)) \
            and set(understood.intents) <= {"investigate", "anomalies", "history", "compare"}:
        # "both went up. hotter summer, or something on the machines?": the weather or a fault, which the diagnosis
        # tells apart (a fault found is the machine; none, the season)
        return ["diagnose"]
    if chosen[:1] == ["investigate"] and _OPINION_ASKED.search(understood.text.joined) \
            and (len(understood.assets.assets or focus.asset_ids) == 1 or (focus.picked and not understood.assets.assets)):
        # "what's going on with it, in your view?": a judgement on one chiller is what the evidence points to, the
        # diagnosis, not another look at the readings
        return ["diagnose"]
    if reading.shape == "yes_no" and asks_repair_worked(reading.clause) and (understood.assets.assets or focus.asset_ids):
        # "did the cleaning fix it?", "did it make a difference? compare the fortnight before with the fortnight
        # after": the repair's date, its readings before and after (not the work orders around it)
        return ["repair_check"]
    # ("same comparison for chiller 4" repeats the comparison that set the periods: read below)
    if asks_repeat(understood.text.joined) and "comparison" not in understood.text.tokens \
            and focus.last_intent in RECIPES and (focus.asset_ids or understood.assets.assets) \
            and not understood.sensors.canonical \
            and set(understood.intents) <= {*_RECORD_NOUN_INTENTS, focus.last_intent}:
        return [focus.last_intent]  # "same breakdown for 9" after alerts per year: that request again, not breakdowns
    if reading.shape == "yes_no" and SAME_ONE.search(reading.clause) and focus.picked and focus.last_intent in RECIPES \
            and understood.periods.mentions and not understood.sensors.canonical \
            and set(understood.intents) <= {"prioritize", "investigate", "history", "compare"}:
        return [focus.last_intent]  # "was 6 also on top a year earlier?": the same ranking over that period
    if SAME_RESULT.search(understood.text.joined) and focus.last_intent in RECIPES and understood.periods.mentions \
            and not understood.sensors.canonical and not understood.failure_modes:
        return [focus.last_intent]  # "and last year? same ranking or diff": that request again, over that period
    ranked_by = _RANKED_BY.search(reading.clause)
    if ranked_by is not None and not _RANKED_BY_RECORDS.search(reading.clause) and find_sensors(
            Text.of(reading.clause[ranked_by.end():]), vocabulary()).canonical \
            and set(understood.intents) <= {"prioritize", "history", "compare", "point_value", "diagnose", "monitor"}:
        # "rank the chillers by average power while running", "rank them by kw/ton": the reading, ranked ("rank"
        # alone ranks causes)
        return ["history"]
    scene = understood.text.joined[:max(understood.text.joined.find(reading.clause), 0)]
    if reading.shape == "recommend" and chosen and set(chosen) <= _SCENE_LOOKS and not ALARM_TUNING.search(
            reading.clause) and (understood.assets.assets or focus.asset_ids) and intent_scores(
            Text.of(scene), vocabulary()) and not intent_scores(Text.of(reading.clause), vocabulary()):
        # "Chiller 9's evaporator approach alarms won't stop. Would it be worth planning an inspection?": advice on
        # the evidence (a diagnosis, the orders on file), with the records the scene names beside it
        return ["recommend_wo", *chosen]
    if _RECORD_ON_FILE.search(reading.clause) and (understood.assets.assets or focus.asset_ids) \
            and not asks_if_resolved(reading.clause) and not asks_repair_worked(reading.clause):
        return ["work_orders"]  # "there's already a condenser-plugged job on file from the spring, isn't there?"
    if ALARM_TUNING.search(reading.clause) and (understood.assets.assets or focus.asset_ids or reading.fleet):
        return ["thresholds"]  # "is it worth loosening the cycling alarm?": the rule's limit and what its alerts led to
    if focus.last_intent == "failure_modes" and understood.failure_modes and _ELLIPTICAL_OPENING.match(
            understood.text.joined) and sum(any(c.isalnum() for c in t) and t not in function_words()
                                            for t in understood.text.tokens) \
            <= _ELLIPTICAL_MAX_TOKENS and not understood.periods.mentions:
        # ("and for a refrigerant leak / excessive purge?": the function words add nothing to what is asked)
        return ["failure_modes"]  # "and for the evaporator-side ones?" after the sensors of the condenser ones
    if reading.shape == "yes_no" and (_ASKS_IF_TRIPPED.search(reading.clause) or _SAYS_IT_TRIPPED.search(reading.clause)) \
            and (understood.assets.assets or focus.asset_ids) and not understood.periods.of_kind("event"):
        return ["diagnose"]  # "did chiller 9 trip last month?": the diagnosis finds a stop on a safety, and when
    if asks_when_tripped(reading.clause) and (understood.assets.assets or focus.asset_ids) \
            and not understood.periods.of_kind("event") and not _HYPOTHETICAL.search(reading.clause) \
            and not RULES_TRIPPED.search(reading.clause):
        return ["diagnose"]  # "when did it last trip?": the diagnosis finds the stop and its time
    if reading.shape == "yes_no" and not understood.intents and focus.last_intent in ("diagnose", "failure_modes") \
            and _ABOUT_THE_FAULT.search(reading.clause) and focus.asset_ids:
        return ["diagnose"]  # "is that one fault or two at once?": asked of the diagnosis just made (reused)
    if reading.shape == "yes_no" and _NONE_OF_THEM.search(reading.clause) and not understood.intents \
            and focus.last_intent in _COUNTED_RECORDS:
        return [focus.last_intent]  # "did any unit get through the month with zero?": the same count, per unit
    dated = {(m.window.start, m.window.end) for m in understood.periods.mentions if m.window is not None}
    if reading.shape == "which" and MOVED_MORE.search(reading.clause) and len(dated) == 2 \
            and len(understood.assets.assets or focus.asset_ids) > 1 and set(understood.intents) <= _LOOK_INTENTS:
        return ["compare"]  # "which of the two went up more between April and May?": each over both, on the change
    if reading.shape == "which" and PERIOD_SUPERLATIVE.match(reading.clause) and focus.last_intent in _RECORD_LISTINGS \
            and set(understood.intents) <= {"prioritize"}:
        return [focus.last_intent]  # "worst month?" after alerts counted: the same count, month by month
    if _WHAT_THEY_WERE.search(reading.clause) and focus.last_intent in _RECORD_LISTINGS and not understood.intents:
        return [focus.last_intent]  # "mostly what sort?" after alerts counted: that listing, broken down by kind
    if asks_if_resolved(reading.clause) and (understood.assets.assets or focus.asset_ids) \
            and set(understood.intents) <= {"resolution", "plan_fix", "onset", "work_orders"}:
        return ["resolution"]  # "when did we sort that out?": the work order that dealt with what was found
    if _WHAT_IT_WAS_ABOUT.search(reading.clause) and _ORDER_WORDS.search(understood.text.joined) \
            and (understood.assets.assets or focus.asset_ids):
        return ["work_orders"]  # "there was a vibration job on 6 end of August - what was that about?": the order
    if reading.shape == "yes_no" and _ASKED_IF_RAISED.search(reading.clause) \
            and (understood.assets.assets or focus.asset_ids):
        return ["resolution"]  # "did anyone raise a WO for the trip itself?": whether one is on file, not a draft
    if reading.shape == "yes_no" and asks_data_available(reading.clause) and not understood.sensors.canonical \
            and (understood.assets.assets or focus.asset_ids) and not set(understood.intents) - {"data_coverage", "history"}:
        return ["data_coverage"]  # "do we have any sensor data on that one?": what it records, if anything
    if "alerts" in chosen and "anomalies" in chosen and _KPI.search(understood.text.joined):
        # "were any kpi anomalies flagged on it?": the KPI anomaly events of the site's event log, no detector run
        chosen = [i for i in chosen if i != "anomalies"]
    if understood.named_rules and focus.last_intent in ALERT_LISTINGS and _ONES.search(reading.clause) \
            and set(understood.intents) <= {"history", "point_value", "compare"}:
        return ["alerts"]  # "did it get any of the power-while-off ones in 2019?" after its rules: that rule's alerts
    if asks_rule_codes(reading.clause) and not _NAMED_ORDERS.search(reading.clause) \
            and (understood.assets.assets or focus.asset_ids or reading.fleet):
        return ["alerts"]  # "which failure codes is that rule tied to?": the rule's listing, with the codes it maps to
    if "alerts" in chosen and RULES_TRIPPED.search(understood.text.joined):
        return ["alerts"]  # "which alert rules has it tripped over the years?": rules that fired, no stop to look at
    worst_for = _WORST_FOR.search(reading.clause) if reading.shape in ("yes_no", "which") else None
    if worst_for is not None and (worst_for.group(1) in _RECORD_WORDS or focus.last_intent in _RECORD_LISTINGS) \
            and (understood.assets.assets or focus.asset_ids):
        # "is it the worst chiller on site for that this year?" after a count of its work orders: that count, for
        # every chiller, to see where it stands
        said = worst_for.group(1)
        return ["alerts"] if said.startswith("al") or (said not in _RECORD_WORDS and focus.last_intent in ALERT_LISTINGS) \
            else ["work_orders"]
    counted = _RECORDS_PICKED_BY.search(reading.clause) if reading.shape == "which" \
        else _RANKED_BY_RECORDS.search(understood.text.joined)
    if counted is not None and not picked_listing(reading.clause, vocabulary()):
        # "which chiller threw the most alerts this year?": a pick by a count of records, not a ranking of health
        return ["alerts"] if re.match(r"al", counted.group(1)) else ["work_orders"]
    if chosen and chosen[0] == "thresholds" and (DIRECTION_CHOICE.search(reading.clause) or _THAN_A_PERIOD.search(
            reading.clause)):
        return ["alerts"]  # "more or fewer alerts than Q1?" counts them over both periods; it tunes no limit
    if reading.shape == "yes_no" and BARE_COMPARATIVE.match(reading.clause) and focus.last_intent == "compare" \
            and set(understood.intents) <= {"prioritize"} and not (understood.assets.assets or understood.periods.mentions):
        return ["compare"]  # "worse y/n" right after a comparison: that comparison, read as yes or no
    if _between_the_two_periods(understood, reading, focus):
        return ["compare"]  # "which was worse?" right after one chiller over two periods: a pick between the two
    if DIRECTION_CHOICE.search(reading.clause) and not understood.intents and focus.last_intent in _RECORD_LISTINGS \
            and (focus.asset_ids or understood.assets.assets):
        return [focus.last_intent]  # "and the other one, more or fewer?" after a count of records: the same count
    if focus.last_intent in _RECORD_LISTINGS and understood.periods.mentions and not understood.sensors.canonical \
            and (asks_difference(reading.clause) or _USUAL.search(reading.clause)) \
            and not _A_READING.search(reading.clause) \
            and set(understood.intents) <= {*_LOOK_INTENTS, "compare"} and (focus.asset_ids or understood.assets.assets):
        return [focus.last_intent]  # "is that typical, or was 2019 different?" after a count: the same count then
    if DIRECTION_CHOICE.search(reading.clause) and not understood.intents and focus.last_intent in _READINGS_LOOKED \
            and (focus.asset_ids or understood.assets.assets):
        return ["compare"]  # "this year's quarter, up or down on that?": the reading again, set against the last
    if _HIGHER_THAN_THEN.search(reading.clause) and understood.periods.mentions and set(understood.intents) <= {
            "investigate", "compare", "history"} and focus.last_intent in _READINGS_LOOKED and focus.window is not None \
            and not _USUAL.search(reading.clause) and (focus.asset_ids or understood.assets.assets):
        return ["compare"]  # "is that higher than may?" after June's power: the reading in May set against June's
    if asks_where_to_begin(reading.clause) and set(understood.intents) <= {"prioritize", "investigate"} \
            and (focus.asset_ids or reading.fleet):
        return ["prioritize"]  # "where should the crew go first?": the chillers discussed, worst first
    if _MAINTENANCE_PLAN.search(understood.text.joined) and (focus.asset_ids or understood.assets.assets
                                                            or reading.fleet):
        # "put together a maintenance plan covering both for the next 3 months": what needs attention first, and
        # the work each is likely to need next (the months ahead are the plan's span, not a forecast)
        return ["prioritize", "predict_next"]
    if asks_real_or_noise(reading.clause) and focus.last_intent == "alerts" and not understood.sensors.canonical \
            and (not _FAULT_NOUN.search(reading.clause) or "alert_to_failure" in understood.intents) \
            and (understood.assets.assets or focus.asset_ids):
        # "anything actionable in there or mostly nuisance?", "real or noise - do they precede any failures?": whether
        # work followed the alerts ("a genuine fault or nuisance?" asks about the machine: the diagnosis)
        return ["alert_to_failure"]
    if reading.shape == "yes_no" and _CLAIM_DOUBTED.search(reading.clause) and understood.sensors.canonical \
            and asks_change_over_time(understood.text.joined) and (understood.assets.assets or focus.asset_ids):
        return ["worsening"]  # "its kW/ton seems to have been climbing since January. Real, or am I imagining it?"
    if asks_real_or_noise(reading.clause) and (understood.assets.assets or focus.asset_ids):
        return ["diagnose"]  # "the ones on 6, real problem or noise?": whether a fault is behind them, ranked
    if reading.fleet and not understood.intents and not understood.assets.assets \
            and _OPEN_ANY.match(understood.text.joined):
        return ["prioritize"]  # "anything else on site from june I should know about?": the site, worst first
    if "prioritize" in chosen and len(chosen) > 1 and focus.asset_ids and superlative_one(understood.text.joined):
        # "compare this week to last week for the worst one": the one a ranking picked before, not a new ranking
        chosen = [i for i in chosen if i != "prioritize"]
    if reading.shape == "which" and (_PERIOD_PICK.search(reading.clause) or _PICK_OF_PERIODS.search(reading.clause)) \
            and focus.listed in _RECORD_LISTINGS and focus.last_intent in _RECORD_LISTINGS \
            and set(understood.intents) <= {"prioritize"} and not understood.sensors.canonical:
        return [focus.listed]  # "which month was worse?" after alarms per month: a pick among that listing's periods
    if reading.shape == "which" and focus.last_intent in _COUNTED_RECORDS \
            and (len(focus.asset_ids) > 1 or len(focus.discussed) > 1) \
            and set(understood.intents) <= {"prioritize"} and ranking_end(reading.clause) == "bad" \
            and not (understood.assets.assets or understood.sensors.canonical or understood.periods.mentions) \
            and not _CONCERN.search(reading.clause):
        # "which was the worst offender?" right after alerts counted per chiller, or "which one is cycling worse?"
        # after one count on 9 and one on 6: the most
        return [focus.last_intent]
    if reading.shape == "which" and _PERIOD_PICK.search(reading.clause) and [i for i in chosen if i != "prioritize"]:
        # "what's the worst month for alarms on 6?": a pick among the periods of that listing, not a chiller ranking
        return [i for i in chosen if i != "prioritize"]
    if reading.shape == "yes_no" and reading.comparative and understood.assets.assets and focus.sensors \
            and set(understood.intents) <= {"prioritize"} and not understood.sensors.canonical \
            and focus.last_intent in ("prioritize", "compare", "history"):
        return ["history"]  # "is 9 any better?" after a ranking on kW/ton: 9's kW/ton, held against the others'
    if reading.shape == "yes_no" and asks_rank_place(reading.clause) and focus.last_intent in _READINGS_LOOKED \
            and focus.sensors and set(understood.intents) <= {"prioritize"}:
        return ["history"]  # "is that the worst in the fleet for june?" after a reading: that reading, ranked
    if reading.shape == "which" and understood.failure_modes and " or " in f" {reading.clause} " \
            and len(understood.assets.assets or focus.asset_ids) == 1 and set(understood.intents) <= {"prioritize"}:
        return ["diagnose"]  # "so fouling or a flow problem?": the two causes weighed on that chiller's evidence
    if reading.shape == "which" and _RUN_TIME_PICK.search(reading.clause) and not understood.intents:
        return ["history"]  # "which of them ran the longest?": the running time of each, from its telemetry
    if focus.last_intent in ("forecast", "evaluate_forecast") and asks_reliability(reading.clause) \
            and not understood.sensors.canonical:
        return ["evaluate_forecast"]  # "how confident are you in that number?": the forecast scored against actuals
    if chosen and chosen[0] == "investigate" and _names_instruments(understood, vocabulary()) \
            and not understood.periods.of_kind("event") and not asks_change_over_time(reading.clause):
        # "are any of its sensors acting up?", "the transmitter is misbehaving": the trouble is the instruments'
        return ["sensor_health", *(i for i in chosen[1:] if i != "sensor_health")]
    if doubts_instrument(reading.clause) and (understood.assets.assets or focus.asset_ids) \
            and not _ORDER_WORDS.search(understood.text.joined):  # ("any calib or sensor WOs?" asks for orders)
        # "is the water that warm, or is the sensor off?": real, or the instrument; the diagnosis says which fault
        # leads (a calibration drift is one), the validity check whether the coupled signals followed
        return ["sensor_validity", "diagnose"]
    if last_done_job(understood.text, vocabulary()) and last_done_job(Text.of(reading.clause), vocabulary()) \
            and (understood.assets.assets or focus.asset_ids):
        # "when was it last cleaned?": the work-order history holds the date (a job told in the scene, "the sensor got
        # replaced on 3 Sep. What did return temp average in August?", is not what is asked)
        return ["work_orders"]
    listing = picked_listing(reading.clause, vocabulary()) if reading.shape == "which" else None
    if listing and (focus.asset_ids or understood.assets.assets) \
            and (not understood.intents or not chosen or chosen[0] == "prioritize"):
        return [listing]  # "which rule is the worst offender?": a pick among that chiller's alert rules
    if bullets_asked(reading.clause) and focus.asset_ids and not (
            understood.assets.assets or understood.sensors.canonical or understood.periods.mentions) \
            and (not chosen or not understood.intents or chosen[0] in (*_LOOK_INTENTS, *_RECORD_LISTINGS)):
        return ["report"]  # "give me three bullets I can paste into the review": what the dialog found, summed up
    if reading.shape == "how_to" and focus.asset_ids and chosen and chosen[0] in _LOOK_INTENTS:
        return ["fix_procedure"]  # "what should the crew check first?" asks for steps, not another look at data
    if reading.asks_cause and not understood.intents and _IN_GENERAL.search(reading.clause) \
            and (focus.asset_ids or understood.assets.assets):
        return ["failure_modes"]  # "what does frequent cycling usually point to?": the candidates, from knowledge
    if reading.asks_cause and (focus.asset_ids or understood.assets.assets) and (
            not chosen or chosen[0] in _LOOK_INTENTS or (chosen[0] == "failure_modes" and (
                not _MODAL.search(reading.clause) or _OF_THE_EVENT.search(reading.clause)))
            or (chosen[0] == "compare" and not understood.intents)):  # (a comparison carried on, not one asked)
        return ["diagnose"]  # "what's pushing its power up?", "that climb - what was it?": the cause, ranked
    if reading.shape == "yes_no" and asks_back_in_service(reading.clause) \
            and not set(chosen) & set(_COUNTED_RECORDS) \
            and any(catalog.has_telemetry(a) for a in understood.assets.assets or focus.asset_ids):
        return ["running_now"]  # "is it back up now?": its readings since the stop, not another analysis
    if reading.asks_change and chosen and (chosen[0] in _LOOK_INTENTS or not understood.intents) \
            and focus.last_intent in _RECORD_LISTINGS and not understood.sensors.canonical and not understood.intents[1:]:
        return [focus.last_intent]  # "so it's getting worse, right?" after counts per year: the records' trend
    if reading.asks_change and reading.shape == "yes_no" and chosen and chosen[0] in (*_LOOK_INTENTS, "diagnose") \
            and focus.last_intent not in _RECORD_LISTINGS \
            and any(catalog.has_telemetry(a) for a in understood.assets.assets or focus.asset_ids):
        return ["worsening"]  # "is it getting worse?": how the readings moved over the window, not another look
    dated = {(m.window.start, m.window.end) for m in understood.periods.mentions
             if m.window is not None and m.kind != "future"}
    if reading.shape == "yes_no" and reading.comparative and chosen in ([], ["history"]) and not understood.intents \
            and len(dated) >= 2 and (understood.assets.assets or focus.asset_ids):
        return ["compare"]  # "was 6 worse in june than in may?": the two periods side by side
    if reading.shape == "yes_no" and chosen in ([], ["history"]) and not understood.intents \
            and THAN_EXPECTED.search(understood.text.joined) and described_symptoms(understood.text, vocabulary()):
        return ["investigate"]  # "it was pulling more kW than it should - is it still doing that?": against its normal
    if focus.last_intent in ("compare", "history", *_COUNTED_RECORDS) and _RANK_THEM.search(understood.text.joined) \
            and not understood.failure_modes and not understood.sensors.canonical and len(focus.asset_ids) > 1:
        # "rank all four, best to worst" after the worst kW/ton, "rank em, worst first" after the chillers with Load
        # Low alerts: what was just compared or counted, in order
        return [focus.last_intent]
    if focus.last_intent == "alerts" and WHY_THE_CHANGE.search(understood.text.joined) \
            and not understood.sensors.canonical and not _ORDER_WORDS.search(understood.text.joined):
        return ["alerts"]  # "why the jump?" after two alert counts: the rules that moved, not a telemetry diagnosis
    if WHEN_LAST.search(reading.clause) and focus.last_intent in ALERT_LISTINGS and focus.asked_rules \
            and not understood.intents and not understood.sensors.canonical:
        return ["alerts"]  # "when was the last time it had one then?" after a rule's alerts: that rule's latest alert
    if LAST_RAN.search(understood.text.joined) and not understood.sensors.canonical:
        return ["history"]  # "when did it last run?": the latest running sample of its readings
    if reading.shape == "yes_no" and RAN_AT_ALL.search(understood.text.joined) and not understood.sensors.canonical \
            and not speaks_of_alerts(understood.text.joined) and not _ORDER_WORDS.search(understood.text.joined):
        return ["history"]  # "did it run at all in march?": its running share over the period, not an analysis
    if reading.shape == "yes_no" and chosen == ["history"] and not understood.intents \
            and not understood.sensors.canonical and not _ELLIPTICAL_OPENING.match(understood.text.joined) \
            and not asks_repeat(understood.text.joined) \
            and len({(m.window.start, m.window.end) for m in understood.periods.mentions if m.window}) < 2:
        # "is chiller 3 ok?": a health check, not a listing of its readings ("what about chiller 3?" after "is 6
        # holding its setpoint?" asks that again; "did its spring go the same way, this year against last?" sets
        # two periods side by side)
        return ["investigate"]
    if reading.shape == "yes_no" and _HEALTHY.search(reading.clause) and not understood.sensors.canonical \
            and chosen and chosen[0] in (*_LOOK_INTENTS, "compare") \
            and any(catalog.has_telemetry(a) for a in understood.assets.assets or focus.asset_ids):
        return ["investigate"]  # "and 4 was fine in july, right?": its health, whatever the last step compared
    if reading.shape == "which" and (chosen == ["prioritize"] or (not understood.intents and chosen in (
            [], ["history"], ["compare"]))) and (ranking_end(reading.clause) is not None or _SUPERLATIVE.search(
            reading.clause)) \
            and understood.sensors.canonical and not understood.failure_modes and not _CONCERN.search(reading.clause) \
            and len(understood.assets.assets) != 1 and not understood.periods.of_kind("future") \
            and (len(focus.asset_ids) != 1 or understood.assets.assets or reading.fleet):  # (one in focus: the site)
        # "which chiller had the worst kW/ton last month?": ranked on that reading (and "and the best?" after it reads
        # the other end of the same ranking), not on fault evidence
        return ["compare"]
    if reading.shape == "which" and _CONCERN.search(reading.clause) and not understood.sensors.canonical \
            and len(understood.assets.assets) != 1 and chosen and chosen[0] in ("forecast", *_LOOK_INTENTS, "compare"):
        return ["prioritize"]  # "heat wave coming: which machine worries you most?": ranked on fault evidence
    if reading.shape == "recommend" and _ADVICE_ON_AN_ACTION.search(reading.clause) and understood.intents \
            and set(understood.intents) <= {"history", "investigate"} and not understood.sensors.canonical:
        # "is it worth getting the OEM in to look at 6 and 9?": the looking is the action weighed, advice is asked
        shaped = _shape_fallback(reading, focus)
        if shaped:
            return shaped
    if NEXT_ON_THE_LIST.search(understood.text.joined) and len(focus.ranked) > 1 and focus.last_intent in RECIPES \
            and not understood.sensors.canonical and not understood.assets.assets \
            and set(understood.intents) <= {"history", "predict_next", focus.last_intent}:
        # "and the next two on the list?": the listing that ranked them (a later look at the pick's records, "could
        # one visit have covered them?", is no list), on the ones ranked after the pick
        return [focus.listed if focus.listed in _COUNTED_RECORDS else focus.last_intent]
    if reading.others and focus.last_intent in _COUNTED_RECORDS and set(understood.intents) <= {"history"} \
            and not understood.sensors.canonical:
        # "how did the other two with sensor data do?" after the most corrective orders: the same count for them
        # (the words for sensor data pick the chillers, they ask for no readings)
        return [focus.last_intent]
    if understood.intents and chosen:
        return chosen
    if reading.others and focus.last_intent in RECIPES and not (understood.named_rules and chosen == ["alerts"]):
        return [focus.last_intent]  # "and the rest of them?": the same request on the others (a rule named: alerts)
    if reading.shape == "which" and reading.comparative and understood.sensors.canonical and chosen \
            and chosen[0] in ("history", "compare") and len(understood.assets.assets or focus.asset_ids) > 1:
        return ["compare"]  # "between 4 and 6, which one pushed more condenser water through?": on that reading
    if not understood.intents and chosen == [focus.last_intent] and _carried_question(understood, reading, focus):
        # "and so far this month?" after "which alert rules fired on it in November?": the question carried over
        # asks "which" of the rules, it picks no chiller; the same request again, over the new period
        return chosen
    shaped = _shape_fallback(reading, focus, plural="plural_asset" in understood.references)
    if shaped and reading.shape in ("which", "how_to"):  # a pick or a procedure, not the generic next step
        return shaped
    if shaped and reading.shape == "recommend" and (chosen == ["forecast"] or (
            not understood.intents and _ADVICE_ON_AN_ACTION.search(reading.clause))):
        # "should we plan an inspection for next month?": the period is the plan's, not a forecast;
        # "should we shut it down?": advice on the evidence, not the dialog's generic next step
        return shaped
    return chosen or shaped


def _first_question_reading(message: str, parts: list[str]) -> RequestReading:
    """How the message asks; with several questions (`parts`) the first one sets the answer's shape ("what
    failure mode is behind those, and which sensors should I be watching?" wants the cause first, not advice),
    and a write is commanded when any part commands it."""
    reading = read_request(message)
    if len(parts) < 2:
        return reading
    first = read_request(parts[0])
    return replace(reading, shape=first.shape, asks_cause=first.asks_cause or reading.asks_cause,
                   asks_change=first.asks_change, clause=first.clause, writes=reading.writes or first.writes)


_AVERAGING = re.compile(r"\b(?:averaging|averaged|avg'?ing|running at|sitting at|reading)\b")
# A statistic of a named reading asks for that figure, written as a question or not ("avg power while running,
# and how many corrective WOs?").
_ACTUALS = re.compile(r"\bactual(?:ly|s)?\b|\bin reality\b|\bmeasured\b")
_STATISTIC = re.compile(r"\b(?:avg|average|averaged|averaging|mean|median|typical|peak|max|maximum|min|minimum|total)\b")


# A report named as the occasion of the request, not as what is requested: a topic head before a colon ("annual
# energy report: ...") or a purpose ("for the report", "in my monthly review").
_REPORT_OCCASION = re.compile(r"^\s*(?:[\w#/'-]+\s+){0,3}(?:report|review|write-?up)\s*:|"
                              r"\b(?:for|in|into)\s+(?:the|my|our|this|a|an)\s+(?:[\w-]+\s+){0,2}"
                              r"(?:report|review|write-?up)\b")


# "need a few lines for the monthly report", "a short summary for the report": a piece of writing is asked, so the
# report is the request itself
_WRITING_ASKED = re.compile(r"\b(?:lines|sentences|paragraphs?|summary|summari[sz]e|write|blurb|bullets?|points)\b")


def _asks_a_figure(understood: Understanding) -> bool:
    return bool(understood.sensors.canonical) and bool(_STATISTIC.search(understood.text.joined))


# A bare continuation ("and", "and?", "go on", "more"): the dialog's next step on the chillers discussed.
_CONTINUATION = re.compile(r"^(?:and|and then|then|go on|carry on|continue|keep going|more|next|ok and|so)\W*$")


def _carry_on(understood: Understanding, focus: Focus) -> list[str]:
    """The next step after the last one, for a message that only says to go on, once a chiller is discussed (never
    "I could not tell" then)."""
    if not focus.asset_ids or not focus.last_intent:
        return []
    if asks_repeat(understood.text.joined.strip()):
        return [focus.last_intent]  # "same for the return": the last request again, on whatever it names
    if not _CONTINUATION.match(understood.text.joined.strip()):
        return []
    return [vocabulary().follow_up_next.get(focus.last_intent) or focus.last_intent]



def _compound_intents(parts: list[str], understood: Understanding, reading: RequestReading, focus: Focus,
                      reference_date: date, artifacts: Sequence[ArtifactSummary], catalog: FleetCatalog) -> list[str]:
    """The turn's intents; a message asking several questions (`parts`: "what caused it, and how do we know
    it's fixed?") gets each question's intents, in the order asked, so one plan answers all of them."""
    intents = _turn_intents(understood, reading, focus, catalog)
    if len(parts) < 2:
        return intents
    for part in parts:
        if OWN_DOUBT.match(part.strip().lower()):
            continue  # "... or am I reading too much into one bad year": a doubt about the claim, nothing asked
        part_reading = read_request(part)
        if part_reading.act != "question" and not _STATISTIC.search(part.lower()):
            continue  # "is it breaking down more? look at 2017-2020": a detail of the first
        # ("handover from nights. which chiller was off?": the part's opening statement is the occasion, not asked)
        part_alone = _understand(scene_before_question(part) or part, reference_date, focus, artifacts, catalog)
        figure = _asks_a_figure(part_alone)
        if part_reading.act != "question" and not figure:
            continue
        if not part_alone.intents and not figure and not part_reading.asks_cause \
                and not doubts_instrument(part_reading.clause):
            continue  # "...? Is it worth it?": no request words of its own, it leans on the other question
        part_understood = replace(understood, intents=part_alone.intents or ["history"], scores=part_alone.scores)
        intents += [i for i in _turn_intents(part_understood, part_reading, focus, catalog) if i not in intents]
    return _records_compare_themselves(intents, understood)


def _records_compare_themselves(intents: list[str], understood: Understanding) -> list[str]:
    """A comparison asked beside a count of records is the records' own ("how many PMs vs CMs in July?", "how many
    corrective jobs in 2020, and how does that compare with 2019?"): no readings are asked unless one is named."""
    if "compare" in intents and set(intents) & _RECORD_LISTINGS and (not understood.sensors.canonical
                                                                     or _readings_name_the_alerts(understood)):
        return [i for i in intents if i != "compare"]
    return intents


# "evap approach alerts", "low flow alarms": the words of a reading just before the alerts name their rule
_BEFORE_ALERTS = re.compile(r"(?:[\w/-]+ ){1,3}(?=(?:high |low )?(?:alerts?|alarms?)\b)")


def _readings_name_the_alerts(understood: Understanding) -> bool:
    """Every reading the message names is the name of the alerts it counts ("evap approach alerts this month vs
    may?"), so no reading is asked."""
    rest = _BEFORE_ALERTS.sub(" ", understood.text.joined)
    return rest != understood.text.joined and not find_sensors(Text.of(rest), vocabulary()).canonical


def _scope(ctx: PlanContext) -> str:
    if ctx.scope == "fleet":
        return "fleet"
    return "assets" if len(ctx.assets) > 1 else "asset"


def _offer(act: ActReading, ctx: PlanContext) -> str | None:
    """The write the answer offers (kept for a "yes" next turn); none once it is done or not possible."""
    if act.offer is None or not ctx.assets:
        return None
    return act.offer


# Requests to look at data that, asked as "how should we...?" / "what should the crew check?", want steps.
_LOOK_INTENTS = frozenset({"history", "investigate", "anomalies", "point_value", "worsening"})
# Record listings a "getting worse?" follow-up asks about (breakdowns, alerts), not the readings.
# What a scene-setting sentence asks to look at ("its alarms won't stop", "the flow looks low"), which a question of
# advice after it does not replace
_SCENE_LOOKS = frozenset({"alerts", "work_orders", "history", "investigate", "anomalies"})
# Requests answered once about one event, never repeated on a new period: a repair's before/after check
_ONE_OFF = frozenset({"repair_check"})
# Intents a repeat's own noun may score ("same breakdown for 9": the split asked before, not breakdowns to count).
_RECORD_NOUN_INTENTS = frozenset({"work_orders", "compare", "history", "investigate"})
_RECORD_LISTINGS = frozenset({"work_orders", "bundling", "predict_next", "alerts", "alert_to_failure", "lifecycle"})
# Listings a bare "which one?" picks from (the same listing again: its calls are memoised, so no new work).
_PICKABLE_LISTINGS = frozenset({"work_orders", "alerts", "alert_to_failure", "bundling", "compare", "history",
                                "point_value", "anomalies", "investigate", "predict_next", "lifecycle"})


def _shape_fallback(reading: RequestReading, focus: Focus, *, plural: bool = False) -> list[str]:
    """A message with no request words that still asks in a particular way ("which one?", "should we?").

    "who's loudest?" after an alert listing picks from that listing; with nothing listed it ranks.
    `plural`: the message points back at several chillers ("which of the two ...?" after one listing each)."""
    several = len(focus.asset_ids) > 1 or (plural and len(focus.discussed) > 1)
    if reading.shape == "which" and focus.last_intent in _PICKABLE_LISTINGS and several:
        return [focus.last_intent]
    intent = _SHAPE_FALLBACK.get(reading.shape)
    if intent == "prioritize" and len(focus.asset_ids) == 1 and focus.hypotheses:
        return ["diagnose"]  # "which one is it?" about one chiller: the most likely cause
    return [intent] if intent else []


def _names_something(understood: Understanding) -> bool:
    """The message names a chiller, a sensor, a failure mode, a period, an id or something said before."""
    found = understood.assets
    return bool(found.assets or found.all_assets or found.bare_asset_word or found.unknown or found.other_equipment
                or understood.sensors.canonical or understood.failure_modes or understood.periods.mentions
                or understood.references or understood.rule_ids or understood.work_order_ids)


_GREETINGS = frozenset({"hi", "hello", "hey", "morning", "afternoon", "evening", "good", "there", "yo", "howdy",
                        "greetings", "hiya", "team", "folks", "all"})
_HESITATIONS = frozenset({"hmm", "hm", "huh", "eh", "um", "uh", "er", "ah", "oh", "ok", "okay", "what"})


def _informative_next_step(understood: Understanding, reading: RequestReading, focus: Focus) -> list[str]:
    """What a message without any request words gets: never "I could not tell" while there is a subject.

    The dialog's next step when it has one, else a look at the subject (the named or carried chillers,
    or the whole site when the message speaks of it or of a symptom); a bare greeting gets the
    capabilities.
    """
    vocab = vocabulary()
    subject = (understood.assets.assets or understood.assets.bare_asset_word or understood.sensors.canonical
               or understood.failure_modes or understood.periods.mentions or reading.fleet
               or understood.assets.all_assets)
    asks = reading.act == "question" or bool(vocab.follow_up_cues & set(understood.text.tokens))
    if focus.asset_ids and focus.last_intent and (asks or subject):
        return [vocab.follow_up_next.get(focus.last_intent, focus.last_intent)]
    tokens = [t for t in understood.text.tokens if t.isalpha()]
    if tokens and all(t in _GREETINGS for t in tokens):
        return ["capabilities"]  # "hello", "good morning": what the assistant can do
    words = [t for t in tokens if t not in function_words() and t not in _HESITATIONS]
    if not subject and not focus.asset_ids and reading.act == "question" and "?" in understood.text.tokens and words:
        return ["prioritize"]  # "anything I should know about before the meeting?": the site, worst first
    return ["investigate"] if subject or (asks and focus.asset_ids) else []


# An open "anything ...?" about the site: whatever stands out, not the last step repeated.
_OPEN_ANY = re.compile(r"^(?:(?:ok|so|and|also|right|alright|cool|thanks|great)\s+)*(?:is there\s+)?"
                       r"(?:anything|something|any issues|any problems|what else)\b")


# "... how does that compare with May 2020?": the period after it is what the subject is held against.
_AGAINST = re.compile(r"\b(?:compar\w* (?:with|to|against)|than|vs|versus|against|relative to)\b")


def _only_compared_against(question: Understanding) -> bool:
    """Every period of the question follows a comparison word: they are the other side of a comparison, and the
    period of the subject is the one the rest of the message gave ("looked off in May. ... compare with May
    2020?")."""
    text = question.text.joined
    marker = _AGAINST.search(text)
    return marker is not None and all(m.start >= marker.end() for m in question.periods.mentions)


def _placed_periods(part: Understanding, whole: str) -> Periods:
    """The periods of one question of a message, at their places in the whole message (what is said just before
    a period, "compare with July", tells its side)."""
    offset = whole.find(part.text.joined.rstrip(" ?"))
    if offset <= 0:
        return part.periods
    return replace(part.periods, mentions=[replace(m, start=m.start + offset) for m in part.periods.mentions])


_LOOKING_AHEAD = frozenset({"forecast", "draft_wo"})
_YEAR_SAID = re.compile(r"\b(?:19|20)\d\d\b|\b(?:last|this|previous) year\b")


def _ahead_when_looking_ahead(understood: Understanding, intents: list[str], reference_date: date,
                              advising: bool = False) -> Understanding:
    """"project its tonnage for the first week of October", "raise a WO for an oil analysis, first week of August":
    a month named without a year in a forecast or an order to schedule is the next one, not the last (and so it
    is in advice on when to act: "can it wait for the PM round in May?")."""
    if not (set(intents[:1]) & _LOOKING_AHEAD or advising) or _YEAR_SAID.search(understood.text.joined):
        return understood
    mentions = []
    for mention in understood.periods.mentions:
        window = mention.window
        ahead = window is not None and mention.kind == "absolute" and window.end.date() <= reference_date \
            and cal.shift(window, years=1).end.date() > reference_date and window.end - window.start <= timedelta(days=31)
        mentions.append(replace(mention, window=cal.shift(window, years=1, label=window.label.replace(
            str(window.start.year), str(window.start.year + 1)))) if ahead and window is not None else mention)
    if mentions == understood.periods.mentions:
        return understood
    return replace(understood, periods=replace(understood.periods, mentions=mentions))


# Advice on acting: the periods ahead it names are when to act, not data to read.
_ADVISORY = frozenset({"recommend_wo", "monitor", "thresholds", "lifecycle", "plan_fix", "bundling"})


def _advising(intents: list[str], reading: RequestReading) -> bool:
    """Advice on what to do ("should we recalibrate now or wait for May?", "anything to watch going into next
    summer?"), not a forecast asked for."""
    return "forecast" not in intents and (reading.shape == "recommend" or intents[0] in _ADVISORY)


def _horizon_of_the_advice(understood: Understanding, reference_date: date, zone: tzinfo) -> tuple[Understanding, str]:
    """Advice names a time ahead ("next summer", "the PM round in May"): that is when to act, so it leaves the
    periods read; the advice rests on the recorded data up to the reference date (the note says so)."""
    today_end = cal.at_midnight(reference_date + timedelta(days=1), zone)
    ahead = [m for m in understood.periods.mentions if m.window is not None and m.window.start >= today_end]
    if not ahead:
        return understood, ""
    kept = [m for m in understood.periods.mentions if m not in ahead]
    labels = " and ".join(dict.fromkeys(m.window.label for m in ahead if m.window is not None))
    note = f"{labels} is when to act, not a period with data yet: the advice rests on the records up to " \
           f"{reference_date.isoformat()}."
    return replace(understood, periods=replace(understood.periods, mentions=kept)), note


def _spelled_out_elsewhere(whole: Understanding, part: Understanding) -> bool:
    """"Has its power draw changed since then? Give me this month against June.": the part's only period points back
    ("since then") while the rest of the message spells out two (or the day "then" is): those are the periods
    asked."""
    explicit = [m for m in whole.periods.mentions if m.kind in ("absolute", "past") and m.window is not None]
    pointing_back = all(m.kind == "focus" for m in part.periods.mentions)
    # ("strainer got cleaned on the 2nd. has the flow come back since then?": the scene dates "then")
    then_dated = any(m.window.label.startswith("since ") and m.kind == "absolute" for m in explicit if m.window)
    # ("February 2020 as a whole then: was it running at all that month?": "that month" is the one the message names)
    named_here = len(explicit) == 1 and _THAT_UNIT.search(part.text.joined) is not None
    return pointing_back and (len(explicit) >= 2 or then_dated or named_here)


_THAT_UNIT = re.compile(r"\b(?:that|this|the same) (?:day|week|month|quarter|year|period|stretch|season)\b")


def _frame_year(focus: Focus) -> int | None:
    """The year the dialog is in, which a bare month belongs to ("is that higher than may?" after June 2020): the one
    year of the period discussed; none when that period spans two years, or when it is the earlier side of a
    comparison with the same stretch later on ("and the same month last year?" then "how many alarms in june?"
    is this June: the dialog's frame stayed the later year)."""
    window, earlier = focus.window, focus.earlier_window
    if window is None or window.start.year != (window.end - timedelta(microseconds=1)).year:
        return None
    if earlier is not None and earlier.start > window.start and earlier.start.year != window.start.year:
        return None
    # only a year the user wrote moves the frame ("june 2020"): a recent period that happens to fall in last year
    # ("since around Christmas", "last december") leaves bare months at their latest
    return window.start.year if str(window.start.year) in (focus.asked or "") else None


_EVENT_DAY_SPAN = timedelta(days=2)


@lru_cache(maxsize=1)
def _event_on_a_day() -> re.Pattern[str]:
    """"tripped on the 23rd", "the shutdown on July 23": one of the vocabulary's event words (in any inflection) and
    the day it happened, a few words apart."""
    words = "|".join(re.escape(w) for w in sorted(vocabulary().event_words, key=len, reverse=True))
    # ("#3 tripped last tues", "it quit yesterday": a day right after a trip verb needs no preposition)
    verbs = "|".join(re.escape(w) for w in sorted(vocabulary().trip_words, key=len, reverse=True))
    return re.compile(rf"\b(?:{words})(?:s|es|ed|ped|ping|ing)?\b(?: [\w']+){{0,3}}? (?:on|at)\s*$|"
                      rf"\b(?:{verbs})\s*$")


def _told_event(focus: Focus, artifacts: Sequence[ArtifactSummary]) -> datetime | None:
    """The day the user dated the event on in an earlier turn, unless a trip found since is on that day (its time is
    the finer one)."""
    if focus.told_event is None:
        return None
    found = event_time_from(artifacts) or event_time_from(artifacts, stops=True)
    if found is not None and found.date() == focus.told_event.date():
        return None  # ("#3 tripped tues afternoon": the stop read on that Tuesday says when in the day)
    return focus.told_event


def _event_dated_in(understood: Understanding) -> datetime | None:
    """The start of the day the message says an event happened on ("tripped on the 23rd of last month"), or None."""
    text = understood.text.joined
    for mention in (*understood.periods.mentions, *understood.periods.context):
        window = mention.window
        if window is None or mention.kind not in ("absolute", "past"):
            continue
        # ("tripped on the 23rd and since it came back ...": the day starts a span to now, and still dates the trip)
        a_day = window.end - window.start <= _EVENT_DAY_SPAN
        clock = time_of_day(text) if mention.kind == "past" else None
        if mention.kind == "past" and (not a_day or clock is None):
            # ("tripped last week": no day to count from; "tripped yesterday afternoon": a day with no time, whose
            # window the dialog reads up to its end)
            continue
        if not a_day and not _A_DAY.match(text[mention.start:]):
            continue
        told = _event_on_a_day().search(text[:mention.start])
        if told is not None and (a_day or told.group(0).rstrip().endswith((" on", " at"))):
            # ("9 tripped yesterday afternoon around 3:15": that day, at that time)
            return window.start + timedelta(hours=clock[0], minutes=clock[1]) if clock is not None else window.start
    return None


# A day written out where a period starts: "the 23rd", "july 23", "23 july", "the 23rd of last month"
_A_DAY = re.compile(rf"(?:the )?\d{{1,2}}(?:st|nd|rd|th)\b|{MONTH_WORD} \d{{1,2}}(?:st|nd|rd|th)?\b|"
                    rf"\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{MONTH_WORD}\b")


def _understand(message: str, reference_date: date, focus: Focus,
                artifacts: Sequence[ArtifactSummary], catalog: FleetCatalog) -> Understanding:
    """The message's reading, with intents (and the period, when it names one) taken from its request
    sentences: "I'm writing the June report. How did Chiller 9 do last month?" asks for history of
    last month, not for a report about June."""
    event_time = _told_event(focus, artifacts) or event_time_from(artifacts, stops=True)
    frame = _frame_year(focus)
    whole = understand(message, reference_date, focus.window, event_time, catalog=catalog, frame_year=frame)
    dated = _event_dated_in(whole)
    if dated is not None and dated != event_time:
        # "Chiller 9 tripped on the 23rd of last month. What was it doing in the week before the trip?": the message
        # dates the event itself, so what is said relative to it counts from that day
        event_time = dated
        whole = understand(message, reference_date, focus.window, event_time, catalog=catalog, frame_year=frame)
    if dated is not None and focus.told_event != dated:
        whole = replace(whole, event_dated=dated)
    if not whole.named_rules and focus.last_intent in ALERT_LISTINGS:
        # right after an alert listing a rule may be named by the words of its name with no alert word ("when did it
        # last log excessive power while off?"), by words beyond a reading's name: "avg cond water flow in august?"
        # names the reading, not the "Condenser Water Flow Through A Chiller That Is Off" rule
        beyond = set(whole.text.stems) - _reading_stems(vocabulary())
        # ("the power-while-off ones" picks records of the listing by their words, whatever the words are)
        named = [rule_id for rule_id in find_rule_names(whole.text, catalog.alert_rules, loose=True)
                 if beyond & set(phrase_stems(dict(catalog.alert_rules).get(rule_id, "")))
                 or _ONES.search(whole.text.joined)]
        whole = replace(whole, named_rules=named)
    request = request_sentences(message)
    if request != message:
        part = understand(request, reference_date, focus.window, event_time, catalog=catalog, context=message,
                          frame_year=frame)
        # "I'm putting the Q2 pack together ... What I need: Chiller 4's average kW/ton over Q2": a reading asked
        # for is the request, even with no intent phrase; the context's "pack" asks for no report
        if part.intents or part.sensors.canonical:
            whole = replace(whole, intents=part.intents, scores=part.scores)
        if not part.intents and part.sensors.canonical and not part.failure_modes:
            # ("reading the notes on 6's condenser flow problem ... what's its average condenser water flow this
            # month?": the fault is what was read, the reading is what is asked; no diagnosis of the fault)
            whole = replace(whole, failure_modes=part.failure_modes)
        if part.periods.mentions and not _spelled_out_elsewhere(whole, part):
            # (the rest's periods stay as context: "we had it cleaned on July 9th")
            passing = [m for m in whole.periods.mentions if m.window is not None
                       and all(m.window != p.window for p in part.periods.mentions)]
            whole = replace(whole, periods=replace(part.periods, context=[*part.periods.context, *passing]))
    # "what was ch3 load on sept 31" refused, then "sorry, the 30th": that day of the month asked about
    day = _DAY_CORRECTION.match(whole.text.joined)
    months = _MONTH_NAMED.findall(focus.asked.lower()) if day is not None and focus.asked else []
    if day is not None and months and not whole.periods.mentions:  # (the last month word: "may I see ... june 31")
        corrected = understand(f"on {months[-1]} {day.group(1)}", reference_date, focus.window, event_time,
                               catalog=catalog)
        if corrected.periods.mentions and not corrected.periods.problems:
            whole = replace(whole, periods=corrected.periods)
    asked_after = scene_before_question(message) if "report" in whole.intents else None
    if asked_after is not None:
        # "handover from nights. which chiller was off its normal last month? ...": the occasion names a report, the
        # question after it asks what is wanted (a report asked for is a command or a question of its own)
        rest = understand(asked_after, reference_date, focus.window, event_time, catalog=catalog, context=message)
        if rest.intents and "report" not in rest.intents:
            whole = replace(whole, intents=rest.intents, scores=rest.scores)
    occasion = _REPORT_OCCASION.search(message.lower()) if "report" in whole.intents \
        and not _WRITING_ASKED.search(message.lower()) else None
    if occasion is not None:
        # "annual energy report: 2020 avg kW/ton for 3 and 4", "I need a root cause for the report, not just numbers":
        # the report is what the answer is for; what the rest asks (a reading, a cause) is what is wanted
        rest_text = message[:occasion.start()] + " " + message[occasion.end():]
        rest = understand(rest_text, reference_date, focus.window, event_time, catalog=catalog, context=message)
        if "report" not in rest.intents and (rest.intents or _asks_a_figure(rest) or read_request(rest_text).asks_cause):
            whole = replace(whole, intents=rest.intents or ["history"], scores=rest.scores)
    doubt = OWN_DOUBT.search(message.lower())
    if doubt is not None and doubt.start() > 0:
        # "is ch6 breaking down more every year? or am I reading too much into one bad year": the asker's doubt about
        # the claim asks nothing of its own ("reading" there is no reading)
        rest = understand(message[:doubt.start()], reference_date, focus.window, event_time, catalog=catalog,
                          context=message)
        if rest.intents:
            whole = replace(whole, intents=rest.intents, scores=rest.scores)
    # "I meant the one with the most alerts - what was its supply temperature?": the description picks the chiller;
    # what is asked of it is the rest
    described = DESCRIBED_ONE.search(whole.text.joined)
    if described is not None:
        rest = understand(whole.text.joined.replace(described.group(0), " "), reference_date, focus.window, event_time,
                          catalog=catalog)
        if rest.intents or rest.sensors.canonical:
            whole = replace(whole, intents=rest.intents, scores=rest.scores, named_rules=rest.named_rules)
    # "For the January ops review - did chiller 4 have any alarms in December?": the question's own period
    asking = asked_question(message)
    if asking not in (message, request) and asking.rstrip().endswith("?"):
        question = understand(asking, reference_date, focus.window, event_time, catalog=catalog, context=message)
        acts = [(part, read_request(part).act) for part in question_parts(message)]
        # ("... aug 2018 low? compare to aug 2017": a command setting another period against the one a question
        # named is asked too)
        sets_against = bool(question.periods.mentions)
        parts = [part for part, act in acts if act == "question"
                 or (sets_against and act == "command" and _COMPARE_COMMAND.match(part.strip()))]
        united = False
        if len(parts) > 1:
            # "...over those 2 weeks? and what was it back in june": each question's own period, in order
            read = [_placed_periods(understand(part, reference_date, focus.window, event_time, catalog=catalog),
                                    whole.text.joined) for part in parts]
            mentions = list({(m.window.start, m.window.end): m for p in read for m in p.mentions
                             if m.window is not None}.values())
            # (only a period named outright is another one: "before that? anything odd earlier in the month?"
            # says one period twice)
            united = len(mentions) > 1 and not any(p.problems for p in read) and any(m.kind == "absolute" for m in mentions)
            if united:
                whole = replace(whole, periods=replace(whole.periods, mentions=mentions))
        if not united and question.periods.mentions and not question.periods.problems \
                and not _only_compared_against(question) and not _spelled_out_elsewhere(whole, question):
            whole = replace(whole, periods=question.periods)
        if (question.intents or question.sensors.canonical) and states_then_asks(message):
            # "Chiller 6 has been running hot since spring. Was its condenser return higher than in June 2019?":
            # the statement is the scene (its chiller stays the subject); the question says what is wanted
            whole = replace(whole, intents=question.intents, scores=question.scores)
    if not whole.periods.mentions and focus.window is not None and focus.earlier_window is None \
            and names_both_periods(whole.text.joined):
        # "in the same two months", "over both months" after one span of two months: that span (after two periods
        # side by side, those two, which the comparison reads)
        whole = replace(whole, periods=replace(whole.periods, mentions=[PeriodMention(focus.window, "focus",
                                                                                      len(whole.text.joined))]))
    return _past_the_discussed(_years_as_the_discussed(_as_named_before(whole, focus), focus), focus)


_COMPARE_COMMAND = re.compile(r"(?:and |then |pls |please |now )?(?:compare|vs\.?|versus|against|stack it up)\b", re.I)


def _readable(intent: str) -> str:
    return intent.replace("_", " ")


def _run(ctx: PlanContext) -> Decision:
    """Run every intent's recipe (data before analysis before actions) into one plan."""
    plan = PlanBuilder(ctx.artifacts)
    order = list(RECIPES)
    for intent in sorted((i for i in ctx.intents if i in RECIPES), key=order.index):
        verdict = RECIPES[intent](ctx, plan)
        if verdict is not None:
            return stop(ctx, verdict.kind, verdict.message)
    advice.add_ranking(ctx, plan)
    if not plan.tasks:
        return stop(ctx, "clarify", messages.nothing_to_run_text(ctx.assets, ctx.catalog))
    summary = "Plan: " + "; ".join(f"{i + 1}. {t.specialist}: {t.goal}" for i, t in enumerate(plan.tasks))
    return Decision(kind="run", tasks=plan.tasks, message=summary, focus=_new_focus(ctx, plan.tasks),
                    intent="+".join(ctx.intents), assumptions=list(ctx.assumptions),
                    reference_date=ctx.reference_date)
