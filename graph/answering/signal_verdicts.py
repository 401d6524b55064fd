"""Yes/no on the instruments and the models: "do any of its sensors look off?", "would a tuned model do better?".

Pure functions over `trend_stats` (per-sensor flags, sensors that moved while their coupled ones did
not) and `evaluate_forecast` (a tuned checkpoint's error against the base model's on the same actuals).
A level change shared with coupled sensors is the process or the season, not a sensor fault.
"""

from __future__ import annotations

import re
from statistics import fmean

from artifacts.model import Artifact
from artifacts.readings import (
    ForecastScore,
    forecast_actual_means,
    forecast_scores,
    moved_alone,
    sensor_health,
    sensors_stopped,
    tuned_checkpoint,
)
from graph.answering.asked_figures import asked_level
from graph.answering.diagnosis_verdicts import asks_health
from graph.answering.markdown import join_names, number
from graph.answering.yes_no import Answer, Verdict, flip
from graph.understanding.request import asks_reliability

BROKEN = frozenset({"stuck", "missing_data"})
BETTER_BY = 0.02  # a tuned model whose mean error is 2% lower or more does better
_SENSORS = re.compile(r"\b(sensors?|readings?|instruments?|probes?|gauges?|transmitters?|meters?|signals?)\b", re.I)
_MODEL = re.compile(r"\b(model|forecast\w*|predict\w*|tun(ed|ing)|fine-?tun\w*|error|accura\w*)\b", re.I)


def stopped_sensors(artifacts: list[Artifact]) -> list[tuple[str, str]]:
    """(sensor, "stopped reporting at <time>") for each sensor the turn's telemetry windows saw go silent while the
    other sensors went on, once each."""
    found = {sensor: f"stopped reporting at {str(last)[:16].replace('T', ' ')}"
             for window in artifacts if window.kind == "telemetry_window"
             for sensor, last in sensors_stopped(window).items()}
    return list(found.items())


