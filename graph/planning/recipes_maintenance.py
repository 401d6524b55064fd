"""Recipes for maintenance planning: work-order history, bundling, next work order, alerts, drafts,
restart and validation, fix plans and the management report."""

from __future__ import annotations

import itertools
import re

from assetops.domain.turn import TimeWindow
from graph.planning.artifacts import (
    drifting_sensors,
    fired_rule_ids_from,
    hypotheses_from,
    latest,
    rule_ids_from,
)
from graph.planning.asked_rules import asked_rules
from graph.planning.builder import PlanBuilder, describe_window
from graph.planning.context import PlanContext, Stop
from graph.planning.recipes_failure import diagnose_asset
from graph.planning.recipes_telemetry import detect
from graph.understanding import calendar_math as cal
from graph.understanding.request import (
    COUNT_A_PERIOD,
    EACH_OF_THE_PERIODS,
    asks_difference,
    asks_every_kind,
    described_work,
    named_job,
    names_both_periods,
    request_sentences,
    stated_priority,
)
from graph.understanding.sensors import canonical_of
from graph.understanding.text import Text, phrase_tokens
from graph.understanding.vocabulary import Vocabulary

SENSOR_INTENTS = ("sensor_health", "sensor_validity")


def _per_asset(ctx: PlanContext, plan: PlanBuilder, action: str, goal: str, *, window: TimeWindow | None = None,
               **params: object) -> list[int]:
    """One task per chiller over `window` (default: the turn's)."""
    span = window or ctx.window
    return [plan.add("maintenance", action, asset_ids=[asset], equipment_ids=ctx.equipment_ids([asset]),
                     window=span, params=dict(params), goal=f"{goal} for {asset}") for asset in ctx.assets]


def _breakdown_tokens(text: Text, vocab: Vocabulary) -> set[int]:
    """Token positions inside "by failure code"-like phrases (a split of a listing, not a kind of order)."""
    covered: set[int] = set()
    for phrase in vocab.work_order_breakdowns:
        size = len(phrase_tokens(phrase))
        for start in text.positions(phrase):
            covered.update(range(start, start + size))
    return covered


# "leave out the preventive ones", "excluding PMs", "not the corrective ones": the kind named is the one
# NOT wanted.
_EXCLUDING = re.compile(r"\b(?:leave out|leaving out|exclud\w*|except|without|skip\w*|ignor\w*|not|no|minus|"
                        r"other than|drop|apart from|besides|filter out|forget)\b")


# "forget that. how many preventive ...": a verb of leaving out whose object is the last request (a pronoun)
# dismisses that request; it leaves out nothing of this one.
_DISMISSAL = re.compile(r"\b(?:forget|drop|skip|ignore|scratch) (?:that|this|it)\b")


def _excluded(text: Text, start: int) -> bool:
    before = " ".join(text.tokens[max(0, start - 4):start])
    return bool(_EXCLUDING.search(_DISMISSAL.sub(" ", before)))


def _names_kind(text: Text, words: tuple[str, ...], ignored: set[int], *, excluded: bool = False) -> bool:
    """True when one of the kind `words` occurs outside the `ignored` token positions (`excluded`: only
    where it is named as left out, else only where it is not)."""
    for phrase in words:
        size = len(phrase_tokens(phrase))
        if any(not set(range(start, start + size)) <= ignored and _excluded(text, start) == excluded
               for start in text.positions(phrase)):
            return True
    return False


def _earlier_kind(ctx: PlanContext) -> str | None:
    """The kind ("corrective" / "preventive") of the latest work-order summary, when it had one."""
    earlier = latest(ctx.artifacts, "maintenance", ("wo_summary",))
    kind = str(earlier.key_results.get("kind", "all")) if earlier is not None else "all"
    return kind if kind in ("corrective", "preventive") else None


