"""Recipes for data and time-series work: history, comparisons, anomalies, investigations, forecasts,
fine-tuning, sensor health and thresholds. A recipe adds tasks to the plan, or returns a refusal text."""

from __future__ import annotations

import re
from datetime import timedelta

from assetops.domain.turn import TimeWindow
from graph.planning.artifacts import analysed_sensors
from graph.planning.builder import PlanBuilder, describe_window
from graph.planning.context import PlanContext, Stop
from graph.planning.resolve import is_trip
from graph.understanding import calendar_math as cal
from graph.understanding.dates import time_of_day
from graph.understanding.periods import event_lead_span
from graph.understanding.sensors import all_sensors


def sensor_names(ctx: PlanContext, default_key: str) -> list[str]:
    """The canonical sensors to analyse: named or focus ones, else the intent's defaults."""
    return list(ctx.canonical_sensors) or list(ctx.default(default_key))  # type: ignore[call-overload]


# "anything odd on it?", "something off?": asks whether anything is wrong (the symptom words are the grammar's)
_ANYTHING = re.compile(r"\b(?:anything|something)\b")


def analysis_names(ctx: PlanContext, default_key: str, asset: str) -> list[str]:
    """Named/focus/default sensors plus companions; "the other sensors" = those not analysed yet. A look
    at one chiller with no reading named or discussed ("anything weird on ch6?") covers all its readings:
    a fault shows where it shows (a flow drop is invisible in the power and load the defaults watch)."""
    if ctx.understanding.sensors.other_sensors:
        done = analysed_sensors(ctx.artifacts, asset, ctx.window)
        return [n for n in all_sensors(asset, ctx.catalog) if f"{asset} {n}" not in done] or all_sensors(asset, ctx.catalog)
    # ("anything odd on it over that stretch?" after a look at its supply temperature is still a broad look)
    broad = not ctx.sensors_explicit and ctx.request is not None and ctx.request.symptom \
        and bool(_ANYTHING.search(ctx.understanding.text.joined))
    if (not ctx.canonical_sensors or broad) and ctx.scope != "fleet" and len(ctx.telemetry_assets) == 1:
        return all_sensors(asset, ctx.catalog)
    names = sensor_names(ctx, default_key)
    for name in list(names):
        names.extend(ctx.vocab.sensor_companions.get(name, ()))
    return list(dict.fromkeys(names))


