"""Recipes for failure reasoning: failure modes, diagnosis (with evidence gathered only where missing),
sensor validity and prioritisation across chillers."""

from __future__ import annotations

import re
from datetime import timedelta

from assetops.domain.turn import TimeWindow
from graph.planning.artifacts import analysed_sensors, drifting_sensors, event_time_from, latest
from graph.planning.builder import PlanBuilder, describe_window
from graph.planning.context import PlanContext, Stop
from graph.planning.recipes_telemetry import detect
from graph.planning.resolve import is_trip
from graph.understanding import calendar_math as cal
from graph.understanding.sensors import all_sensors, canonical_of


def failure_modes(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """The failure modes of each chiller, then which sensors reveal them (no new telemetry).

    Without a chiller ("failure modes of a chiller?") the generic chiller list is asked for. A
    question naming a failure mode ("which sensors would give away a purge unit problem?") is about
    that mode's sensors only: the list of every mode is not repeated.
    """
    if not ctx.assets:
        plan.add("failure", "failure_modes", params={"asset_name": "Chiller"}, goal="failure modes of a chiller")
    named = ctx.understanding.failure_modes
    for asset in ctx.assets:
        sensors = [f"{asset} {name}" for name in all_sensors(asset, ctx.catalog)]
        listing = [] if named and sensors else [
            plan.add("failure", "failure_modes", asset_ids=[asset], equipment_ids=ctx.equipment_ids([asset]),
                     window=ctx.window, goal=f"failure modes of {asset}")]
        if sensors:
            modes = current_modes(ctx)
            plan.add("failure", "sensor_mapping", asset_ids=[asset], window=ctx.window, sensors=sensors,
                     params={"failure_modes": modes}, depends_on=listing,
                     goal=f"sensors that reveal {'; '.join(named)} on {asset}" if named
                     else f"failure mode to sensor mapping for {asset}")
    return None


def current_modes(ctx: PlanContext) -> list[str]:
    """Failure modes named now, else the ones the conversation is about."""
    return list(ctx.understanding.failure_modes or ctx.focus.failure_modes)


def evidence_for(ctx: PlanContext, plan: PlanBuilder, asset: str, use_other_sensors: bool) -> tuple[list[int], list[str]]:
    """Time-series tasks a diagnosis of `asset` still needs, and every sensor analysed so far or now.

    With "use the other sensors" only the sensors no analysis has covered are analysed; without
    any earlier analysis the default investigation sensors are.
    """
    window = ctx.analysis_window()
    done = analysed_sensors(ctx.artifacts, asset, window)
    if use_other_sensors:
        todo = [name for name in all_sensors(asset, ctx.catalog) if f"{asset} {name}" not in done]
    elif ctx.sensors_explicit and ctx.canonical_sensors and done:
        # "which one fits best if you look at the condenser temps too?": add the named sensors
        todo = [canonical_of(s) for s in ctx.sensors_for(asset) if s not in done]
    elif not done:
        todo = list(ctx.canonical_sensors or ctx.default("investigate_sensors"))  # type: ignore[call-overload]
    else:
        todo = []
    if not todo:
        return [], sorted(done)
    index = detect(ctx, plan, asset, window, todo)
    return [index], sorted(done | set(plan.tasks[index].sensors))


def diagnose_asset(ctx: PlanContext, plan: PlanBuilder, asset: str) -> int:
    """Evidence where missing, then the ranked hypotheses for one chiller; returns the diagnosis index."""
    use_other = ctx.understanding.sensors.other_sensors
    deps, sensors = evidence_for(ctx, plan, asset, use_other)
    text = ctx.understanding.text
    params: dict[str, object] = {"use_other_sensors": use_other, "failure_modes": current_modes(ctx),
                                 "severity": any(text.contains(w) for w in ctx.vocab.severity_words)}
    event_time = event_time_from(ctx.artifacts)
    if is_trip(ctx) or event_time is not None or any(a.key_results.get("event") == "trip" for a in ctx.artifacts):
        params["event"] = "trip"
        params["event_time"] = event_time.isoformat() if event_time else None
    return plan.add("failure", "diagnose", asset_ids=[asset], equipment_ids=ctx.equipment_ids([asset]),
                    window=ctx.window, sensors=sensors, params=params, depends_on=deps,
                    goal=f"ranked root-cause hypotheses for {asset}, {describe_window(ctx.window)}")


def _through_the_stop(ctx: PlanContext) -> None:
    """"root cause?" right after a look at the hours before a stop: the diagnosis reads through the stop itself (a
    trip shows at the stop and after it, not in the lead-up that ends there)."""
    stop_at = event_time_from(ctx.artifacts, stops=True)
    window = ctx.window
    if stop_at is None or window is None or ctx.window_explicit or not window.start < stop_at <= window.end + _NEAR_STOP \
            or window.end > stop_at + _NEAR_STOP:
        return
    tomorrow = cal.at_midnight(ctx.reference_date + timedelta(days=1), ctx.catalog.zone)
    ctx.window = TimeWindow(window.start, min(stop_at + timedelta(days=1), tomorrow), f"{window.label} and the stop")
    ctx.note(f"The diagnosis reads through the stop at {stop_at:%Y-%m-%d %H:%M}, not only the lead-up to it.")


_NEAR_STOP = timedelta(hours=1)


def diagnose(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Ranked hypotheses with confidence and evidence for each chiller."""
    _through_the_stop(ctx)
    for asset in ctx.telemetry_assets:
        diagnose_asset(ctx, plan, asset)
    return None


def sensor_validity(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """Real process change or sensor drift: the named sensor checked against its correlated sensors."""
    window = ctx.analysis_window()
    for asset in ctx.telemetry_assets:
        named = ctx.canonical_sensors[:2] if ctx.sensors_explicit else []
        suspects = named or drifting_sensors(ctx.artifacts, asset)[:2] or ctx.canonical_sensors[:2]
        targets = ctx.sensors_for(asset, suspects or ["Supply Temperature"])
        deps = plan.ensure_history(asset, window, ctx.sensors_for(asset, all_sensors(asset, ctx.catalog)))
        plan.add("failure", "sensor_validity", asset_ids=[asset], window=window, sensors=targets,
                 params={"target_sensors": targets}, depends_on=deps,
                 goal=f"is the change in {', '.join(targets)} real or sensor drift?")
    return None


_COMPONENT = re.compile(r"\b(condenser|evaporator|compressor)s?\b")


def prioritize(ctx: PlanContext, plan: PlanBuilder) -> Stop | None:
    """A diagnosis per chiller where none exists yet (in parallel), then which needs attention first."""
    deps: list[int] = []
    for asset in ctx.telemetry_assets:
        found = latest(ctx.artifacts, "failure", ("diagnose",), asset)
        # (a period named this turn that the diagnosis did not cover needs one of its own: "in June 2020 too?")
        elsewhere = found is not None and ctx.window_explicit and ctx.window is not None and found.window is not None \
            and (found.window.start, found.window.end) != (ctx.window.start, ctx.window.end)
        if found is None or elsewhere:
            deps.append(diagnose_asset(ctx, plan, asset))
    # ("if the crew can only get to one condenser, whose?": the ranking is on that component's faults)
    component = _COMPONENT.search(ctx.understanding.text.joined)
    plan.add("maintenance", "prioritize", asset_ids=list(ctx.assets), equipment_ids=ctx.equipment_ids(),
             window=ctx.window, depends_on=deps, params={"component": component.group(1)} if component else {},
             goal=f"which of {', '.join(ctx.assets)} needs attention first"
                  + (f" on its {component.group(1)}" if component else ""))
    return None
