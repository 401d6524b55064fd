"""Yes/no on change over time: "is it getting worse?", "still sliding?", "is it improving?", "is it back up?".

A trend question about a chiller's readings is answered from `trend_stats`: each sensor's level change
between the first and the last quarter of the window at equal load, in units of its own robust spread (z).
A reading has a bad direction (kW/ton and power up, evaporator refrigerant temperature and flow down);
where it has none (a return temperature) any sustained move is the problem continuing. Pure: artifacts
in, a `Verdict` out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from artifacts.model import Artifact
from artifacts.readings import running_share, sensors_stopped, sensors_without_data, stats_of
from graph.answering.asked_figures import asked_sensors
from graph.answering.compare_terms import window_phrase
from graph.answering.yes_no import Answer, Verdict, flip
from graph.understanding.request import STILL_DOWN, asking_clause, asks_back_in_service, asks_change_over_time

MOVED_Z = 2.0  # |z| of the level change (last vs first quarter, equal load) that counts as a real move
EDGING_Z = 1.5  # a smaller move its bad way is said as it is ("not clearly"), not as "held steady"
# The direction in which each reading gets worse; readings not listed have none (any sustained move counts).
WORSE_WHEN_HIGHER = frozenset({"Chiller Efficiency", "Power Input", "Supply Temperature",
                               "Condenser Water Supply To Chiller Temperature",
                               "Condenser Water Return To Tower Temperature"})
WORSE_WHEN_LOWER = frozenset({"Liquid Refrigerant Evaporator Temperature", "Condenser Water Flow"})
# "anything building up before it went down?": a build-up before an event is a change over time too.
_BUILD_UP = re.compile(r"\b(?:build(?:ing)?[ -]up|ramp(?:ing)? up|creep(?:ing)? up)\b", re.I)
_DIRECTION = re.compile(r"\b(?:dropping|falling|declining|decreasing|sinking|slipping|sliding|rising|climbing|"
                        r"increasing|creeping|going (?:up|down))\b", re.I)
_BETTER = re.compile(r"\b(better|improv\w*|recover\w*|settl\w*|easing|eased)\b", re.I)


@dataclass(frozen=True)
class Move:
    """One reading's level change over the window, and whether it went the bad way."""

    asset: str
    sensor: str
    drift: float
    z: float
    levels: tuple[float, float] | None  # the reading's first- and last-quarter medians, as read
    worse: bool  # moved (|z| >= MOVED_Z) in its bad direction, or moved at all where it has none
    better: bool  # moved in its good direction
    edging: bool = False  # went its bad way by EDGING_Z <= |z| < MOVED_Z: a drift too small to call


def _move(asset: str, sensor: str, entry: Mapping[str, Any]) -> Move | None:
    drift, z = entry.get("drift"), entry.get("drift_z")
    if not isinstance(drift, (int, float)) or not isinstance(z, (int, float)):
        return None
    moved = abs(z) >= MOVED_Z
    if sensor in WORSE_WHEN_HIGHER:
        worse, better = moved and z > 0, moved and z < 0
    elif sensor in WORSE_WHEN_LOWER:
        worse, better = moved and z < 0, moved and z > 0
    else:
        worse, better = moved, False
    first, last = entry.get("first_level"), entry.get("last_level")
    levels = (float(first), float(last)) if isinstance(first, (int, float)) and isinstance(last, (int, float)) \
        else None
    if levels == (0.0, 0.0) and float(drift) == 0.0:
        return None  # a reading that sat at zero both ends (an idle chiller's kW/ton) shows no trend either way
    bad_way = (z > 0) if sensor in WORSE_WHEN_HIGHER else (z < 0) if sensor in WORSE_WHEN_LOWER else True
    edging = not moved and abs(z) >= EDGING_Z and bad_way
    return Move(asset, sensor, float(drift), float(z), levels, worse, better, edging)


def _moves(artifacts: list[Artifact], question: str) -> list[Move]:
    """The readings the question is about (named ones, else every analysed one but the load itself)."""
    named = set(asked_sensors(question))  # bare names; "Condenser Water" covers its temperatures
    moves: list[Move] = []
    for art in artifacts:
        per_sensor = art.results.get("per_sensor")
        if art.kind != "trend_stats" or not isinstance(per_sensor, Mapping):
            continue
        asset = ", ".join(art.asset_ids)
        for key, entry in per_sensor.items():
            sensor = str(entry.get("sensor") or key) if isinstance(entry, Mapping) else str(key)
            if not isinstance(entry, Mapping) or sensor == "Chiller % Loaded" or (named and not _named(sensor, named)):
                continue
            move = _move(asset, sensor, entry)
            if move is not None:
                moves.append(move)
    return moves


def _named(sensor: str, named: set[str]) -> bool:
    return sensor in named or any(sensor.startswith(n) for n in named)


