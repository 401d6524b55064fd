"""Recipes for model work and data health: forecast, fine-tune, scoring a forecast, sensor health,
thresholds, plus the catalogue questions (inventory, data coverage, available models)."""

from __future__ import annotations

import re
from datetime import date, timedelta

from assetops.domain.turn import TimeWindow
from graph.planning import messages
from graph.planning.artifacts import latest, rule_ids_from
from graph.planning.builder import PlanBuilder, describe_window
from graph.planning.context import PlanContext, Stop
from graph.planning.recipes_telemetry import detect, sensor_names
from graph.understanding import calendar_math as cal
from graph.understanding.sensors import all_sensors


def _first_day(ctx: PlanContext) -> date:
    """The first day of telemetry (the reference date when the fleet has none: nothing is covered)."""
    return ctx.catalog.first_day or ctx.reference_date


def _end_day(ctx: PlanContext) -> date:
    """The day after the last day of telemetry (exclusive; the reference date when there is none)."""
    return ctx.catalog.end_day or ctx.reference_date



def _horizon(ctx: PlanContext) -> TimeWindow:
    future = ctx.understanding.periods.of_kind("future")
    if future and future[0].window is not None:
        return future[0].window
    if ctx.window_explicit and ctx.window is not None:
        return ctx.window
    days = int(ctx.default("forecast_horizon_days"))  # type: ignore[call-overload]
    ctx.note(f"No horizon given: forecasting {days} days from {ctx.reference_date.isoformat()}.")
    return cal.window(ctx.reference_date, ctx.reference_date + timedelta(days=days), f"next {days} days", ctx.catalog.zone)


# A forecast rolls the model out step by step, so its error grows with lead time: past a year ahead of the last
# recorded data it says nothing worth reading (the forecaster itself caps a run at a few weeks).
_FURTHEST_AHEAD = timedelta(days=365)