def history(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """An explicit request for telemetry: one history task per chiller (the store slices what it has)."""
    window = ctx.analysis_window()
    for asset in ctx.telemetry_assets:
        sensors = ctx.sensors_for(asset)
        plan.add("data", "history", asset_ids=[asset], window=window, sensors=sensors,
                 goal=f"{asset} telemetry {describe_window(window)}")
    return None


def point_value(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Sensor values at a moment or on a day."""
    ctx.analysis_window()
    if not ctx.window_explicit and ctx.focus.window is None:
        day = ctx.reference_date - timedelta(days=1)
        ctx.window = cal.day_window(day, day.isoformat(), ctx.catalog.zone)
        ctx.note(f"No date given: using {day.isoformat()}, the day before the reference date.")
    clock = time_of_day(ctx.understanding.text.joined)
    span = ctx.window
    at = None
    if clock is not None and span is not None and span.end - span.start <= timedelta(days=1, hours=1):
        # "what was its kW/ton at 2pm yesterday?": the sample nearest that moment, not the day's mean
        at = span.start.replace(hour=clock[0], minute=clock[1]).isoformat()
    if at is None and span is not None and span.end - span.start > timedelta(days=1, hours=1):
        # "its mean reading since January": a value over weeks is a statistic of the window, which the history
        # computes over every sample (the point values are a sample listing, capped, and no mean)
        return history(ctx, plan)
    for asset in ctx.telemetry_assets:
        sensors = ctx.sensors_for(asset)
        load = f"{asset} Chiller % Loaded"  # read with any value: a 0 kW/ton is an off chiller, and says so
        if sensors and load not in sensors and "Chiller % Loaded" in all_sensors(asset, ctx.catalog):
            sensors = [*sensors, load]
        plan.add("data", "point_value", asset_ids=[asset], window=ctx.window, sensors=sensors,
                 params={"at": at} if at else {},
                 goal=f"{asset} values {'at ' + at[:16].replace('T', ' ') if at else 'on ' + describe_window(ctx.window)}")
    return None


def compare(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Side-by-side statistics: each chiller's history in parallel, then the comparison."""
    window = ctx.analysis_window()
    # ("q2 vs q3 so far" on 15 September: Q3 up to today, like the period asked alone)
    windows = [_up_to_today(ctx, w) for w in [
        *ctx.extra_windows,
        *(m.window for m in ctx.understanding.periods.mentions if m.window is not None and m.kind != "future")]]
    if len(ctx.telemetry_assets) == 1 and len(windows) > 1:
        return _compare_periods(ctx, plan, ctx.telemetry_assets[0], windows)
    if len(windows) == 2 and _apart(*windows) and len(ctx.telemetry_assets) > 1:
        # "whose kW/ton is worse than this time last year?": every chiller over both periods, each on its own
        for asset in ctx.telemetry_assets:
            _compare_periods(ctx, plan, asset, windows)
        return None
    if len(ctx.telemetry_assets) < 2:
        ctx.note(f"A side-by-side comparison needs two chillers or two periods; showing {', '.join(ctx.assets)}.")
        return history(ctx, plan)
    names = sensor_names(ctx, "compare_sensors")
    deps: list[int] = []
    sensors: list[str] = []
    for asset in ctx.telemetry_assets:
        full = ctx.sensors_for(asset, names)
        sensors.extend(full)
        deps.extend(plan.ensure_history(asset, window, full))
    plan.add("data", "compare", asset_ids=list(ctx.telemetry_assets), window=window, sensors=sensors,
             depends_on=deps, goal=f"compare {' vs '.join(ctx.telemetry_assets)} {describe_window(window)}")
    return None


def _up_to_today(ctx: PlanContext, window: TimeWindow) -> TimeWindow:
    """A period under way ends today: nothing after the reference date is recorded yet."""
    today_end = cal.at_midnight(ctx.reference_date + timedelta(days=1), ctx.catalog.zone)
    return TimeWindow(window.start, today_end, window.label) if window.start < today_end < window.end else window


def _apart(first: TimeWindow, second: TimeWindow) -> bool:
    """Two periods that do not overlap (a context period around the one asked is no second period)."""
    return first.end <= second.start or second.end <= first.start


def _compare_periods(ctx: PlanContext, plan: PlanBuilder, asset: str, windows: list[TimeWindow]) -> Stop | None:
    """One chiller over several periods ("this June against June 2020"): each period, then the comparison."""
    full = ctx.sensors_for(asset, sensor_names(ctx, "compare_sensors"))
    deps = [index for window in windows for index in plan.ensure_history(asset, window, full)]
    plan.add("data", "compare", asset_ids=[asset], window=windows[0], sensors=full, depends_on=deps,
             params={"windows": [w.to_dict() for w in windows]},
             goal=f"compare {asset} across {' vs '.join(describe_window(w) for w in windows)}")
    return None


def detect(ctx: PlanContext, plan: PlanBuilder, asset: str, window: TimeWindow, names: list[str],
            action: str = "anomaly_detection", **params: object) -> int:
    """History (only what is missing) for the sensors plus context, then one time-series analysis."""
    analysed = ctx.sensors_for(asset, names)
    fetched = ctx.sensors_for(asset, ctx.with_context(names))
    # (a reading the user names is stated over the window asked: "chw supply creeping up the days before?")
    deps = plan.ensure_history(asset, window, fetched, exact=ctx.sensors_explicit)
    short = ", ".join(s.removeprefix(f"{asset} ") for s in analysed)
    return plan.add("timeseries", action, asset_ids=[asset], window=window, sensors=analysed, depends_on=deps,
                    params=dict(params), goal=f"{action.replace('_', ' ')} on {asset} {short}, "
                                              f"{describe_window(window)}")


def anomalies(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Anomaly detection on the named (or focus, or default) sensors of each chiller."""
    window = ctx.analysis_window()
    for asset in ctx.telemetry_assets:
        detect(ctx, plan, asset, window, analysis_names(ctx, "investigate_sensors", asset))
    return None


RUNNING_NOW_SENSORS = ["Chiller % Loaded", "Power Input", "Tonnage"]


def running_now(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """"Is it back up now?": its load, power and tonnage from the end of the period discussed (the trip day)
    up to today, which say whether and since when it runs again."""
    discussed = ctx.focus.window or ctx.analysis_window()
    start = min(discussed.end, cal.at_midnight(ctx.reference_date, ctx.catalog.zone))
    if ctx.window_explicit and ctx.window is not None and ctx.window.start < start:
        start = ctx.window.start  # "it tripped yesterday, is it still down?": from the day it stopped
    end = cal.at_midnight(ctx.reference_date + timedelta(days=1), ctx.catalog.zone)
    window = TimeWindow(start, end, f"since {start:%Y-%m-%d}")
    ctx.window, ctx.window_is_aside = window, ctx.focus.window is not None  # the trip stays what is discussed
    for asset in ctx.telemetry_assets:
        plan.add("data", "history", asset_ids=[asset], window=window, sensors=ctx.sensors_for(asset, RUNNING_NOW_SENSORS),
                 goal=f"{asset} running since {start:%Y-%m-%d}")
    return None


TREND_MIN_DAYS = 28  # a level change between quarters of a shorter window is mostly weather and load


def worsening(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """"Is it getting worse?": the level change of the readings in question over the window discussed
    (trend statistics: last against first quarter at equal load), widened to four weeks when shorter."""
    window = ctx.analysis_window()
    if window.end - window.start < timedelta(days=TREND_MIN_DAYS):
        start = window.end - timedelta(days=TREND_MIN_DAYS)
        window = TimeWindow(start, window.end, f"the {TREND_MIN_DAYS} days to {window.end:%Y-%m-%d}")
        ctx.note(f"Trend judged over the {TREND_MIN_DAYS} days up to the end of the period discussed.")
    for asset in ctx.telemetry_assets:
        names = analysis_names(ctx, "investigate_sensors", asset)
        # the load tells running samples from off hours and makes "at equal load" possible
        detect(ctx, plan, asset, window, names if "Chiller % Loaded" in names else [*names, "Chiller % Loaded"],
               "trend_stats")
    return None


def load_bins(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Behaviour at high vs low load (evaporator fouling and refrigerant loss show at peak load)."""
    window = ctx.analysis_window()
    for asset in ctx.telemetry_assets:
        names = list(ctx.canonical_sensors) or list(ctx.default("investigate_sensors"))  # type: ignore[call-overload]
        detect(ctx, plan, asset, window, [*names, "Chiller % Loaded"], "load_bins")
    return None


def _event_window(ctx: PlanContext) -> tuple[TimeWindow | None, bool]:
    """The pre-event window of "what happened before the trip" and whether the message asks for one."""
    events = ctx.understanding.periods.of_kind("event")
    if not events:
        return None, False
    return events[0].window, True


_LEAD_UP_DAYS = 3  # days before a trip window of unknown trip time that "before the trip" looks at


def investigate(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """A multi-specialist look: the telemetry, then anomalies (or the pre-trip trend when asked)."""
    window = ctx.analysis_window()
    pre_event, asked_before = _event_window(ctx)
    if asked_before:
        window = pre_event or _lead_up_window(ctx, window)
    for asset in ctx.telemetry_assets:
        if asked_before:
            detect(ctx, plan, asset, window, _trip_names(ctx, asset), "trend_stats",
                    segment="before_event", event="trip")
            continue
        if is_trip(ctx):
            detect(ctx, plan, asset, window, _trip_names(ctx, asset), event="trip")
            continue
        detect(ctx, plan, asset, window, analysis_names(ctx, "investigate_sensors", asset))
    return None


def _lead_up_window(ctx: PlanContext, window: TimeWindow) -> TimeWindow:
    """The window "before the trip" looks at when the trip time is not known yet."""
    span = event_lead_span(ctx.understanding.text.joined, ctx.vocab)
    if span is not None and span > window.end - window.start and not ctx.understanding.text.contains("days"):
        # "the week leading up to it" after a trip yesterday: that week, up to the end of the trip window
        ctx.note(f"The trip time is not known yet: analysing the {span.days} days up to the end of the trip window.")
        return TimeWindow(window.end - span, window.end, f"{span.days} days up to {window.label or 'the trip'}")
    if not ctx.understanding.text.contains("days"):
        ctx.note("The trip time is not known yet: analysing the trip window up to the trip.")
        return window
    # "the days leading up to it": days before the trip window too, not the trip day alone
    ctx.note(f"The trip time is not known yet: analysing the {_LEAD_UP_DAYS} days before the trip window "
             "and the window itself.")
    return TimeWindow(window.start - timedelta(days=_LEAD_UP_DAYS), window.end, window.label)


def _trip_names(ctx: PlanContext, asset: str) -> list[str]:
    """After a trip every sensor matters (one may have gone offline)."""
    return list(ctx.canonical_sensors) if ctx.sensors_explicit else all_sensors(asset, ctx.catalog)
