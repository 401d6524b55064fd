"""Yes/no answers decided from the turn's evidence: "Yes", "No" or "Not clearly" first, then why.

Pure functions over artifact results, one per kind of evidence: anomaly shares against the
detector's false-alarm rate, corrective work orders per year, sensor-validity verdicts, a named
failure mode against the diagnosis, alert rules that fired. `yes_no_verdict` picks the one that
fits the question and the evidence at hand; with none, the answer is "Not clearly" and says why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from artifacts.model import Artifact
from artifacts.readings import (
    Hypothesis,
    alert_rules,
    anomaly_rate,
    hypotheses,
    sensor_verdicts,
    sustained_shifts,
    work_order_counts,
)
from graph.answering.asked_figures import named_rules, rule_text
from graph.answering.markdown import chillers, join_names
from specialists.maintenance.prioritize import FALSE_ALARM_RATE

Answer = Literal["Yes", "No", "Not clearly"]
CLEAR_ANOMALY_RATE = 2 * FALSE_ALARM_RATE  # above twice the false-alarm rate the flags are a finding
TREND_PER_YEAR = 0.5  # corrective orders a year: a slope smaller than this is "steady"
NO_FAULT = "no fault"
# A question about health ("is it running normally?") is answered yes when nothing is wrong.
_HEALTHY = re.compile(r"\b(normal(ly)?|fine|ok(ay)?|healthy|good|within (spec|limits)|as expected)\b", re.I)
_FEWER = re.compile(r"\b(less|fewer|decreas\w*|improv\w*|getting better|down)\b", re.I)
_REAL = re.compile(r"\b(real|actual|genuine|process)\b", re.I)
_WORDS = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class Verdict:
    """A yes/no answer: the word, the sentence that opens the answer, the evidence lines after it."""

    answer: Answer
    sentence: str
    evidence: list[str] = field(default_factory=list)


def _flip(answer: Answer) -> Answer:
    return "No" if answer == "Yes" else "Yes" if answer == "No" else answer


def anomaly_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Is something abnormal? Yes when the anomalous share of running samples is well above the
    detector's false-alarm rate (or a sustained shift was found), no when it is at or below it."""
    found = [(a, rate) for a in artifacts if a.kind == "anomaly_detection" and (rate := anomaly_rate(a)) is not None]
    if not found:
        return None
    lines, flagged, unclear = [], [], []
    for art, rate in found:
        asset = ", ".join(art.asset_ids)
        shifts = sustained_shifts(art)
        lines.append(f"- {asset}: {rate:.1%} of running samples flagged"
                     + (f"; sustained shift: {shifts[0]}" if shifts and shifts[0] else "")
                     + f" [{art.id}]")
        if rate > CLEAR_ANOMALY_RATE or shifts:
            flagged.append(asset)
        elif rate > FALSE_ALARM_RATE:
            unclear.append(asset)
    rate_note = f"the detector flags about {FALSE_ALARM_RATE:.0%} of samples on healthy data"
    if flagged:
        answer: Answer = "Yes"
        body = f"{chillers(flagged)} {'shows' if len(flagged) == 1 else 'show'} abnormal behaviour, well above {rate_note}"
    elif unclear:
        # Up to twice the nominal rate is what the detector flags on fault-free data too (measured 5-11%
        # by `python -m bench tsfm`), so it is no finding: answered as nothing abnormal, the figure given.
        answer = "No"
        body = (f"nothing abnormal stands out: {chillers(unclear)} {'is' if len(unclear) == 1 else 'are'} only "
                f"slightly above {rate_note}, within what it flags on fault-free data")
    else:
        answer = "No"
        body = f"nothing abnormal stands out: every share is within {rate_note}"
    if _HEALTHY.search(question):
        answer = _flip(answer)
    return Verdict(answer, f"{answer}{':' if answer == 'Not clearly' else ','} {body}.", lines)


# Words that make a work-order question about frequency ("are breakdowns getting more frequent?"); without
# them it asks whether there is one ("any WO?", "was a work order raised for it?").
_FREQUENCY = re.compile(r"\b(often|frequent\w*|more|fewer|less|increas\w*|decreas\w*|rising|trend\w*|getting|"
                        r"per year|a year|every year|breaking down|keeps?)\b", re.I)


def _recent_orders(artifact: Artifact) -> list[dict[str, object]]:
    recent = artifact.results.get("recent")
    return [r for r in recent if isinstance(r, dict)] if isinstance(recent, list) else []


