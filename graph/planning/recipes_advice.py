"""Recipes for questions that want judgement rather than a listing: a recommendation, a procedure,
a lifecycle call, a watch going forward, the verdict so far, and a ranking across the site.

None of them writes: a recommendation offers the write ("say 'draft it'") and the planner keeps the
offer in the focus, so the user's "yes" drafts it on the next turn.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from assetops.domain.turn import TimeWindow
from graph.planning.artifacts import hypotheses_from, latest
from graph.planning.builder import PlanBuilder, describe_window
from graph.planning.context import PlanContext, Stop
from graph.planning.recipes_failure import diagnose_asset
from graph.planning.recipes_maintenance import SENSOR_INTENTS, report, validation
from graph.planning.recipes_models import thresholds
from graph.planning.recipes_telemetry import analysis_names, detect
from graph.understanding import calendar_math as cal
from graph.understanding.last_done import job_stems, names_job
from graph.understanding.request import named_job
from graph.understanding.text import stem

# Analyses whose per-chiller results a ranking across several chillers can compare.
RANKABLE_ACTIONS = frozenset({"anomaly_detection", "diagnose", "trend_stats", "load_bins", "threshold_suggestion"})
_LIFECYCLE_DAYS = 365  # the efficiency trend a replace-or-repair call looks at


def _evidence_for_advice(ctx: PlanContext, plan: PlanBuilder, asset: str) -> list[int]:
    """A diagnosis where the chiller has telemetry and none exists yet (the advice rests on it)."""
    has_diagnosis = latest(ctx.artifacts, "failure", ("diagnose",), asset) is not None
    if has_diagnosis or asset not in ctx.telemetry_assets or ctx.focus.hypotheses:
        return []
    ctx.analysis_window()
    return [diagnose_asset(ctx, plan, asset)]


def recommend_wo(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Should a work order / inspection be planned? The evidence (diagnosis, open and recent orders),
    answered as a recommendation with an offer to draft; nothing is drafted."""
    for asset in ctx.assets:
        deps = _evidence_for_advice(ctx, plan, asset)
        plan.add("maintenance", "wo_summary", asset_ids=[asset], equipment_ids=ctx.equipment_ids([asset]),
                 window=None, params={"kind": "all", "distribution": False}, depends_on=deps,
                 goal=f"existing work orders for {asset} (before recommending another)")
    return None