_ELLIPTICAL_TOKENS = 4
# A kind named as an addition: "PMs included", "including the preventive ones", "corrective too", "as well".
_KIND_ADDED = re.compile(r"\b(?:maintenance|orders?|ones|jobs|work|repairs) (?:included|too|as well)\b|"
                         r"\b(?:including|incl|plus)\b|"
                         # "how many work orders, and how many of them were corrective?": the kind as a part of all
                         r"\bhow many of (?:them|those|these)\b|\bof which\b|"
                         # "totals and how many were corrective", "what share was preventive": the kind as a
                         # predicate of the whole
                         r"\bhow many (?:\w+ )?(?:were|was|are|got) (?:corrective|preventive|preventative|pms?|planned|"
                         r"reactive|repairs?|breakdowns?)\b|\b(?:share|fraction|percentage|proportion|ratio|split)\b")


# Preventive work as the thing to hand out, not the records asked for: "give the extra PM attention to",
# "schedule more PMs on", "which one deserves more preventive maintenance".
# A verb of handing out or a modal of advice says so; "which chiller had more PMs?" counts the PMs themselves.
_PM_AS_ACTION = re.compile(r"\b(?:give|giving|put|putting|add|adding|schedule|scheduling|plan|planning|deserve\w*|"
                           r"need\w*|focus\w*|spend|prioriti[sz]e\w*|should|would|ought)\b")


_ANY_WORK = re.compile(r"\b(?:what|any|all the|which) work\b|\bwork (?:was |had been |has been )?done\b")


def work_order_kind(ctx: PlanContext) -> str:
    """"corrective", "preventive" or "all", from the words of the message.

    A follow-up that names no kind ("how does chiller 4 compare over the same years?", "break that
    down by failure code") keeps the kind of the work-order summary it follows.
    """
    text, kinds = ctx.understanding.text, ctx.vocab.work_order_kinds
    breakdown = _breakdown_tokens(text, ctx.vocab)
    corrective = _names_kind(text, kinds["corrective"], breakdown)
    preventive = _names_kind(text, kinds["preventive"], breakdown)
    if not corrective and not preventive:  # "leave out the preventive ones": the other kind
        corrective = _names_kind(text, kinds["preventive"], breakdown, excluded=True)
        preventive = _names_kind(text, kinds["corrective"], breakdown, excluded=True)
    if (corrective or preventive) and _KIND_ADDED.search(text.joined):
        return "all"  # "what work orders got closed out, PMs included": the named kind as well as the rest
    if preventive and not corrective and ctx.request is not None and ctx.request.shape == "which" \
            and _PM_AS_ACTION.search(text.joined):
        return "corrective"  # "which would you give the extra PM attention to?": the PMs go where things break
    if corrective != preventive:
        return "corrective" if corrective else "preventive"
    if _ANY_WORK.search(text.joined) or asks_every_kind(text.joined):
        return "all"  # "what work had we done on it?", "all types": every order, whatever kind the last listing was
    earlier = _earlier_kind(ctx)
    elliptical = len(text.tokens) <= _ELLIPTICAL_TOKENS  # "vs ch4", "and 2019?": the same listing, another subject
    # ("is that more than last year?" compares the same listing over another period)
    # ("which one had the most?" picks from the same listing)
    comparing = ctx.request is not None and (ctx.request.comparative or ctx.request.shape == "which")
    same_period = any(m.kind == "focus" for m in ctx.understanding.periods.mentions)  # "over the same stretch"
    follows_up = elliptical or same_period or ctx.understanding.references or "compare" in ctx.understanding.intents or comparing or (
        breakdown and not ctx.understanding.assets.assets)
    if follows_up and not (corrective or preventive) and earlier is not None:
        return earlier
    if not preventive and breakdown and _names_kind(text, kinds["corrective"], set()):
        return "corrective"  # "work orders by failure code" with no listing to follow: codes are the repairs'
    return "all"