def work_order_existence_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Is there a work order (for it)? From the work-order listings of the turn: yes with the latest ones."""
    if _FREQUENCY.search(question):
        return None
    found = [a for a in artifacts if a.kind == "work_order_summary"]
    if not found:
        return None
    lines, total = [], 0
    for art in found:
        count = work_order_counts(art).total or 0
        total += count
        where = ", ".join(art.asset_ids or art.equipment_ids)
        latest = [f"{r.get('wo_id')} on {r.get('date')}" + (f" ({r.get('code')} {r.get('description')})"
                                                           if r.get("code") else "") for r in _recent_orders(art)[:3]]
        lines.append(f"- {where}: {count} work order{'s' if count != 1 else ''} ({art.summary})"
                     + (f"; latest: {'; '.join(latest)}" if latest else "") + f" [{art.id}]")
    if total == 0:
        return Verdict("No", "No, there is no work order in the period looked at.", lines)
    first = _recent_orders(found[-1])[:1]
    latest_text = f"; the latest is {first[0].get('wo_id')} on {first[0].get('date')}" if first else ""
    return Verdict("Yes", f"Yes, {total} work order{'s' if total != 1 else ''} in the period looked at{latest_text}.",
                   lines)


def breakdown_trend_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Are breakdowns getting more frequent? From corrective orders per complete year and their slope."""
    found = [(a, c) for a in artifacts if a.kind == "work_order_summary" and (c := work_order_counts(a)).corrective_per_year]
    if not found:
        return None
    art, wo = found[-1]
    per_year = wo.corrective_per_year
    years = sorted(per_year)
    counts = [per_year[y] for y in years]
    where = ", ".join(art.asset_ids or art.equipment_ids)
    series = f"{', '.join(str(c) for c in counts)} corrective orders a year {years[0]}-{years[-1]}"
    partial = wo.partial_year
    evidence = [f"- {where}: {series}"
                + (f"; {wo.partial_year_corrective} so far in {partial}" if partial else "")
                + f" [{art.id}]"]
    slope = wo.corrective_trend_per_year
    if len(counts) < 2 or slope is None:
        return Verdict("Not clearly", f"Not clearly: {where} has fewer than two complete years of work orders "
                                      f"({series}).", evidence)
    if slope >= TREND_PER_YEAR and counts[-1] > counts[0]:
        answer: Answer = "Yes"
        body = f"breakdowns are getting more frequent: {series}"
    elif slope <= -TREND_PER_YEAR and counts[-1] < counts[0]:
        answer = "No"
        body = f"breakdowns are getting less frequent: {series}"
    else:
        answer = "No"
        body = f"breakdowns are roughly steady: {series}"
    if _FEWER.search(question) and answer != "Not clearly" and "steady" not in body:
        answer = _flip(answer)
    return Verdict(answer, f"{answer}, {body}.", evidence)