def _said(move: Move) -> str:
    """"Chiller 4 supply temperature 44.1 to 45.3 (+1.15 at equal load, z +4.2)": the levels as read, then the
    change judged at equal load."""
    if move.levels is None:
        return f"{move.asset} {move.sensor.lower()} {move.drift:+.2f} at equal load (z {move.z:+.1f})"
    first, last = move.levels
    return (f"{move.asset} {move.sensor.lower()} {_level(first)} to {_level(last)} ({move.drift:+.2f} at equal "
            f"load, z {move.z:+.1f})")


def _level(value: float) -> str:
    return f"{value:.2f}" if abs(value) < 10 else f"{value:.1f}"


def worsening_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Is it getting worse? Yes when a reading in question kept moving its bad way over the window (last
    quarter against the first at equal load); no when none did, saying which improved. "Is it getting
    better?" asks the opposite. None when the question is not about change over time or there are no trends."""
    if not (asks_change_over_time(question) or _BUILD_UP.search(question)):
        return None
    moves = _moves(artifacts, question)
    if not moves:
        return None
    window = next((window_phrase(a) for a in artifacts if a.kind == "trend_stats" and window_phrase(a)), "")
    worse = sorted((m for m in moves if m.worse), key=lambda m: -abs(m.z))
    better = sorted((m for m in moves if m.better), key=lambda m: -abs(m.z))
    evidence = [f"- {_said(m)}" for m in sorted(moves, key=lambda m: -abs(m.z))[:5]]
    evidence.append("(level change = last quarter of the window against its first quarter, running samples at "
                    "equal load; z in units of the reading's own spread)")
    if _BUILD_UP.search(question) and not asks_change_over_time(question):  # before an event: built up or not
        if worse:
            return Verdict("Yes", f"Yes, a build-up shows {window}: " + "; ".join(_said(m) for m in worse[:2]) + ".",
                           evidence)
        return Verdict("No", f"No, nothing was building up {window}: no reading moved its bad way beyond z "
                             f"{MOVED_Z:.0f} at equal load.", evidence)
    answer: Answer
    if worse:
        answer = "Yes"
        # "has it been dropping?" is answered in its own words: the way the reading went, not "worse"
        way = "falling" if worse[0].z < 0 else "rising"
        lead = f"it has been {way}" if _DIRECTION.search(question) else "it is still getting worse"
        body = f"{lead} {window}: " + "; ".join(_said(m) for m in worse[:2])
    elif better:
        answer = "No"
        body = f"it is easing {window}: " + "; ".join(_said(m) for m in better[:2])
    elif not _BETTER.search(question) and (edging := sorted((m for m in moves if m.edging), key=lambda m: -abs(m.z))):
        return Verdict("Not clearly", f"Not clearly: {window}, {_said(edging[0])} edged its bad way, short of a "
                                      f"clear change (z {MOVED_Z:.0f}).".replace(": ,", ":"), evidence)
    else:  # steady answers "worse?" and "better?" alike
        return Verdict("No", f"No, the readings held steady {window}: no level change beyond z {MOVED_Z:.0f} at "
                             "equal load.".replace("  ", " "), evidence)
    if _BETTER.search(question):
        answer = flip(answer)
    return Verdict(answer, f"{answer}, {' '.join(body.split())}.", evidence)


_RUNNING_NOW_HOURS = 3  # it ran within the last three hours of data: it runs now


def _running_now(art: Artifact) -> tuple[bool, str | None, str] | None:
    """(runs now, the last time it ran, the last sample) in site time from a telemetry window; None when the
    window did not record them."""
    last_sample = art.results.get("last_sample")
    if not isinstance(last_sample, str):
        return None
    ran = art.results.get("last_running")
    end = datetime.fromisoformat(last_sample)
    running = isinstance(ran, str) and end - datetime.fromisoformat(ran) <= timedelta(hours=_RUNNING_NOW_HOURS)

    def local(stamp: str) -> str:  # (written in site time by the data specialist)
        return stamp[:16].replace("T", " ")

    return running, (local(ran) if isinstance(ran, str) else None), local(last_sample)


# "has it come back on since?", "did it restart at all after the trip?": whether it ran at any point after the stop,
# not whether it runs now
_EVER_SINCE = re.compile(r"\b(?:has|have|did)\b.*\b(?:since|after|at all|at any point|ever)\b", re.I)