def work_orders(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Work-order history and failure-code distribution per chiller (in parallel)."""
    if ctx.window is None:
        ctx.note("No period given: using the whole work-order history.")
    kind = work_order_kind(ctx)
    for window in _compared_windows(ctx, counts_years=True):
        _per_asset(ctx, plan, "wo_summary", f"{kind} work orders, {describe_window(window)}", window=window,
                   kind=kind, distribution=True)
    return None


# "may and june, separately", "month by month", "for each month": the span's months one by one; "each
# quarter of 2020", "quarterly", "year by year": its quarters or years.
_EACH = re.compile(r"\b(?:each|every|per|by) (?:calendar )?(month|quarter|year)\b|\b(month|quarter|year) by \2\b|"
                   # ("for the quarterly review": the occasion's adjective, not a split)
                   r"\b(month|quarter|year)ly\b(?! (?:ops |energy |reliability |maintenance )?(?:review|report|meeting|"
                   r"update|pack|summary|call|deck|numbers|figures|kpis?|audit)\b)|"
                   rf"{COUNT_A_PERIOD}|{EACH_OF_THE_PERIODS}|"
                   # "which quarter of last year was the heaviest?": the span's quarters, to pick one (months are
                   # picked from one listing's monthly counts)
                   r"\bwhich (quarter|year)\b|"
                   # ("broken down by rule", "split that one's by rule" split by rule, which a listing does anyway:
                   # no split by time)
                   r"\b(?:separately|individually|respectively|for each|(?:broken (?:out|down)|split)"
                   r"(?!(?: [\w']+){0,3}? (?:out |up )?by (?!(?:calendar )?(?:month|quarter|year))))\b")
_MONTHS_SPLIT = 6
_UNIT_MONTHS = {"month": 1, "quarter": 3, "year": 12}


_HOW_MANY = re.compile(r"\bhow many\b|\bcount\b|\bnumber of\b")


def split_unit(text: str) -> str | None:
    """The calendar unit a request splits its span by ("each quarter" -> quarter; "separately" -> month),
    None when it asks for no split."""
    asked = _EACH.search(text)
    if asked is None:
        return None
    return next((unit for unit in asked.groups() if unit), "month")


def _months_of(window: TimeWindow, unit: str = "month") -> list[TimeWindow]:
    """The calendar months (quarters, years) a window of whole ones covers (empty when it does not start on one)."""
    start = window.start
    step = _UNIT_MONTHS[unit]
    if start.day != 1 or start.hour or start.minute or (start.month - 1) % step:
        return []
    months: list[TimeWindow] = []
    first = start.date()
    while True:
        label = {"month": f"{first:%B %Y}", "quarter": f"Q{(first.month - 1) // 3 + 1} {first.year}",
                 "year": f"{first.year}"}[unit]
        part = cal.months_window(first.year, first.month, step, label, start.tzinfo)  # type: ignore[arg-type]
        if part.start >= window.end:
            return months
        if part.end > window.end:  # "year by year since 2017" on 1 July 2021: 2021 so far is the last part
            return [*months, TimeWindow(part.start, window.end, f"{label} so far")] if months else months
        months.append(part)
        first = part.end.date()


def _compared_windows(ctx: PlanContext, *, counts_years: bool = False) -> list[TimeWindow | None]:
    """The records' windows: both periods when the message names two apart ("more repair tickets in 2019 or
    in 2020?", "this month than last?"), the focus window before the turn's when the turn compares the two
    ("did it alarm more this time than the year before?"), else the turn's window."""
    named = list({(m.window.start, m.window.end): m.window for m in ctx.understanding.periods.mentions
                  if m.window is not None and m.kind != "future"}.values())  # (a period said twice is one)
    ordered = sorted(named, key=lambda w: w.start)
    if 1 < len(named) <= _MONTHS_SPLIT and all(a.end <= b.start for a, b in itertools.pairwise(ordered)):
        return list(named)  # "for 2018, 2019 and 2020": each period apart, in the order asked
    earlier = ctx.focus.earlier_window
    if (not named and earlier is not None and ctx.window == ctx.focus.window and ctx.window is not None
            and ctx.request is not None and ctx.request.shape == "which" and earlier.end <= ctx.window.start):
        return [earlier, ctx.window]  # "which month was worse?" after May and June: a pick between the two
    span = ctx.focus.window
    again = span is not None and all((w.start, w.end) == (span.start, span.end) for w in named)  # "those years"
    if again and len(ctx.focus.periods) > 2 and (ctx.window == span or "window" in ctx.understanding.references):
        return list(ctx.focus.periods)  # "which of those three years was the worst?": each year listed, again
    text, later = ctx.understanding.text.joined, ctx.focus.window
    fresh = [m for m in ctx.understanding.periods.mentions if m.window is not None and m.kind not in ("future", "focus")]
    if (not fresh and earlier is not None and later is not None and names_both_periods(text)
            and ((ctx.request is not None and ctx.request.comparative) or asks_difference(text) or _HOW_MANY.search(text))):
        # "any difference in alarms between those two junes?", "how many alerts in those 2 months": each of the
        # two periods discussed, side by side ("what kept coming back across those two years?" spans them)
        return [earlier, later] if earlier.start <= later.start else [later, earlier]
    # (the request's own words: "I'm putting together the quarterly review. How many ... in 2020?" asks one count)
    unit = split_unit(Text.of(request_sentences(ctx.understanding.text.source)).joined)
    if unit == "year" and counts_years:
        unit = None  # a work-order summary already counts its orders year by year
    months = _months_of(ctx.window, unit) if ctx.window is not None and unit is not None else []
    if 1 < len(months) <= _MONTHS_SPLIT:  # "in may and june, separately", "each quarter": each part on its own
        return list(months)
    if ctx.against_focus and ctx.focus.window is not None and ctx.focus.window != ctx.window:
        return [ctx.focus.window, ctx.window]
    return [ctx.window]


def bundling(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Corrective orders that could have been one visit."""
    _per_asset(ctx, plan, "bundle", "corrective orders that could share a visit", kind="corrective")
    return None


def predict_next(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """The next likely work order with probabilities."""
    _per_asset(ctx, plan, "predict_next", "next work order probabilities")
    return None


def alerts(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Which alert rules fire and how often (with the alert events of the window); over each period when
    the message compares two ("more frequent this month than last?")."""
    compared = _compared_windows(ctx)
    for span in compared:
        when = f", {describe_window(span)}" if len(compared) > 1 else ""
        _per_asset(ctx, plan, "alert_rules", f"alert rules and how often they fire{when}", window=span,
                   with_events=True, asked_rules=asked_rules(ctx))
    return None


def alert_to_failure(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Whether each rule's alerts lead to maintenance: one task per known rule, all in parallel.

    With no rule known yet, one task per chiller with an empty `rule_ids` (the specialist then
    analyses every rule the chiller has).
    """
    for asset in ctx.assets:
        fired = fired_rule_ids_from(ctx.artifacts, asset)
        rules = ctx.understanding.rule_ids or (fired if fired is not None else
                                               ctx.focus.rule_ids or rule_ids_from(ctx.artifacts, [asset]))
        ids = ctx.equipment_ids([asset])
        if not rules:
            ctx.note(f"The alert rules of {asset} are not known yet: analysing every rule it has.")
        targets: list[str | None] = [*rules] or [None]
        for rule in targets:
            plan.add("maintenance", "alert_to_failure", asset_ids=[asset], equipment_ids=ids, window=ctx.window,
                     params={"rule_id": rule, "rule_ids": [rule] if rule else []},
                     goal=f"do {rule or 'the'} alerts on {asset} lead to maintenance?")
    return None


def _target_mode(ctx: PlanContext, plan: PlanBuilder, asset: str) -> tuple[str | None, list[int]]:
    """The failure mode a work order is for, and the diagnosis it must wait for when none is known."""
    named = ctx.understanding.failure_modes
    if named and "hypothesis" not in ctx.understanding.references:
        return named[0], []
    ranked = list(ctx.focus.hypotheses) or hypotheses_from(ctx.artifacts, [asset])
    if ranked:
        return ranked[0], []
    if ctx.focus.last_intent in SENSOR_INTENTS:
        return None, []
    if named:
        return named[0], []
    # (a job the user describes, "get the CW pump and strainers checked out", needs no diagnosis either)
    names_job = any(ctx.understanding.text.contains(job) for job in ctx.vocab.named_jobs) \
        or described_work(ctx.understanding.text.source) is not None
    if asset in ctx.telemetry_assets and work_order_kind(ctx) != "preventive" and not names_job:
        # "raise a wo for that" before any diagnosis: the order needs a failure mode, so find it first
        ctx.note(f"No diagnosis of {asset} yet: diagnosing first, then drafting for the top hypothesis.")
        return None, [diagnose_asset(ctx, plan, asset)]
    return None, []


def draft_wo(ctx: PlanContext, plan: PlanBuilder, purpose: str | None = None) -> Stop | None:
    """A drafted work order per chiller (the specialist checks open orders for duplicates first); the job
    the user described, if any, goes with it as `work`."""
    # the job described now, else the one the taken offer was about ("should I book an oil analysis?" - "yes")
    job = named_job(ctx.understanding.text.source)
    # ("draft the oil analysis wo": the job named as the kind of order is the work too)
    order_of_the_job = job is not None and re.search(rf"\b{re.escape(job)}\s+(?:wo|w/o|work ?order|ticket|order)s?\b",
                                                     ctx.understanding.text.source, re.I) is not None
    work = described_work(ctx.understanding.text.source) or (job if order_of_the_job else None) \
        or ctx.focus.offered_work
    # sensor work after a sensor check, or asked for by name ("draft a calibration WO for that sensor")
    sensor_work = ctx.focus.last_intent in SENSOR_INTENTS or "calibrat" in (job or work or "")
    for asset in ctx.assets:
        mode, deps = _target_mode(ctx, plan, asset)
        params: dict[str, object] = {"failure_mode": mode, "purpose": purpose or ("calibration" if sensor_work
                                                                                  else "repair"),
                                     "check_duplicates": True}
        if work:
            params["work"] = work
        stated = stated_priority(ctx.understanding.text.joined)
        if stated is not None:  # "raise a WO ..., priority 2"
            params["priority"] = stated
        if sensor_work:
            drifting = drifting_sensors(ctx.artifacts, asset)
            params["sensors"] = [f"{asset} {name}" for name in drifting] or [
                s for s in ctx.focus.sensors if canonical_of(s) in ctx.canonical_sensors] or list(ctx.focus.sensors)
            if mode is None and drifting:  # the order is for the drifting sensors, not a diagnosed fault
                # no colon: the draft's title keeps the text before one
                params["failure_mode"] = f"{', '.join(drifting)} sensor drift (recalibrate the sensor)"
        what = work or params["failure_mode"] or params["purpose"]
        plan.add("maintenance", "draft_wo", asset_ids=[asset], equipment_ids=ctx.equipment_ids([asset]),
                 window=ctx.window, params=params, depends_on=deps, goal=f"draft a work order for {asset}: {what}")
    return None


def restart(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """A safe-restart checklist per chiller."""
    _per_asset(ctx, plan, "restart_checklist", "safe restart checklist", failure_mode=_top(ctx))
    return None


def validation(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """A post-repair validation protocol (sensors, duration, thresholds) per chiller."""
    _per_asset(ctx, plan, "validation_protocol", "post-repair validation protocol", failure_mode=_top(ctx))
    return None


def plan_fix(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """The fix: a drafted work order, then re-baselined monitoring (sensor work) or a validation protocol."""
    draft_wo(ctx, plan)
    if ctx.focus.last_intent in SENSOR_INTENTS:
        _per_asset(ctx, plan, "monitoring_config", "re-baseline monitoring after calibration", rebaseline=True)
    else:
        validation(ctx, plan)
    return None


def _top(ctx: PlanContext) -> str | None:
    ranked = list(ctx.focus.hypotheses) or hypotheses_from(ctx.artifacts, ctx.assets)
    return ranked[0] if ranked else None


def _session_assets(ctx: PlanContext) -> list[str]:
    """Every chiller the session's artifacts are about, in the order they were first looked at."""
    return list(dict.fromkeys(a for art in ctx.artifacts for a in art.asset_ids))


# In "sum it up", "keep it short", "it" is the conversation, not a chiller.
_WEAK_REFERENCES = frozenset({"it", "it's", "on it", "for it", "them", "they", "their"})


def _names_one(ctx: PlanContext) -> bool:
    """The message names a chiller or points at one ("this chiller", "its"): the report is about that one."""
    text = ctx.understanding.text
    pointed = any(text.contains(word) for word in ctx.vocab.references["asset"] if word not in _WEAK_REFERENCES)
    return bool(ctx.understanding.assets.assets) or pointed


# "what's wrong with it?", "what is the problem?", "what's causing it?": the verdict asked includes the cause
_ASKS_WHATS_WRONG = re.compile(r"\bwhat(?:'s| is|s)? (?:wrong|the (?:problem|issue|fault)|causing|behind)\b|"
                               r"\bwhat wrong\b")


def report(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """A management report from the artifacts only; without any, the evidence is gathered first. "Sum it
    up" with no chiller named covers every chiller the session looked at, not only the last one."""
    session = _session_assets(ctx)
    if len(session) > 1 and not _names_one(ctx):
        ctx.assets = session
    relevant = [a.id for a in ctx.artifacts if not ctx.assets or set(a.asset_ids) & set(ctx.assets)
                or not a.asset_ids]
    deps: list[int] = []
    if not relevant:
        if not ctx.assets:
            return Stop("clarify", "There is nothing to report yet: no chiller has been analysed in this "
                                   "conversation. Which chiller and period should the report cover?")
        ctx.note("Nothing analysed yet in this conversation: gathering the evidence before the report.")
        for asset in ctx.telemetry_assets:
            if ctx.window is not None:
                deps.append(detect(ctx, plan, asset, ctx.window, list(ctx.default("investigate_sensors"))))  # type: ignore[call-overload]
        deps.extend(_per_asset(ctx, plan, "wo_summary", "work orders", kind="all", distribution=True))
        # (what alarmed belongs in a summary for a manager as much as the work done)
        deps.extend(_per_asset(ctx, plan, "alert_rules", "alert rules and how often they fire", with_events=True))
    elif _ASKS_WHATS_WRONG.search(ctx.understanding.text.joined) and ctx.window is not None:
        # "give me the verdict: what's wrong with it and what do we do?" after alerts and readings, no diagnosis yet:
        # the diagnosis says what is wrong, the report sums it up with the rest
        # (on the diagnosis's own sensors: the reading last asked about is one clue, not the evidence)
        asked, ctx.canonical_sensors = ctx.canonical_sensors, []
        for asset in ctx.telemetry_assets:
            if latest(ctx.artifacts, "failure", ("diagnose",), asset) is None:
                deps.append(diagnose_asset(ctx, plan, asset))
        ctx.canonical_sensors = asked
    plan.add("maintenance", "report", asset_ids=list(ctx.assets), equipment_ids=ctx.equipment_ids(),
             window=ctx.window, params={"artifact_ids": relevant}, depends_on=deps,
             goal=f"management report on {', '.join(ctx.assets) or 'the findings'} from the artifacts")
    return None