def fix_procedure(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """How to fix it, without drafting: for a drifting sensor the recalibration and re-baselined
    monitoring, else the validation protocol of the most likely fault (the draft is offered, not made)."""
    if ctx.focus.last_intent in SENSOR_INTENTS:
        for asset in ctx.assets:
            plan.add("maintenance", "monitoring_config", asset_ids=[asset], equipment_ids=ctx.equipment_ids([asset]),
                     window=ctx.window, params={"rebaseline": True},
                     goal=f"recalibration and re-baselined monitoring for {asset}")
        return None
    for asset in ctx.assets:
        _evidence_for_advice(ctx, plan, asset)
    return validation(ctx, plan)


def lifecycle(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Replace or keep repairing: the corrective history (frequency, labour) and a year of efficiency."""
    for asset in ctx.assets:
        plan.add("maintenance", "wo_summary", asset_ids=[asset], equipment_ids=ctx.equipment_ids([asset]),
                 window=None, params={"kind": "corrective", "distribution": True},
                 goal=f"corrective work-order history of {asset} (failure frequency and labour)")
    year = cal.window(ctx.reference_date - timedelta(days=_LIFECYCLE_DAYS), ctx.reference_date,
                      f"last {_LIFECYCLE_DAYS} days", ctx.catalog.zone)
    for asset in ctx.telemetry_assets:
        detect(ctx, plan, asset, year, ["Chiller Efficiency", "Power Input"], "trend_stats")
    ctx.note(f"Efficiency trend over the {_LIFECYCLE_DAYS} days before {ctx.reference_date.isoformat()}.")
    return None


def monitor(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """A watch going forward: baseline thresholds for the sensors in play, then the monitoring setup."""
    thresholds(ctx, plan)
    hypotheses = list(ctx.focus.hypotheses) or hypotheses_from(ctx.artifacts, ctx.assets)
    for asset in ctx.assets:
        plan.add("maintenance", "monitoring_config", asset_ids=[asset], equipment_ids=ctx.equipment_ids([asset]),
                 window=ctx.window, sensors=[s for s in ctx.focus.sensors if s.startswith(f"{asset} ")],
                 params={"failure_mode": hypotheses[0] if hypotheses else None},
                 depends_on=list(range(len(plan.tasks))),
                 goal=f"monitoring going forward for {asset}, {describe_window(ctx.window)}")
    return None


def verdict(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """The verdict so far: a summary of the session's findings, from the artifacts only."""
    return report(ctx, plan)


def add_ranking(ctx: PlanContext, plan: PlanBuilder) -> None:
    """After per-chiller analyses of several chillers, rank them (the answer leads with the one that
    stands out); skipped when the plan already ranks or compares nothing rankable."""
    analysed = [i for i, t in enumerate(plan.tasks) if t.action in RANKABLE_ACTIONS]
    assets = {a for i in analysed for a in plan.tasks[i].asset_ids}
    if len(assets) < 2 or any(t.action == "prioritize" for t in plan.tasks):
        return
    ordered = [a for a in ctx.assets if a in assets]
    plan.add("maintenance", "prioritize", asset_ids=ordered, equipment_ids=ctx.equipment_ids(ordered),
             window=ctx.window, depends_on=analysed, goal=f"rank {', '.join(ordered)}: which stands out")


_ONSET_LEAD_DAYS = 60  # how far before the window discussed an onset search starts


def onset(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """When did it start: anomaly detection from well before the window discussed up to its end, so the
    first sustained deviation (the onset) falls inside it."""
    picked = ctx.focus.picked
    if len(ctx.telemetry_assets) > 1 and not ctx.understanding.assets.assets and picked in ctx.assets:
        # "which one looks off?" -> Chiller 3 -> "since when roughly?": the onset of what the pick showed
        ctx.assets = [picked]  # type: ignore[list-item]
        ctx.note(f"Taking it to mean {picked}, the one that stood out.")
    window = ctx.analysis_window()
    lead = TimeWindow(window.start - timedelta(days=_ONSET_LEAD_DAYS), window.end,
                      f"{_ONSET_LEAD_DAYS} days before {window.label or 'the window'} and it")
    for asset in ctx.telemetry_assets:  # every reading unless one is named or discussed (see analysis_names)
        detect(ctx, plan, asset, lead, analysis_names(ctx, "investigate_sensors", asset))
    ctx.note(f"Onset searched from {lead.start.date()}, {_ONSET_LEAD_DAYS} days before the window discussed.")
    return None


# "the fortnight before with the fortnight after", "a week either side": equal spans around the repair
_SPAN_EACH_SIDE = re.compile(r"\b(fortnight|two weeks|week|month|30 days|14 days|7 days)\b.*\bbefore\b.*\bafter\b|"
                             r"\b(?:a |one )?(fortnight|two weeks|week|month) either side\b")
_SPAN_DAYS = {"fortnight": 14, "two weeks": 14, "14 days": 14, "week": 7, "7 days": 7, "month": 30, "30 days": 30}
_REPAIR_LOOK_BACK_DAYS = 365  # the work orders searched for the repair the user refers to
_BEFORE_REPAIR_DAYS = 30


def _listed_repair(ctx: PlanContext) -> TimeWindow | None:
    """The day of the job the question names ("did the cleaning fix it?") when an earlier work-order listing
    of the chiller shows it: the latest such order, so before and after sit around the real repair."""
    # (or the job the last question asked about: "was the condenser cleaned?" then "did it make a difference?")
    job = named_job(ctx.understanding.text.source) or (named_job(ctx.focus.asked) if ctx.focus.asked else None)
    stems = frozenset(stem(word) for word in (job or "").split() if len(word) > 3)
    if not stems:
        return None
    for artifact in reversed(ctx.artifacts):
        # (the stored listing's kind is "work_order_summary"; "wo_summary" is the action that makes it)
        if artifact.kind not in ("work_order_summary", "wo_summary") or not set(artifact.asset_ids) & set(ctx.assets):
            continue
        for order in [*artifact.key_results.get("recent", ()), *artifact.key_results.get("latest_per_job", ())]:
            if names_job(str(order.get("description", "")), stems) and order.get("date"):
                day = date.fromisoformat(str(order["date"]))
                return cal.window(day, day + timedelta(days=1), f"{job} on {day.isoformat()}", ctx.catalog.zone)
    return None


def _told_repair(ctx: PlanContext) -> TimeWindow | None:
    """The day of a job the user said was done earlier in the dialog ("it was shut down for a tube clean on the
    9th"): the latest told, of the job the question names when it names one ("has the clean helped?")."""
    asked = job_stems(ctx.understanding.text, ctx.vocab)
    for told in ctx.focus.told_jobs:
        if not asked or asked & set(told.label.split()):
            return TimeWindow(told.start, told.end, f"the {told.label} on {told.start.date().isoformat()}")
    return None


def _sides_named(ctx: PlanContext, repair: TimeWindow) -> tuple[TimeWindow, TimeWindow] | None:
    """Two periods the message names besides the repair, one ending before it and one starting after it."""
    others = [m.window for m in ctx.understanding.periods.mentions
              if m.window is not None and m.kind in ("absolute", "past") and m.window != repair]
    before = [w for w in others if w.end <= repair.start]
    after = [w for w in others if w.start >= repair.end]
    return (before[-1], after[0]) if len(before) == 1 and len(after) == 1 else None


def _two_named(ctx: PlanContext) -> tuple[TimeWindow, TimeWindow] | None:
    """Two dated periods the message sets side by side, apart, earlier first (a day named is the repair's, no side)."""
    named = sorted({(m.window.start, m.window.end): m.window for m in ctx.understanding.periods.mentions
                    if m.window is not None and m.kind == "absolute"
                    and m.window.end - m.window.start > timedelta(days=2)}.values(), key=lambda w: w.start)
    if len(named) != len([m for m in ctx.understanding.periods.mentions if m.window is not None]):
        return None
    return (named[0], named[1]) if len(named) == 2 and named[0].end <= named[1].start else None


def repair_check(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """"They cleaned its condenser tubes in July. Did that fix it?": the year's work orders (to find the repair
    and its date) and the telemetry before and after it: the month before the period named (or the period
    discussed) against the time from its end to today."""
    named = next((m.window for m in ctx.understanding.periods.mentions if m.window is not None and m.kind != "future"),
                 None)
    span = _SPAN_EACH_SIDE.search(ctx.understanding.text.joined)
    if span is not None:  # "compare the fortnight before with the fortnight after": spans around the repair, not dates
        named = None
    known = _told_repair(ctx) or _listed_repair(ctx)
    if named is not None and span is None and known is not None and _sides_named(ctx, known) is not None:
        named = None  # "did it help? compare kw/ton june vs august" after the cleaning of July 12: the sides named
    around = named or known or ctx.focus.window or ctx.analysis_window()
    today = cal.at_midnight(ctx.reference_date + timedelta(days=1), ctx.catalog.zone)
    if named is not None and named.label.startswith("since ") and named.end >= today - timedelta(days=1):
        # ("cleaned on the 2nd ... come back since then?": the repair is the day the span opens on)
        around = TimeWindow(named.start, named.start + timedelta(days=1), named.label.removeprefix("since "))
    days = _SPAN_DAYS.get(span.group(1), _BEFORE_REPAIR_DAYS) if span is not None else _BEFORE_REPAIR_DAYS
    before = TimeWindow(around.start - timedelta(days=days), around.start, "before the repair")
    after = TimeWindow(around.end, min(today, around.end + timedelta(days=days)) if span is not None else today,
                       "after the repair") if today - around.end >= timedelta(days=3) else \
        TimeWindow(around.start + (around.end - around.start) / 2, today, "after the repair")
    sides = _sides_named(ctx, around) if span is None else None
    if sides is None and span is None and known is None:
        sides = _two_named(ctx)  # "has kw/ton come back since? sept vs june": the two periods named, in time order
    if sides is not None:  # "cleaned jul 9. did it help? compare aug to june": the periods named, each side of it
        before, after = sides
    orders = TimeWindow(today - timedelta(days=_REPAIR_LOOK_BACK_DAYS), today, f"the last {_REPAIR_LOOK_BACK_DAYS} days")
    ctx.window, ctx.window_is_aside = around, ctx.focus.window is not None
    # the readings the dialog is about first ("is the flow back to normal?"), then the usual efficiency figures
    sensors = list(dict.fromkeys([*ctx.canonical_sensors, "Chiller Efficiency", "Power Input", "Tonnage",
                                  "Chiller % Loaded"]))
    for asset in ctx.telemetry_assets:
        for window in (before, after):
            plan.add("data", "history", asset_ids=[asset], window=window, sensors=ctx.sensors_for(asset, sensors),
                     goal=f"{asset} telemetry {window.label}, {describe_window(window)}")
    for asset in ctx.assets:
        plan.add("maintenance", "wo_summary", asset_ids=[asset], equipment_ids=ctx.equipment_ids([asset]),
                 window=orders, params={"kind": "all", "distribution": False},
                 goal=f"work orders on {asset} {describe_window(orders)} (the repair and its date)")
    ctx.note(f"Before the repair: {before.start:%Y-%m-%d} to {before.end:%Y-%m-%d}; after: {after.start:%Y-%m-%d} "
             f"to {after.end:%Y-%m-%d}.")
    return None


# "Did anybody already log a work order for that?": a problem found now may have been acted on before the
# window that found it (a fault builds up over months), so the search reaches back that far.
_ALREADY = re.compile(r"\b(?:already|yet|so far|on file|existing|on the books)\b")
_ALREADY_LOOK_BACK_DAYS = 180


def resolution(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Was it dealt with: corrective work orders from the start of the window discussed to today (from
    half a year before it when the question asks whether one exists "already")."""
    window = None
    if ctx.window is not None:
        today_end = datetime.combine(ctx.reference_date + timedelta(days=1), time(0), tzinfo=ctx.window.start.tzinfo)
        window = TimeWindow(ctx.window.start, max(today_end, ctx.window.end), "since then")
        if ctx.window_explicit and not ctx.window_is_aside:
            window = ctx.window  # "has anyone raised a WO on it yet this month?": the period named
        elif _ALREADY.search(ctx.understanding.text.joined):
            start = ctx.window.start - timedelta(days=_ALREADY_LOOK_BACK_DAYS)
            window = TimeWindow(start, window.end, f"since {start.date().isoformat()}")
    for asset in ctx.assets:
        plan.add("maintenance", "wo_summary", asset_ids=[asset], equipment_ids=ctx.equipment_ids([asset]),
                 window=window, params={"kind": "corrective", "distribution": False},
                 goal=f"corrective work orders on {asset} {describe_window(window)}")
    return None