def running_again_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Is it back up? Yes when the chiller ran (load above the running threshold) in the telemetry since the
    stop, no when it sat off the whole time. None when the question is not about being back in service."""
    if not asks_back_in_service(question):
        return None
    windows = [(a, share) for a in artifacts if a.kind == "telemetry_window" and (share := running_share(a)) is not None]
    if not windows:
        return None
    art, share = max(windows, key=lambda pair: pair[0].window_start or pair[0].created_at)
    where, when = ", ".join(art.asset_ids), window_phrase(art)
    evidence = [f"- {where}: running {share:.0%} of the time {when} [{art.id}]"]
    now = _running_now(art)
    if now is not None:  # the window's last samples say whether it runs now, and since when it sat off
        running, last_ran, last_sample = now
        still_down = bool(STILL_DOWN.search(question))
        if running:
            answer: Answer = "No" if still_down else "Yes"
            return Verdict(answer, f"{answer}, {where} is running again: its latest samples (to {last_sample}) show it "
                                   f"under load.", evidence)
        if share > 0 and not still_down and _EVER_SINCE.search(asking_clause(question)):
            # "has it come back on since?": it did, at some point after the stop, though it is off again now
            return Verdict("Yes", f"Yes, {where} came back on: it ran {share:.0%} of the time {when}, though it is "
                                  f"off again now ({f'it last ran at {last_ran}; ' if last_ran else ''}latest sample "
                                  f"{last_sample}).", evidence)
        answer = "Yes" if still_down else "No"
        since = f"it last ran at {last_ran} and" if last_ran else "it"
        return Verdict(answer, f"{answer}, {where} is still off: {since} has sat at idle since, to the latest sample "
                               f"at {last_sample}.", evidence)
    if share > 0:
        return Verdict("Yes", f"Yes, {where} is running again: it ran {share:.0%} of the time {when}.", evidence)
    return Verdict("No", f"No, {where} has not run {when}: its load stayed at idle the whole time.", evidence)


# "is it trustworthy again?", "back to normal?": whether a reading that was silent reports again
_AGAIN = re.compile(r"\b(?:again|back|trustworthy|reliable|ok|okay|working|fixed|sorted)\b", re.I)
# "evap refrig temp still reading nothing?", "is the flow still blank?", "still not reporting?": a reading's silence.
_SILENT = re.compile(r"\b(?:reading|reads|showing|shows|reporting|reports|giving) (?:nothing|zero|blank|no data)\b|"
                     r"\b(?:still )?(?:blank|not reporting|no data|dead|flatlined|flat-lined|missing|offline)\b|"
                     # "is the liquid refrig temp sensor still out?", "it dropped out on the 14th" (not "out of range")
                     r"\b(?:still|been|went|gone|dropped|cut|is|was) out\b(?!\s+(?:of|to|for|there|by)\b)",
                     re.I)


def silent_reading_verdict(question: str, artifacts: list[Artifact], readings: list[str]) -> Verdict | None:
    """Does the reading named still report nothing (`readings`, the dialog's, are not enough to ask it): yes when this turn's telemetry has no
    sample of it, or it stopped inside the window (with when); no when it reports again (with its level)."""
    if not _SILENT.search(question):
        return None
    # "the flow reading was blank after the trip. is it trustworthy again?": the silence is the scene, the question
    # asks whether it reports again, so a reading that reports is a yes
    recovered = not _SILENT.search(asking_clause(question)) and _AGAIN.search(asking_clause(question)) is not None
    # (the reading named: "is any sensor still offline?" asks of them all, which the sensor check answers)
    named = asked_sensors(question)
    windows = [a for a in artifacts if a.kind in ("telemetry_window", "point_values") and a.asset_ids]
    if not named or not windows:
        return None
    art = max(windows, key=lambda a: a.window_start or a.created_at)  # the latest read says whether it is silent now
    asset, when = art.asset_ids[0], window_phrase(art)
    full = f"{asset} {named[0]}"
    if art.kind == "point_values":
        values = art.results.get("values")
        if not isinstance(values, dict) or full not in values:
            return None
        if values[full] is None:
            said: Answer = "No" if recovered else "Yes"
            return Verdict(said, f"{said}, {asset}'s {named[0].lower()} still reports nothing: no sample {when}.",
                           [f"- {full}: {when} [{art.id}]"])
        said = "Yes" if recovered else "No"
        return Verdict(said, f"{said}, {asset}'s {named[0].lower()} is reporting{' again' if recovered else ''} {when}.",
                       [f"- {full}: {when} [{art.id}]"])
    stopped = sensors_stopped(art)
    label = named[0].lower()
    evidence = [f"- {full}: {when} [{art.id}]"]
    silent: Answer = "No" if recovered else "Yes"
    if full in sensors_without_data(art):
        return Verdict(silent, f"{silent}, {asset}'s {label} still reports nothing: no sample {when}.", evidence)
    if full in stopped:
        return Verdict(silent, f"{silent}, {asset}'s {label} stopped reporting at {stopped[full][:16].replace('T', ' ')} and "
                              f"has sent nothing since ({when}).", evidence)
    entry = stats_of(art).get(full)
    if entry is None:
        return None
    if recovered:
        return Verdict("Yes", f"Yes, {asset}'s {label} is reporting again {when}: {entry.get('count', 0)} samples.",
                       evidence)
    return Verdict("No", f"No, {asset}'s {label} is reporting {when}: {entry.get('count', 0)} samples.", evidence)