def forecast(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Forecast each chiller over the horizon from the days before it (parallel per chiller).

    The context ends at the horizon start, or at the reference date when the horizon lies further
    ahead (no data is recorded after "today"); the forecast then runs from there to the horizon end.
    """
    horizon = _horizon(ctx)
    days = int(ctx.default("forecast_context_days"))  # type: ignore[call-overload]
    end = min(horizon.start, cal.at_midnight(ctx.reference_date, ctx.catalog.zone), cal.at_midnight(_end_day(ctx), ctx.catalog.zone))
    start = max(end - timedelta(days=days), cal.at_midnight(_first_day(ctx), ctx.catalog.zone))
    if end <= start:
        return Stop("reject", messages.outside_coverage_text(f"the {days} days before {horizon.label}", ctx.catalog))
    if horizon.end - end > _FURTHEST_AHEAD:  # "forecast its load for 2040": no model reaches that far
        return Stop("reject", messages.too_far_ahead_text(horizon.label, end.date()))
    context = TimeWindow(start, end, f"{days} days before {end.date().isoformat()}")
    ctx.note(f"Forecast context: {describe_window(context)}; horizon: {describe_window(horizon)}.")
    hours = int((horizon.end - end).total_seconds() // 3600)
    for asset in ctx.telemetry_assets:
        detect(ctx, plan, asset, context, sensor_names(ctx, "forecast_sensors"), "forecast",
               horizon_start=horizon.start.isoformat(), horizon_end=horizon.end.isoformat(), horizon_hours=hours)
    ctx.window = context  # the focus keeps a recorded window, not a future one
    return None


def finetune(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Fine-tune a forecaster on the window (history first when it is not held yet)."""
    window = ctx.analysis_window()
    for asset in ctx.telemetry_assets:
        detect(ctx, plan, asset, window, sensor_names(ctx, "finetune_sensors"), "finetune")
    return None


def evaluate_forecast(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Forecast the window with the session's tuned checkpoint (if any) and score it against actuals."""
    window = ctx.analysis_window()
    for asset in ctx.telemetry_assets:
        tuned = latest(ctx.artifacts, "timeseries", ("finetune",), asset)
        if tuned is None:
            ctx.note(f"No fine-tuned model for {asset} in this session: scoring the base TTM model.")
        checkpoint = str(tuned.key_results.get("model_checkpoint") or "") if tuned else ""
        detect(ctx, plan, asset, window, sensor_names(ctx, "finetune_sensors"), "evaluate_forecast",
               checkpoint_artifact_id=tuned.id if tuned else None, model_checkpoint=checkpoint or None)
    return None


def sensor_health(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Drift, offsets, variance changes and missing data on every (or the named) sensor."""
    window = ctx.analysis_window()
    for asset in ctx.telemetry_assets:
        names = list(ctx.canonical_sensors) if ctx.sensors_explicit and ctx.canonical_sensors else []
        detect(ctx, plan, asset, window, names or all_sensors(asset, ctx.catalog), "trend_stats")
    return None


# "do those alerts ever turn into real work orders, or can I just suppress them?": what the alerts led to is asked
_LEAD_TO_WORK = re.compile(r"\b(?:work orders?|wos?|tickets?|repairs?|real (?:problems?|faults?|issues?))\b")


def thresholds(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Baseline ranges and proposed thresholds for the rules (or sensors) in play."""
    rules = ctx.understanding.rule_ids or ctx.understanding.named_rules or ctx.focus.rule_ids \
        or rule_ids_from(ctx.artifacts, ctx.assets)
    days = int(ctx.default("threshold_baseline_days"))  # type: ignore[call-overload]
    baseline = cal.window(ctx.reference_date - timedelta(days=days), ctx.reference_date, f"last {days} days", ctx.catalog.zone)
    window = ctx.analysis_window()
    if not ctx.window_explicit and window != baseline:
        ctx.window = window = baseline  # a threshold needs a long baseline, not the short window discussed before
        ctx.note(f"Baseline: the {days} days before {ctx.reference_date.isoformat()}.")
    names = list(ctx.canonical_sensors) if ctx.sensors_explicit else []
    for rule in rules:
        names.extend(ctx.vocab.rule_sensors.get(rule, ()))
    names = list(dict.fromkeys(names)) or list(ctx.vocab.default_rule_sensors)
    for asset in ctx.telemetry_assets:
        detect(ctx, plan, asset, window, names, "threshold_suggestion", rule_ids=list(rules))
    if ctx.request is not None and rules and (ctx.request.shape == "recommend" or (
            ctx.request.act == "question" and _LEAD_TO_WORK.search(ctx.understanding.text.joined))):
        # "is it worth loosening the cycling alarm?", "do those alerts ever turn into work orders, or can I just
        # suppress them?": whether its alerts led to work says if it flags real trouble
        for asset in ctx.assets:
            for rule in rules:
                plan.add("maintenance", "alert_to_failure", asset_ids=[asset], equipment_ids=ctx.equipment_ids([asset]),
                         window=ctx.window, params={"rule_id": rule, "rule_ids": [rule]},
                         goal=f"do {rule} alerts on {asset} lead to maintenance?")
    return None


def inventory(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Sites and assets."""
    plan.add("data", "inventory", goal=f"sites and assets at {ctx.vocab.site_name}")
    return None


def data_coverage(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Sensors and coverage of each chiller; work-order-only chillers get their work-order summary ("do we have any
    sensor data on that one?" about such a chiller is answered no, with what exists instead)."""
    without = [a for a in ctx.assets if a not in ctx.catalog.telemetry_assets]
    if without and without == ctx.assets and ctx.request is not None and ctx.request.shape == "yes_no":
        return Stop("answer", f"No, {messages.no_telemetry_text(without, ctx.catalog)}")
    for asset in ctx.assets:
        if asset in ctx.catalog.telemetry_assets:
            plan.add("data", "sensors", asset_ids=[asset], goal=f"sensors and data coverage of {asset}")
            continue
        ctx.note(f"{asset} has no telemetry; summarising its work-order data instead.")
        plan.add("maintenance", "wo_summary", asset_ids=[asset], equipment_ids=ctx.equipment_ids([asset]),
                 params={"kind": "all", "distribution": True}, goal=f"work-order coverage of {asset}")
    return None


def models(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Available AI tasks and time-series models (for the focus chiller when there is one)."""
    plan.add("timeseries", "capabilities", asset_ids=list(ctx.telemetry_assets),
             goal="available AI tasks and time-series models")
    return None