def sensor_health_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Is a sensor off? Yes when one is stuck, missing data or moved on its own; a health question ("do the
    sensors look fine?") flips the answer."""
    found = [a for a in artifacts if a.kind == "trend_stats" and sensor_health(a)]
    if not found or not _SENSORS.search(question):
        return None
    faults, lines = [], []
    for art in found:
        asset = ", ".join(art.asset_ids)
        broken = [f"{h.sensor} ({', '.join(sorted(BROKEN & set(h.flags)))})" for h in sensor_health(art)
                  if BROKEN & set(h.flags)]
        alone = moved_alone(art)
        faults += [f"{asset} {text}" for text in [*broken, *alone] if not text.startswith(asset)]
        faults += [text for text in alone if text.startswith(asset)]
        lines.append(f"- {asset}: stuck or missing: {join_names(broken) or 'none'}; moved on its own: "
                     f"{'; '.join(alone) or 'none'} [{art.id}]")
    # (a sensor that stopped reporting while the others went on dropped out, whatever the trend statistics saw)
    # (one entry a sensor: its stop time says more than "missing_data", and is kept in its place)
    for sensor, when in stopped_sensors(artifacts):
        said = next((i for i, text in enumerate(faults) if text.startswith(f"{sensor} (")), None)
        if said is None:
            faults.append(f"{sensor} ({when})")
        else:
            faults[said] = f"{sensor} ({when})"
    faults = list(dict.fromkeys(faults))
    answer: Answer = "Yes" if faults else "No"
    body = f"{join_names(faults[:3])}" + (f" and {len(faults) - 3} more" if len(faults) > 3 else "") if faults else \
        f"no sensor on {join_names([', '.join(a.asset_ids) for a in found])} is stuck, missing data or moving on its own"
    answer = flip(answer) if asks_health(question) else answer
    return Verdict(answer, f"{answer}, {body}.", lines)


def _mean_error(scores: list[ForecastScore]) -> float | None:
    return fmean(s.mae for s in scores) if scores else None


def forecast_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Does the tuned model forecast better? Its mean absolute error against the base model's on the same
    actuals; None when only one model was scored."""
    if not _MODEL.search(question):
        return None
    for art in artifacts:
        if art.kind != "evaluate_forecast":
            continue
        tuned, scores = tuned_checkpoint(art), forecast_scores(art)
        base = next((label for label in scores if label != tuned and scores[label]), None)
        if tuned is None or base is None or not scores.get(tuned):
            continue
        mine, theirs = _mean_error(scores[tuned]), _mean_error(scores[base])
        if mine is None or theirs is None:
            continue
        better = mine <= theirs * (1 - BETTER_BY)
        answer: Answer = "Yes" if better else "No"
        how = "lower" if mine < theirs else "higher" if mine > theirs else "the same"
        lines = [f"- {label}: MAE {number(s.mae)} on {s.target} ({s.pairs} points) [{art.id}]"
                 for label in (tuned, base) for s in scores[label]]
        return Verdict(answer, f"{answer}, the tuned model's error is {how}: MAE {number(mine)} against "
                               f"{number(theirs)} for the base model ({base}) on {', '.join(art.asset_ids)}.", lines)
    return None


GOOD_ENOUGH = 0.10  # a typical error within 10% of the running level plans staging and loads


def forecast_accuracy_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Is the forecast good enough to plan with? Its typical error (MAE) against the actuals, as a share of
    the reading's running level over the same window; None without an evaluation or a question about it."""
    if not asks_reliability(question):
        return None
    for art in artifacts:
        if art.kind != "evaluate_forecast":
            continue
        scores, means = forecast_scores(art), forecast_actual_means(art)
        label = tuned_checkpoint(art) or next((k for k, v in scores.items() if v), None)
        scored = [s for s in scores.get(label or "", []) if means.get(s.target)]
        if not scored:
            continue
        worst = max(scored, key=lambda s: s.mae / means[s.target])
        share = worst.mae / means[worst.target]
        answer: Answer = "Yes" if share <= GOOD_ENOUGH else "Partly" if share <= 2 * GOOD_ENOUGH else "No"
        verdict = {"Yes": "good enough to plan with", "Partly": "usable for rough planning only",
                   "No": "not reliable enough to plan with"}[answer]
        said = worst.target.removeprefix(f"{art.asset_ids[0]} ") if art.asset_ids else worst.target
        lines = [f"- {s.target}: MAE {number(s.mae)} against a running mean of {number(means[s.target])} "
                 f"({s.pairs} points) [{art.id}]" for s in scored]
        return Verdict(answer, f"{answer}, the forecast is {verdict}: its typical error on {said.lower()} is "
                               f"{number(worst.mae)}, {share:.0%} of the running level of {number(means[worst.target])}.",
                       lines)
    return None


def forecast_threshold_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Will the forecast cross a level the question names? Yes when the forecast's peak (its low, for "below")
    passes it over the forecast horizon; None without a level, a forecast, or the reading forecast."""
    asked = asked_level(question)
    forecasts = [a for a in artifacts if a.kind == "forecast" and isinstance(a.results.get("per_target"), dict)]
    if asked is None or not forecasts:
        return None
    level, below = asked.level, asked.below
    named = asked.sensors
    for art in forecasts:
        per_target = art.results["per_target"]
        target = next((t for t in per_target if any(t.endswith(n) for n in named)), None)
        if target is None:
            continue
        entry = per_target[target]
        edge = float(entry["min"] if below else entry["max"])
        crosses = edge < level if below else edge > level
        answer: Answer = "Yes" if crosses else "No"
        way = "low" if below else "peak"
        span = f"between {str(entry['from'])[:16].replace('T', ' ')} and {str(entry['to'])[:16].replace('T', ' ')}"
        said = target.removeprefix(f"{art.asset_ids[0]} ") if art.asset_ids else target
        side = ("below" if below else "above") if crosses else ("not below" if below else "not above")
        return Verdict(answer, f"{answer}, the forecast {way} of {', '.join(art.asset_ids)} {said.lower()} is "
                               f"{number(edge)} {span}, {side} {asked.text}.",
                       [f"- {said}: forecast range {number(float(entry['min']))} to {number(float(entry['max']))} "
                        f"(mean {number(float(entry['mean']))}) [{art.id}]",
                        "(a model forecast: its error grows with lead time)"])
    return None
