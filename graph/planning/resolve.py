"""Resolve a turn's assets, window and sensors against the focus; refuse or ask when that is impossible.

Each resolver either fills the `PlanContext` and returns None, or returns the `Decision` that ends
the turn (a question back, or a refusal that says what would work).
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, timedelta

from assetops.domain.turn import Decision, DecisionKind, Focus, TimeWindow
from graph.planning import messages
from graph.planning.context import (
    DEFAULT_DAYS_KEY,
    NO_TELEMETRY_INTENTS,
    TELEMETRY_INTENTS,
    WHOLE_HISTORY_INTENTS,
    PlanContext,
)
from graph.planning.scope import fleet_assets, scope_assets
from graph.understanding import calendar_math as cal
from graph.understanding.assets import find_assets, loose_chiller_number, telemetry_assets
from graph.understanding.fleet_subset import telemetry_subset
from graph.understanding.last_done import last_done_job
from graph.understanding.periods import PeriodMention
from graph.understanding.request import (
    HOLDS_SETPOINT,
    LAST_RAN,
    MONTH_WORD,
    SAME_ONE,
    SUBJECT_RANKED,
    UP_OR_DOWN_ON,
    WHEN_OF_THOSE,
    asks_about_now,
    asks_change_over_time,
    names_both_periods,
    question_parts,
)
from graph.understanding.sensors import canonical_of, expand, find_sensors
from graph.understanding.text import Text


def _first_day(ctx: PlanContext) -> date:
    """The first day of telemetry (the reference date when the fleet has none: nothing is covered)."""
    return ctx.catalog.first_day or ctx.reference_date


def _end_day(ctx: PlanContext) -> date:
    """The day after the last day of telemetry (exclusive; the reference date when there is none)."""
    return ctx.catalog.end_day or ctx.reference_date



def stop(ctx: PlanContext, kind: DecisionKind, message: str) -> Decision:
    """A decision that ends the turn without tasks; a question keeps the pending request in the focus."""
    # (a refused request is pending too: "oops, #6 I meant", "ah, typo - march this year" resume it)
    focus = _pending_request(ctx) if kind in ("clarify", "reject") else ctx.focus
    if ctx.assets and ctx.assets != focus.asset_ids:  # a valid chiller stays the subject after a refusal
        discussed = list(dict.fromkeys([*ctx.assets, *focus.asset_ids, *focus.discussed]))
        pending = kind in ("clarify", "reject") and focus.sensors != ctx.focus.sensors  # the readings just asked for
        focus = replace(focus, asset_ids=list(ctx.assets), equipment_ids=ctx.equipment_ids(),
                        sensors=list(focus.sensors) if pending else [], discussed=discussed)
    return Decision(kind=kind, message=message, focus=focus, intent=ctx.primary,
                    assumptions=list(ctx.assumptions), reference_date=ctx.reference_date)


def _answered_keeping_period(ctx: PlanContext, message: str) -> Decision:
    """An answer without tasks that keeps the period asked as the one discussed when the dialog had none ("chiller 14
    kW/ton for last quarter" has no telemetry; "ok then just its work orders for that quarter" is that quarter). A
    period the dialog was on stays ("its power draw for August too?" refused, "over the same period" is the one before).
    """
    decision = stop(ctx, "answer", message)
    window = None if ctx.understanding.periods.problems else ctx.understanding.window
    today_end = cal.at_midnight(ctx.reference_date + timedelta(days=1), ctx.catalog.zone)
    if window is not None and window.start < today_end and decision.focus.window is None:
        decision.focus = replace(decision.focus, window=window, earlier_window=None)
    return decision


def _pending_request(ctx: PlanContext) -> Focus:
    """The focus while a question is open: the request's intent, period and sensors, so that the answer
    ("sorry, meant ch 4") resumes it instead of starting over with defaults.

    A period with a wrong date stays out: the answer to that question is the corrected period.
    """
    periods = ctx.understanding.periods
    window = None if periods.problems else ctx.window or ctx.understanding.window
    today_end = cal.at_midnight(ctx.reference_date + timedelta(days=1), ctx.catalog.zone)
    if window is not None and window.start >= today_end:
        window = None  # ("and for December 2023?" refused: a period with no data yet is no period to carry on with)
    named = ctx.understanding.sensors.canonical
    sensors = (expand(ctx.telemetry_assets, named, ctx.vocab, ctx.catalog)[0] if ctx.telemetry_assets else list(named)) \
        if named else ctx.focus.sensors
    return replace(ctx.focus, last_intent=ctx.primary, window=window or ctx.focus.window, sensors=sensors,
                   asked=ctx.asked or ctx.focus.asked)


def needs_telemetry(ctx: PlanContext) -> bool:
    """True when the turn's main work reads telemetry."""
    return ctx.primary in TELEMETRY_INTENTS


def wants_telemetry(ctx: PlanContext) -> bool:
    """True when any of the turn's work reads telemetry (it then needs a window inside coverage)."""
    return any(i in TELEMETRY_INTENTS for i in ctx.intents)


def work_order_scope(ctx: PlanContext) -> bool:
    """True when every intent of the turn reads work-order data only (all chillers allowed)."""
    return all(i in ctx.vocab.work_order_intents or i in NO_TELEMETRY_INTENTS for i in ctx.intents)


def _explicit_assets(ctx: PlanContext) -> list[str]:
    mentions = ctx.understanding.assets
    if mentions.assets:
        return list(mentions.assets)
    if mentions.all_assets:  # "all chillers": those the turn's work applies to (alerts: those that have them)
        return fleet_assets(ctx)
    return []


# Requests where "the first one" means the top hypothesis once a diagnosis exists.
_HYPOTHESIS_INTENTS = frozenset({"draft_wo", "plan_fix", "restart", "validation", "diagnose"})


_NAMES_AN_ASSET = re.compile(r"\b(?:first|second|other) (?:chiller|unit|machine)\b")
_THE_OTHER = re.compile(r"\bthe other (?:one|chiller|unit|machine)\b")


def _asset_by_position(ctx: PlanContext) -> list[str]:
    """"the first one" / "the latter": while several chillers are in focus, that one of them; while one
    is, the dialog's order of discussion ("back to the first one" = the chiller discussed first, "the
    other one" = the one discussed before the current)."""
    focus_assets = ctx.focus.asset_ids
    references = ctx.understanding.references
    if not references & {"first_asset", "second_asset"}:
        return []
    says_asset = bool(_NAMES_AN_ASSET.search(ctx.understanding.text.joined))
    if ctx.primary in _HYPOTHESIS_INTENTS and ctx.focus.hypotheses and not says_asset:
        return []  # "draft it for the first one": the top hypothesis
    ranked = [a for a in ctx.focus.ranked if a in ctx.catalog.asset_ids]  # the last pick's order
    if len(focus_assets) >= 2:
        # "the runner-up" after "which one has the most?": the answer's second, else the focus's second
        order = ranked if len(ranked) >= 2 and set(ranked) <= set(focus_assets) else list(focus_assets)
    elif "second_asset" in references and len(ranked) >= 2 and set(focus_assets) <= set(ranked) \
            and not _THE_OTHER.search(ctx.understanding.text.joined):
        order = ranked  # "and the runner-up?" after a look at the winner: the ranking's second
    else:
        order = list(reversed(ctx.focus.discussed))  # oldest first
        if _THE_OTHER.search(ctx.understanding.text.joined):
            # "the other one": the other that stood out in the last pick, else the one discussed before
            others = [a for a in ranked if a not in focus_assets][:1] or \
                [a for a in ctx.focus.discussed if a not in focus_assets][:1]
            order = others * 2
    if len(order) < 2:
        return []
    picked = order[0] if "first_asset" in references else order[1]
    ctx.note(f"Taking {'the first one' if 'first_asset' in references else 'that one'} to mean {picked}.")
    return [picked]


# "draft it for the one you picked", "go with your pick": the chiller the last "which one?" answer named
_YOUR_PICK = re.compile(r"\bthe (?:one|chiller|unit|machine) (?:you|u) (?:picked|chose|chosen|recommended|suggested|"
                        r"named|went with|pointed (?:to|at)|flagged|singled out)\b|\byour (?:pick|choice|recommendation)\b")


def _the_one_picked(ctx: PlanContext) -> list[str]:
    picked = ctx.focus.picked
    if picked is None or not _YOUR_PICK.search(ctx.understanding.text.joined):
        return []
    ctx.note(f"Taking the one picked to mean {picked}.")
    return [picked]


# "more than it did in aug 2020", "higher than they were last year": the subject again, set against itself
_AGAINST_ITSELF = re.compile(r"\bthan (?:it|they) (?:did|was|were|used to|ran|drew|pulled|had)\b")


def resolve_assets(ctx: PlanContext) -> Decision | None:
    """Pick the turn's assets: named ones, "all", references to the focus, or the focus itself."""
    mentions = ctx.understanding.assets
    if mentions.unknown:
        text = messages.unknown_assets_text(mentions.unknown, ctx.catalog)
        outside = _outside_coverage(ctx, ctx.understanding.window)
        return stop(ctx, "reject", f"{text} {outside}" if outside else text)
    if mentions.unknown_site:
        return stop(ctx, "reject", f"Site {mentions.unknown_site} is unknown. {messages.fleet_text(ctx.catalog)}")
    if mentions.other_equipment and not mentions.assets and not (
            ctx.focus.asset_ids and "asset" in ctx.understanding.references):
        # ("draft a new WO on it - inspect the condenser water pump": the pump is the work on the chiller discussed)
        return stop(ctx, "reject", f"I only cover chillers; {', '.join(mentions.other_equipment)} is not in "
                                   f"the fleet. {messages.fleet_text(ctx.catalog)}")
    ctx.assets = _explicit_assets(ctx) or _the_one_picked(ctx) or _asset_by_position(ctx)
    _pointed_beside_named(ctx)
    periods = [m for m in ctx.understanding.periods.mentions if m.window is not None]
    comparing = ctx.primary == "compare" or (ctx.primary == "work_orders" and "compare" in ctx.understanding.intents)
    if comparing and len(ctx.assets) == 1 and ctx.assets[0] not in ctx.focus.asset_ids and len(periods) == 1 \
            and ctx.focus.window is not None and _AGAINST_ITSELF.search(ctx.understanding.text.joined):
        # "is 6 pulling more than it did in aug 2020?": the chiller named against itself then, over the period discussed
        ctx.extra_windows = [ctx.focus.window]
        ctx.note(f"{ctx.assets[0]} over {ctx.focus.window.label} against {periods[0].window.label}.")  # type: ignore[union-attr]
    elif comparing and len(ctx.assets) == 1 and ctx.assets[0] not in ctx.focus.asset_ids and len(periods) < 2:
        if len(ctx.focus.asset_ids) == 1:  # the chiller under discussion stays the one a later "it" means
            ctx.compared_subject = ctx.focus.asset_ids[0]
        ctx.assets = [*ctx.focus.asset_ids, *ctx.assets]  # "how does that compare with chiller 4?"
    elif comparing and len(ctx.focus.asset_ids) == 1 and ctx.focus.asset_ids[0] in ctx.assets and len(ctx.assets) > 1:
        # "compare ch6 supply temp last month with #9": the chiller discussed is still the one a later "it" means
        ctx.compared_subject = ctx.focus.asset_ids[0]
    if not ctx.assets:
        if mentions.bare_asset_word and len(ctx.focus.asset_ids) == 1 \
                and "plural_asset" not in ctx.understanding.references:
            ctx.note(f"Assuming you mean {ctx.focus.asset_ids[0]}, the chiller we were discussing.")
        ctx.assets = scope_assets(ctx)
    elif len(ctx.assets) > 1:
        ctx.scope = "assets"
    _ranked_against_the_rest(ctx)
    _same_pick_in_another_period(ctx)
    _pick_among_the_discussed(ctx)
    others = ctx.request is not None and (ctx.request.others or bool(_OTHER_PLURAL.search(ctx.understanding.text.joined)))
    if others and len(ctx.focus.asset_ids) == 1 and ctx.focus.asset_ids[0] in ctx.assets and ctx.compared_subject is None:
        ctx.compared_subject = ctx.focus.asset_ids[0]  # "the other chillers": set against this one, not among them
    if not ctx.assets and ctx.primary not in ctx.vocab.assetless_intents:
        outside = _outside_coverage(ctx, ctx.understanding.window)
        if outside and needs_telemetry(ctx):
            return stop(ctx, "reject", outside)
        loose = loose_chiller_number(ctx.understanding.text, ctx.vocab, ctx.catalog)
        if loose is None:
            return stop(ctx, "clarify", messages.no_earlier_asset_question(ctx.catalog))
        # (the best reading goes ahead, said as an assumption: a question back would stall the dialog)
        ctx.assets = [loose]
        ctx.note(f"Taking the bare number in your message to mean {loose}.")
    if needs_telemetry(ctx):
        without = [a for a in ctx.assets if a not in ctx.catalog.telemetry_assets]
        if without:
            return _without_telemetry(ctx, without)
    return None


# "that one", "this unit", "it": one chiller pointed at rather than named
_POINTED_ONE = re.compile(r"\b(?:that|this) (?:one|chiller|unit|machine)\b|\b(?:it|its)\b")


def _pointed_beside_named(ctx: PlanContext) -> None:
    """"How many alerts did that one raise in June, and how many did Chiller 6 raise?": one question points at the
    chiller discussed (or picked), the other names another; both are asked about, the pointed one first."""
    named = ctx.understanding.assets.assets
    pointed = ctx.focus.picked or (ctx.focus.asset_ids[0] if len(ctx.focus.asset_ids) == 1 else None)
    if not named or pointed is None or pointed in ctx.assets:
        return
    parts = question_parts(ctx.understanding.text.source)
    for part in parts if len(parts) > 1 else []:
        alone = Text.of(part)
        found = find_assets(alone, ctx.vocab, ctx.catalog)
        pointer = _POINTED_ONE.search(alone.joined)
        if pointer is not None and not found.assets and not found.all_assets:
            ctx.assets = [pointed, *ctx.assets]
            ctx.note(f"Taking \"{pointer.group(0)}\" to mean {pointed}, beside {', '.join(named)}.")
            return


_OTHER_PLURAL = re.compile(r"\bthe other (?:chillers|units|machines|ones)\b")
# "was that one also the worst in June 2020?", "is 9 still the least efficient?": one chiller's place in a ranking.
_RANK_ASKED = re.compile(r"\b(?:the|our) (?:worst|best|least efficient|most efficient|highest|lowest|top)\b"
                         r"(?! (?:one|unit|chiller|machine|of)\b)")


def _ranked_against_the_rest(ctx: PlanContext) -> None:
    """A yes/no about whether one chiller tops a ranking looks at the chillers it is ranked among (the set the
    dialog ranked, else every monitored chiller), the one asked about kept as the subject."""
    text = ctx.understanding.text.joined
    if ctx.request is None or ctx.request.shape != "yes_no" or not (_RANK_ASKED.search(text) or SUBJECT_RANKED.search(
            text)):
        return
    # ("is that the worst in the fleet?": the fleet is what it is ranked among, "that" the chiller discussed)
    pointed = len(ctx.focus.asset_ids) == 1 and not ctx.understanding.assets.assets and ctx.focus.asset_ids[0] in ctx.assets
    if len(ctx.assets) != 1 and not pointed:
        return
    subject = ctx.assets[0] if len(ctx.assets) == 1 else ctx.focus.asset_ids[0]
    records = ctx.primary in ("work_orders", "alerts")  # ("the worst on site for breakdowns": every chiller's records)
    among = ctx.assets if len(ctx.assets) > 1 else ctx.focus.asset_ids if len(ctx.focus.asset_ids) > 1 and not records \
        else fleet_assets(ctx) if records else telemetry_assets(ctx.catalog)
    if subject not in among:
        return
    ctx.assets = [subject, *(a for a in among if a != subject)]
    ctx.compared_subject, ctx.scope = subject, "assets"
    ctx.note(f"Ranking {', '.join(ctx.assets)} to see whether {subject} comes first.")




_PICKED_AMONG = 2  # "which one ...?" with one chiller in focus picks between it and the one discussed before it


def _pick_among_the_discussed(ctx: PlanContext) -> None:
    """"k which 1 actually ran more hrs" after 9's tonnage and then "same for ch6": a comparative pick with nothing
    named and one chiller in focus is between that chiller and the one discussed before it."""
    if ctx.request is None or ctx.request.shape != "which" or not ctx.request.comparative \
            or ctx.understanding.assets.assets or ctx.understanding.failure_modes or ctx.scope == "fleet" \
            or len(ctx.assets) != 1 or ctx.assets != ctx.focus.asset_ids:
        return
    discussed = [a for a in ctx.focus.discussed if ctx.catalog.has_telemetry(a) or not needs_telemetry(ctx)]
    among = list(dict.fromkeys([ctx.assets[0], *discussed]))[:_PICKED_AMONG]
    if len(among) < _PICKED_AMONG:
        return
    ctx.assets, ctx.scope = among, "assets"
    ctx.note(f"Picking between {' and '.join(among)}, the chillers discussed.")


def _same_pick_in_another_period(ctx: PlanContext) -> None:
    """Whether the one the last answer picked tops the same listing over the period named now: every chiller that
    pick was made among is read again (the picked one kept as the subject), not the picked one alone."""
    picked, among = ctx.focus.picked, ctx.focus.ranked
    if ctx.request is None or ctx.request.shape != "yes_no" or picked is None or len(among) < 2 \
            or picked not in among or not SAME_ONE.search(ctx.understanding.text.joined) \
            or not ctx.understanding.periods.mentions or set(ctx.assets) - {picked}:
        return
    known = [a for a in ctx.focus.asset_ids if a in among] or list(among)
    ctx.assets = [picked, *(a for a in known if a != picked)]
    ctx.compared_subject, ctx.scope = picked, "assets"
    ctx.note(f"Reading {', '.join(ctx.assets)} again over the new period to see whether {picked} still comes first.")


# Requests that only look at a chiller (its readings by default): on a chiller without telemetry, its records.
_OVERVIEW_INTENTS = frozenset({"history", "investigate"})
_ASKS_ABILITY = re.compile(r"(?:\w+ )?(?:can|could|would) (?:you|u|i|we) (?:\w+ )?(?:show|see|get|give|pull|plot|have)\b")
_READINGS_NAMED = re.compile(r"\b(?:telemetry|sensor data|sensors|readings?|measurements?)\b")


# "ch2 has no sensors right?", "there's no telemetry on 13, is there?": the absence stated, held up for checking
_SAYS_NONE = re.compile(r"\b(?:no|not|without|doesn't|doesnt|does not|don't|dont|do not|lacks?|lacking|never)\b"
                        r"(?: [\w']+){0,3}? (?:sensors?|telemetry|sensor data|trend data|data feeds?|readings|bms)\b")


def _without_telemetry(ctx: PlanContext, without: list[str]) -> Decision | None:
    """Telemetry asked of chillers that have none: the others go ahead without them (said so); when none
    has telemetry, a look at them shows their work orders and alerts, and a reading asked by name gets an
    answer that says there is none and what exists instead (not another question's answer)."""
    kept = [a for a in ctx.assets if a not in without]
    subject = " and ".join(without)
    # ("the units we have no sensor data for, how did they do?": the sensor words pick the units, they name no reading)
    describes_units = telemetry_subset(ctx.understanding.text.joined) == "no_telemetry"
    named = bool(ctx.understanding.sensors.canonical or ctx.understanding.sensors.all_sensors
                 or (_READINGS_NAMED.search(ctx.understanding.text.joined) and not describes_units))
    carried = ctx.focus.last_intent is not None and not ctx.understanding.intents and not named
    # "what've you got on chiller 13?": a look at the chiller, no reading named; what it has is its records
    overview = not named and set(ctx.intents) <= _OVERVIEW_INTENTS
    if not kept and (carried or overview):  # "do the same for Chiller 7": the request was the last one
        ctx.note(f"{subject} {'has' if len(without) == 1 else 'have'} no telemetry (work orders only): showing "
                 "the work orders and alerts instead.")
        ctx.intents = ["work_orders", "alerts"]
        return None
    if not kept:
        text = messages.no_telemetry_text(without, ctx.catalog)
        # "does 13 have any sensor data?" asks whether there is any: that is answered (no), not refused
        # "does 13 have any sensor data?", "can you show me its kw/ton?" ask whether it can be had: no, with
        # what exists; "show me its condenser temps" is answered the same way, what exists being the answer
        # (a chiller without sensors is a fact about the site, not bad input)
        asks_if = ctx.request is not None and ctx.request.shape == "yes_no"
        if asks_if and _SAYS_NONE.search(ctx.understanding.text.joined):
            return _answered_keeping_period(ctx, f"Right, {text}")  # "ch2 has no sensors, right?": the user said so
        if asks_if or _ASKS_ABILITY.match(ctx.understanding.text.joined):
            return _answered_keeping_period(ctx, f"No, {text}")
        return _answered_keeping_period(ctx, text)
    ctx.note(f"{subject} {'has' if len(without) == 1 else 'have'} no telemetry (work orders only): "
             "left out of this analysis.")
    ctx.assets = kept
    return None


STALE_FOR_NOW_DAYS = 120  # a period that ended this long before today is history, not "now"


def _stale_for_now(ctx: PlanContext, window: TimeWindow) -> bool:
    """The question asks about the chiller's state now and the period discussed ended long before today."""
    today = cal.at_midnight(ctx.reference_date, ctx.catalog.zone)
    return today - window.end >= timedelta(days=STALE_FOR_NOW_DAYS) and asks_about_now(ctx.understanding.text.joined)


def _default_window(ctx: PlanContext) -> TimeWindow:
    days = int(ctx.default(DEFAULT_DAYS_KEY.get(ctx.primary, "history_days")))  # type: ignore[call-overload]
    if ctx.primary == "investigate" and is_trip(ctx):
        before = int(ctx.default("trip_days_before"))  # type: ignore[call-overload]
        span = cal.window(ctx.reference_date - timedelta(days=before), ctx.reference_date + timedelta(days=1),
                          "the trip day and the day before", ctx.catalog.zone)
        ctx.note(f"Window: {span.label} ({span.start.date()} to {ctx.reference_date}), site time.")
        return span
    span = cal.window(ctx.reference_date - timedelta(days=days), ctx.reference_date, f"last {days} days", ctx.catalog.zone)
    ctx.note(f"No period given: using the {days} days before {ctx.reference_date.isoformat()}.")
    return span


def is_trip(ctx: PlanContext) -> bool:
    """True when the message is about a trip / shutdown event ("which alert rules has it tripped?" is about rules
    that fired, not a stop)."""
    if RULES_TRIPPED.search(ctx.understanding.text.joined):
        return False
    return any(ctx.understanding.text.contains(word) for word in ctx.vocab.trip_words)


RULES_TRIPPED = re.compile(r"\b(?:rules?|alerts?|alarms?)\b.*\btripp?(?:ed|ing|s)?\b|\btripp?(?:ed|ing|s)? (?:the |any |an? |its )?"
                            r"(?:\w+ )?(?:rules?|alerts?|alarms?)\b")


def _outside_coverage(ctx: PlanContext, window: TimeWindow | None) -> str:
    """The refusal text for a window with no telemetry at all, or "" when it has some."""
    if window is None:
        return ""
    if window.end <= cal.at_midnight(_first_day(ctx), ctx.catalog.zone) or window.start >= cal.at_midnight(
            _end_day(ctx), ctx.catalog.zone):
        return messages.outside_coverage_text(window.label or messages.coverage_text(ctx.catalog), ctx.catalog)
    return ""


def _check_telemetry_window(ctx: PlanContext, window: TimeWindow) -> Decision | TimeWindow:
    start = cal.at_midnight(_first_day(ctx), ctx.catalog.zone)
    end = cal.at_midnight(_end_day(ctx), ctx.catalog.zone)
    today_end = cal.at_midnight(ctx.reference_date + timedelta(days=1), ctx.catalog.zone)
    outside = _outside_coverage(ctx, window)
    if outside:
        return stop(ctx, "reject", outside)
    if window.start >= today_end and ctx.primary != "forecast":
        return stop(ctx, "reject", messages.future_period_text(window.label, ctx.reference_date, True))
    clipped = TimeWindow(max(window.start, start), min(window.end, end, today_end), window.label)
    if clipped.start >= clipped.end:  # only a forecast may look past the reference date
        return stop(ctx, "reject", messages.future_period_text(window.label, ctx.reference_date, True))
    if (clipped.start, clipped.end) != (window.start, window.end):
        ctx.note(f"{window.label} clipped to the recorded data: {clipped.start.date()} to "
                 f"{(clipped.end - timedelta(days=1)).date()}.")
    return clipped


def _asks_recent(ctx: PlanContext) -> bool:
    """"any open or recent work orders?": a work-order / alert question about the last few months."""
    if ctx.primary not in ("work_orders", "alerts", "alert_to_failure"):
        return False
    if ctx.focus.listed and WHEN_OF_THOSE.search(ctx.understanding.text.joined):
        return False  # "when was the latest of those?": of the records listed, over their period
    if last_done_job(ctx.understanding.text, ctx.vocab):
        return False  # "what was its most recent corrective job?": the latest on record, however long ago
    return any(ctx.understanding.text.contains(word) for word in ctx.vocab.recent_words)


# "has it gotten worse every year?", "year on year", "over the years": a trend across all the years.
OVER_THE_YEARS = re.compile(r"\b(?:every|each|per|a) year\b|\byear (?:on|over|after|to) year\b|\bover the years\b|"
                            r"\b(?:yearly|annually|annual)\b")


_THAN = re.compile(r"\b(?:than|versus|vs|against|compared? (?:\w+ ){0,3}?(?:to|with))\b|" + UP_OR_DOWN_ON.pattern)


def _only_compared_against(ctx: PlanContext) -> bool:
    """Every period the message names comes after its comparing word, and no chiller does ("more than last
    year?")."""
    if ctx.request is None or not ctx.request.comparative:
        return False
    text = ctx.understanding.text.joined
    cut = _THAN.search(text)
    dated = [m for m in ctx.understanding.periods.mentions if m.window is not None]
    if cut is None or not dated or not all(m.start >= cut.end() for m in dated):
        return False
    # "more than chiller 2 last year?" compares two chillers over that period: it is the period asked
    return not any(asset.lower() in text[cut.end():] for asset in ctx.understanding.assets.assets)


_EVER = re.compile(r"\b(?:ever|at any point|at any time|in its (?:whole )?(?:life|history))\b|"
                   r"\bwhen\b.*\blast\b(?! (?:week|month|year|quarter|summer|winter|spring|fall|autumn|night)\b)|"
                   r"\blast time\b|\bmost recent\b|"  # "when did it last log ...?": the latest, wherever it was
                   # "has 6 had that one before?": at any time before (a bare "before" closing the question)
                   r"\b(?:had|seen|got|logged|thrown|had one|happened|come up)\b(?: \w+){0,3}? before\s*\??$")


# "was there a calibration work order on it around then?": the job asked about in the period discussed
_AROUND_THEN = re.compile(r"\b(?:around|about|at|by|near) (?:then|that time|the time)\b|\bback then\b|"
                          r"\bat that point\b|\bthat (?:month|week|year|time|period|quarter|summer|winter)\b")
_AROUND = re.compile(r"\b(?:around|about|near) (?:then|that time|the time)\b")
_AROUND_MARGIN = timedelta(days=31)
# "has it been cleaned yet?": since the trouble discussed, not the whole history
_YET = re.compile(r"\byet\b|\bso far\b")
_LAST_RAN_LOOKBACK = timedelta(days=365)  # how far back "when did it last run?" looks


# "this time it's fouling": the occurrence now, against an earlier one (not "this time last year", a period of its own)
_THIS_TIME = re.compile(r"\bthis time\b(?! (?:last|a year|one year|the year|of|around|next|yesterday|tomorrow)\b)")


# "how many did it log that year?" after "summer 2016": the year of the period said, not the period
_THAT_YEAR = re.compile(r"\b(?:that|the same) year\b(?!'s| before| after| earlier| later| ago)")


# "in July and August of that year": the months named, in the year discussed (not the whole year)
_MONTHS_OF_THAT_YEAR = re.compile(rf"\b{MONTH_WORD}\s+(?:of|in)\s+(?:that|the same) year\b")


def _that_whole_year(ctx: PlanContext) -> None:
    window = ctx.window
    text = ctx.understanding.text.joined
    if window is None or not _THAT_YEAR.search(text) or _MONTHS_OF_THAT_YEAR.search(text):
        return
    year = window.start.year
    if (window.end - timedelta(microseconds=1)).year != year or window.end - window.start >= timedelta(days=300):
        return
    today_end = cal.at_midnight(ctx.reference_date + timedelta(days=1), ctx.catalog.zone)
    start = cal.at_midnight(date(year, 1, 1), ctx.catalog.zone)
    ctx.window = TimeWindow(start, min(cal.at_midnight(date(year + 1, 1, 1), ctx.catalog.zone), today_end), str(year))
    ctx.window_explicit = True
    ctx.note(f"'That year' read as the whole of {year}.")


# "did that one fire last summer too?", "was it like that in 2019 as well?": the same thing checked in an earlier period,
# while the dialog stays on its own ("so what's causing it?" is about the period it was on)
_TOO = re.compile(r"\b(?:too|as well|either)\W*$")


def _checked_too(ctx: PlanContext, window: TimeWindow | None) -> bool:
    focus = ctx.focus.window
    return focus is not None and window is not None and window.end <= focus.start \
        and bool(_TOO.search(ctx.understanding.text.joined))


def _span_of_a_trend(ctx: PlanContext) -> PeriodMention | None:
    """"Has its corrective count been climbing every year since 2017, or was 2019 a one-off?": a change over time asked
    since a point is asked over that whole span; the year inside it is one of its parts, not the period asked."""
    spans = [m for m in ctx.understanding.periods.mentions if m.window is not None and m.window.label.startswith("since ")]
    if len(spans) != 1 or not asks_change_over_time(ctx.understanding.text.joined):
        return None
    span = spans[0].window
    assert span is not None
    inside = [m for m in ctx.understanding.periods.mentions if m is not spans[0] and m.window is not None]
    return spans[0] if inside and all(span.start <= m.window.start and m.window.end <= span.end  # type: ignore[union-attr]
                                      for m in inside) else None


def impossible_period(ctx: PlanContext) -> Decision | None:
    """"power trend for 2020-09-31", "Q5 2020": the only period given does not exist. Said before anything
    about the assets (a unit without telemetry included), since the date is what the user must correct."""
    periods = ctx.understanding.periods
    if periods.problems and not periods.mentions:
        return stop(ctx, "reject", " ".join(periods.problems) + " Please give the date again, e.g. 2021-06-14.")
    return None


def resolve_window(ctx: PlanContext) -> Decision | None:
    """Pick the turn's window: the message's period, else the focus window, else the intent's default."""
    periods = ctx.understanding.periods
    decision = impossible_period(ctx)
    if decision is not None:
        return decision
    if periods.invalid_dates:  # "from 2020-02-31 to 2020-03-07": the rest alone is not what was asked
        return stop(ctx, "clarify", messages.invalid_date_question(periods.invalid_dates))
    ctx.note(*periods.problems)
    mention = _span_of_a_trend(ctx) or periods.asked
    if _THIS_TIME.search(ctx.understanding.text.joined) and ctx.focus.window is not None \
            and ctx.focus.earlier_window is not None and all(m.kind == "focus" for m in periods.mentions):
        # "so this time it's fouling, not flow": of the two periods the dialog set side by side, the latest
        ctx.window = max((ctx.focus.window, ctx.focus.earlier_window), key=lambda w: w.start)
        ctx.note(f"'This time' read as {ctx.window.label}, the later of the two periods discussed.")
    elif mention is not None:
        ctx.window, ctx.window_explicit = mention.window, True
        # "is that more than last year?": last year is what the discussed period is measured against; the
        # dialog stays on its own period ("could some of those have been bundled?" is about this year's)
        ctx.against_focus = ctx.focus.window is not None and _only_compared_against(ctx)
        ctx.window_is_aside = ctx.against_focus or _checked_too(ctx, mention.window)
    elif _asks_recent(ctx):
        days = int(ctx.default("recent_days"))  # type: ignore[call-overload]
        ctx.window = cal.window(ctx.reference_date - timedelta(days=days), ctx.reference_date,
                                f"last {days} days", ctx.catalog.zone)
        ctx.note(f"'Recent' read as the {days} days before {ctx.reference_date.isoformat()}.")
        ctx.window_is_aside = ctx.focus.window is not None
    elif (set(ctx.intents) <= WHOLE_HISTORY_INTENTS and ctx.focus.window is not None
          and ctx.focus.earlier_window is not None and names_both_periods(ctx.understanding.text.joined)):
        earlier, later = sorted((ctx.focus.earlier_window, ctx.focus.window), key=lambda w: w.start)
        # "what kept coming back across those two years?": the records of both, as one span
        ctx.window = TimeWindow(earlier.start, max(earlier.end, later.end), f"{earlier.label} and {later.label}")
        ctx.window_explicit = True
    elif is_trip(ctx) and wants_telemetry(ctx) and _EVER.search(ctx.understanding.text.joined) \
            and ctx.catalog.first_day is not None:
        # "has chiller 3 ever tripped?", "when did it last trip?": a trip leaves dark sensors behind it, so the
        # whole telemetry record can be searched for one, and the latest is the answer
        ctx.window = cal.window(ctx.catalog.first_day, ctx.reference_date + timedelta(days=1),
                                "the whole record", ctx.catalog.zone)
        ctx.window_is_aside = ctx.focus.window is not None
        ctx.note(f"'Ever' or 'when ... last' for a trip: the whole telemetry record, from {ctx.catalog.first_day}.")
    elif LAST_RAN.search(ctx.understanding.text.joined) and wants_telemetry(ctx):
        # "when did it last run?": far enough back to find it, up to today
        ctx.window = cal.window(ctx.reference_date - _LAST_RAN_LOOKBACK, ctx.reference_date + timedelta(days=1),
                                f"the year to {ctx.reference_date.isoformat()}", ctx.catalog.zone)
        ctx.window_is_aside = ctx.focus.window is not None
    elif set(ctx.intents) <= WHOLE_HISTORY_INTENTS and OVER_THE_YEARS.search(ctx.understanding.text.joined):
        ctx.window, ctx.window_is_aside = None, ctx.focus.window is not None  # "worse every year?": all years
        ctx.note("Year over year: the whole work-order history.")
    elif set(ctx.intents) <= WHOLE_HISTORY_INTENTS and ctx.focus.window is not None \
            and _AROUND.search(ctx.understanding.text.joined):
        # "any WOs on it around then?": the records a month either side of the period discussed
        focus = ctx.focus.window
        ctx.window = TimeWindow(focus.start - _AROUND_MARGIN, min(focus.end + _AROUND_MARGIN, cal.at_midnight(
            ctx.reference_date + timedelta(days=1), ctx.catalog.zone)), f"around {focus.label}")
        ctx.note(f"'Around then' read as a month either side of {focus.label}.")
    elif set(ctx.intents) <= WHOLE_HISTORY_INTENTS and ctx.focus.window is not None \
            and last_done_job(ctx.understanding.text, ctx.vocab) and _YET.search(ctx.understanding.text.joined):
        # "has either of them been topped up yet?": done since the period discussed began, up to today
        ctx.window = TimeWindow(ctx.focus.window.start, cal.at_midnight(ctx.reference_date + timedelta(days=1),
                                                                        ctx.catalog.zone),
                                f"since {ctx.focus.window.label}")
        ctx.note(f"'Yet' read as since {ctx.focus.window.label}, the period discussed.")
    elif set(ctx.intents) <= WHOLE_HISTORY_INTENTS and last_done_job(ctx.understanding.text, ctx.vocab) \
            and not (ctx.focus.window is not None and _AROUND_THEN.search(ctx.understanding.text.joined)):
        ctx.window, ctx.window_is_aside = None, ctx.focus.window is not None  # "when was it last cleaned?"
        ctx.note("The last time a job was done: the whole work-order history.")
    elif set(ctx.intents) <= WHOLE_HISTORY_INTENTS and _EVER.search(ctx.understanding.text.joined):
        ctx.window, ctx.window_is_aside = None, ctx.focus.window is not None  # "has it ever had that alert?"
        ctx.note("'Ever' or 'when ... last': the whole record history.")
    elif ctx.primary == "diagnose" and ctx.focus.last_intent == "compare" and len(ctx.focus.asset_ids) == 1 \
            and ctx.focus.window is not None and ctx.focus.earlier_window is not None \
            and ctx.focus.earlier_window != ctx.focus.window:
        # "what would explain the jump?" right after one chiller's reading over two periods: the change shows in
        # the later of the two, so that is the period diagnosed (not whichever was named last)
        ctx.window = max((ctx.focus.earlier_window, ctx.focus.window), key=lambda w: w.start)
        ctx.note(f"The cause of the change between the two periods is looked for in the later one, {ctx.window.label}.")
    elif ctx.focus.window is not None and wants_telemetry(ctx) and _stale_for_now(ctx, ctx.focus.window):
        # "is its evaporator fouling up?" after counts over the same stretch last year: the state now
        ctx.window = _default_window(ctx)
        ctx.note(f"Asked in the present tense: the recent days, not {ctx.focus.window.label} discussed before.")
    elif ctx.focus.window is not None and (not set(ctx.intents) <= WHOLE_HISTORY_INTENTS
                                          or ctx.focus.last_intent in WHOLE_HISTORY_INTENTS
                                          or ctx.focus.window_named):  # "repair jobs for it?" in the period named
        ctx.window = ctx.focus.window
    elif wants_telemetry(ctx):
        ctx.window = _default_window(ctx)
    _that_whole_year(ctx)
    if ctx.window is None or ctx.primary in ("forecast", "draft_wo"):
        return None  # a forecast checks its own context window; an order drafted may be for a day ahead
    if wants_telemetry(ctx):
        checked = _check_telemetry_window(ctx, ctx.window)
        if isinstance(checked, Decision):
            return checked
        ctx.window = checked
    elif ctx.window.start >= cal.at_midnight(ctx.reference_date + timedelta(days=1), ctx.catalog.zone):
        return stop(ctx, "reject", messages.future_period_text(ctx.window.label, ctx.reference_date, False))
    return None


# "is that the sensor ...?", "is it just the probe?": the instrument of the reading under discussion is doubted.
_THAT_SENSOR = re.compile(r"\b(?:is|was|could) (?:that|this|it)(?: be)? (?:just |only |really )?(?:be )?(?:the |a |its |bad |"
                          r"faulty )*"
                          r"(?:sensor|probe|transmitter|instrument(?:ation)?|gauge)s?\b")


# "what was it averaging ...?", "how has that been running?": the reading discussed, by a pronoun
_THE_READING = re.compile(r"\b(?:it|that|that one|this one)\b")


def resolve_sensors(ctx: PlanContext) -> None:
    """The turn's canonical sensors: named ones, else the focus's (names without the asset prefix)."""
    named = ctx.understanding.sensors.canonical
    if ctx.primary == "sensor_validity" and ctx.focus.sensors and _THAT_SENSOR.search(ctx.understanding.text.joined):
        # "is that the sensor, or is the building load different?": the reading just discussed is the one doubted,
        # whatever the other side of the question names
        named = list(dict.fromkeys(canonical_of(s) for s in ctx.focus.sensors))
    parts = question_parts(ctx.understanding.text.joined)
    if named and ctx.focus.sensors and len(parts) > 1 and _THE_READING.search(parts[0]) \
            and not find_sensors(Text.of(parts[0]), ctx.vocab).canonical:
        # "what was it averaging in August vs last August? and supply temp, same months": "it" is the reading
        # discussed, the other part adds one
        named = list(dict.fromkeys([*(canonical_of(s) for s in ctx.focus.sensors), *named]))
    if named and HOLDS_SETPOINT.search(ctx.understanding.text.joined):
        # "is 6 holding its chilled water setpoint?": the supply is what holds it, against the setpoint
        named = list(dict.fromkeys(["Supply Temperature", "Setpoint Temperature", *named]))
    if named:
        ctx.canonical_sensors, ctx.sensors_explicit = list(named), True
    elif ctx.understanding.sensors.all_sensors:
        ctx.canonical_sensors, ctx.sensors_explicit = [], True
    else:
        ctx.canonical_sensors = list(dict.fromkeys(canonical_of(s) for s in ctx.focus.sensors))