def sensor_validity_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Is the drift the sensor (or real)? From the sensor-validity verdicts and the coupled signals."""
    found = [(a, v) for a in artifacts if a.kind == "sensor_validity" and (v := sensor_verdicts(a))]
    if not found:
        return None
    art, verdicts = found[-1]
    drift = [v.sensor for v in verdicts if v.verdict == "sensor_drift"]
    real = [v.sensor for v in verdicts if v.verdict == "real_change"]
    evidence = [f"- {v.sensor}: {v.verdict.replace('_', ' ')}"
                + (f", moved {v.shift:+.2f} degF at equal load" if v.shift is not None else "")
                + f", {v.followers} coupled signal(s) followed" for v in verdicts]
    evidence.append(f"Source: [{art.id}]")
    asks_real = bool(_REAL.search(question))
    sensor_is_it: Answer
    if drift and not real:
        sensor_is_it = "Yes"
        body = f"it looks like sensor drift: {join_names(drift)} moved on its own, its coupled signals did not follow"
    elif real and not drift:
        sensor_is_it = "No"
        body = f"the change is real: the coupled signals moved with {join_names(real)}"
    else:
        return Verdict("Not clearly", "Not clearly: the coupled signals neither confirm nor rule out sensor "
                                      "drift.", evidence)
    answer = _flip(sensor_is_it) if asks_real else sensor_is_it
    return Verdict(answer, f"{answer}, {body}.", evidence)


def _mode_words(text: str) -> set[str]:
    return {w for w in _WORDS.findall(text.lower()) if len(w) > 3 and w not in {"side", "water", "chiller"}}


def named_mode(question: str, ranked: list[Hypothesis]) -> Hypothesis | None:
    """The hypothesis the question names ("is it condenser fouling?"): the one sharing most words."""
    asked = _mode_words(question)
    scored = [(len(asked & _mode_words(h.failure_mode)), i, h) for i, h in enumerate(ranked)]
    best: tuple[int, int, Hypothesis | None] = max(scored, key=lambda s: (s[0], -s[1]), default=(0, 0, None))
    return best[2] if best[0] else None


def failure_mode_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Is it <failure mode>? (or: is there a fault?) The named mode against the top hypothesis."""
    found = [(a, h) for a in artifacts if a.kind == "diagnose" and (h := hypotheses(a))]
    if not found:
        return None
    art, ranked = found[-1]
    top = ranked[0]
    low, high = top.bounds
    top_mode = top.failure_mode
    asset = ", ".join(art.asset_ids)
    evidence = [f"- {h.failure_mode}: {h.bounds[0]:.2f}-{h.bounds[1]:.2f}" for h in ranked[:3]]
    evidence.append(f"Source: diagnosis of {asset} [{art.id}]")
    asked = named_mode(question, ranked)
    if asked is None:  # "is there a fault?", "is it serious?"
        if top_mode.lower().startswith(NO_FAULT):
            answer: Answer = "No"
            body = f"no fault stands out on {asset} ({top_mode} {low:.2f}-{high:.2f})"
        else:
            answer = "Yes"
            body = f"the most likely cause on {asset} is {top_mode} ({low:.2f}-{high:.2f})"
        answer = _flip(answer) if _HEALTHY.search(question) else answer  # "is it running fine?"
        return Verdict(answer, f"{answer}, {body}.", evidence)
    mode = asked.failure_mode
    a_low, a_high = asked.bounds
    if asked is top:
        second = ranked[1] if len(ranked) > 1 else None
        clear = second is None or second.bounds[1] < low
        answer = "Yes" if clear else "Not clearly"
        rival = f"; {second.failure_mode} is close ({second.bounds[0]:.2f}-{second.bounds[1]:.2f})" \
            if second is not None and not clear else ""
        punct = "," if answer == "Yes" else ":"
        return Verdict(answer, f"{answer}{punct} {mode} is the most likely cause on {asset} "
                               f"({low:.2f}-{high:.2f}){rival}.", evidence)
    if a_high < low:
        return Verdict("No", f"No, {mode} is less likely ({a_low:.2f}-{a_high:.2f}); the most likely cause on "
                             f"{asset} is {top_mode} ({low:.2f}-{high:.2f}).", evidence)
    return Verdict("Not clearly", f"Not clearly: {mode} ({a_low:.2f}-{a_high:.2f}) is close behind the most "
                                  f"likely cause, {top_mode} ({low:.2f}-{high:.2f}).", evidence)


def alert_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Did alerts fire? From the alert-rule activity of each equipment id."""
    found = [(a, r) for a in artifacts if a.kind == "alert_rules" and (r := alert_rules(a)) is not None]
    if not found:
        return None
    fired: list[str] = []
    evidence, named_counts = [], []
    for art, rules in found:
        count = sum(r.count for r in rules)
        where = ", ".join(art.equipment_ids or art.asset_ids)
        named = named_rules(question, rules)  # "is the Evaporator Approach High rule firing?": that rule's count
        named_counts += [(where, r) for r in named]
        evidence.append(f"- {where}: {count} alerts from {sum(1 for r in rules if r.count)} rule(s)"
                        + "".join(f", {r.count} from {rule_text(r)}" for r in named) + f" [{art.id}]")
        if count:
            fired.append(where)
    if named_counts:
        said = join_names([f"{rule_text(r)} fired {r.count} time{'s' if r.count != 1 else ''} on {where}"
                           for where, r in named_counts])
        answer: Answer = "Yes" if any(r.count for _, r in named_counts) else "No"
        return Verdict(answer, f"{answer}, {said}.", evidence)
    if fired:
        return Verdict("Yes", f"Yes, alerts fired on {join_names(fired)}.", evidence)
    return Verdict("No", "No, no alert rule fired in this period.", evidence)


# Most specific first: a named failure mode or a sensor question beats a general anomaly share.
CHECKS = (failure_mode_verdict, sensor_validity_verdict, work_order_existence_verdict, breakdown_trend_verdict,
          alert_verdict, anomaly_verdict)


def yes_no_verdict(question: str, artifacts: list[Artifact]) -> Verdict:
    """The yes/no answer the evidence supports; "Not clearly" with the reason when none fits."""
    ranked = [h for a in artifacts if a.kind == "diagnose" for h in hypotheses(a)]
    checks = CHECKS if named_mode(question, ranked) else CHECKS[1:] + CHECKS[:1]
    for check in checks:
        verdict = check(artifacts, question)
        if verdict is not None:
            return verdict
    if not artifacts:
        return Verdict("Not clearly", "Not clearly: this turn produced no evidence that settles it.")
    kinds = join_names(sorted({a.kind.replace("_", " ") for a in artifacts}))
    return Verdict("Not clearly", f"Not clearly: the {kinds} of this turn does not answer yes or no by itself.")
