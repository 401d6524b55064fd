"""Yes/no answers decided from the turn's evidence: "Yes", "No", "Partly" or "Not clearly" first, then why.

Pure functions over artifact results, one family per kind of evidence: anomaly shares against the
detector's false-alarm rate, work orders (is there one, are breakdowns getting more frequent),
sensor-validity verdicts, alert rules that fired; beside this module, diagnoses and health
(diagnosis_verdicts), comparisons of two assets or periods (compare_verdicts), what changed between two
windows (change_verdicts), the records' analyses (record_verdicts), sensor health and tuned models
(signal_verdicts). `yes_no_verdict` tries them most specific first; when none fits, the answer says so
and still opens with the turn's most relevant finding.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from functools import lru_cache

from artifacts.model import Artifact
from artifacts.readings import (
    Hypothesis,
    OrderRef,
    RankingRow,
    RuleCount,
    WorkOrderCounts,
    alert_rules,
    anomaly_rate,
    asked_rules,
    hypotheses,
    kpi_anomalies,
    latest_per_job,
    listed_kind,
    ranking,
    recent_orders,
    sensor_verdicts,
    sustained_shifts,
    work_order_counts,
)
from graph.answering.asked_figures import (
    asked_level,
    asked_sensors,
    coded_orders,
    figure_text,
    level_sentence,
    named_rules,
    rule_text,
    sensor_figures,
    setpoint_held,
    setpoint_offset_change,
    setpoint_side,
)
from graph.answering.change_verdicts import attribution_verdict, repair_verdict
from graph.answering.compare_terms import comparison_sense, window_phrase
from graph.answering.compare_verdicts import comparison_verdict
from graph.answering.diagnosis_verdicts import (
    TRIP_WORDS,
    asks_health,
    asks_of_a_mode,
    failure_mode_verdict,
    fault_count_verdict,
    health_verdict,
    named_mode,
    same_cause_verdict,
    trip_verdict,
)
from graph.answering.figures import sensor_label
from graph.answering.fleet_ranking import compare_assets, ranking_lines
from graph.answering.markdown import chillers, join_names
from graph.answering.record_verdicts import alert_outcome_verdict, bundle_verdict
from graph.answering.sections import first_clause
from graph.answering.signal_verdicts import (
    forecast_accuracy_verdict,
    forecast_threshold_verdict,
    forecast_verdict,
    sensor_health_verdict,
    stopped_sensors,
)
from graph.answering.trend_verdicts import running_again_verdict, worsening_verdict
from graph.answering.yes_no import Answer, Verdict, flip
from graph.understanding.model import speaks_of_alerts
from graph.understanding.off_topic import function_words
from graph.understanding.request import asks_data_available, asks_if_resolved, doubts_instrument
from graph.understanding.vocabulary import vocabulary
from specialists.maintenance.drafting import repair_codes
from specialists.maintenance.prioritize import FALSE_ALARM_RATE

__all__ = ["Answer", "Verdict", "fleet_pick_verdict", "named_mode", "yes_no_verdict"]

CLEAR_ANOMALY_RATE = 2 * FALSE_ALARM_RATE  # above twice the false-alarm rate the flags are a finding
LATEST_AGAINST_EARLIER = 0.2  # the latest year 20% above (below) the earlier years' mean is a rise (a fall)
_SUPPORTING_KINDS = frozenset({"telemetry_window", "validation_protocol", "restart_checklist", "monitoring_config",
                               "finetune"})
_REAL = re.compile(r"\b(real|actual|genuine|process)\b", re.I)
# A question about change over time or against another case: one anomaly share or one alert count does
# not answer it ("has it got worse every year?", "more alerts than last month?"); "worse than normal" does.
_COMPARATIVE = re.compile(r"\bthan\b(?!\s+(normal|usual|expected|it should|designed|spec))|\b(more|less) "
                          r"(frequent\w*|often)\b|\b(every|each) year\b|\byear (on|over) year\b|\bover the years\b|"
                          r"\b(getting|gotten|got|grown|growing|become|becoming) (worse|better|more|less|fewer)\b|"
                          # "was 2019 any quieter?": set against the period discussed
                          r"\b(any|much|a lot|even) (quieter|busier|noisier|calmer|better|worse)\b", re.I)


def _most_flagged(art: Artifact) -> str:
    """", mostly in its condenser water flow": the reading an anomaly run flagged most (its share is in the evidence)."""
    per_sensor = art.results.get("per_sensor")
    rated = [(float(v["rate"]), str(v.get("sensor") or k)) for k, v in per_sensor.items()
             if isinstance(v, dict) and isinstance(v.get("rate"), int | float)] if isinstance(per_sensor, dict) else []
    if not rated:
        return ""
    sensor = max(rated)[1]
    label = sensor_label(sensor, art.asset_ids[0] if art.asset_ids else "").lower()
    return f", mostly in its {label}"


def anomaly_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Is something abnormal? Yes when the anomalous share of running samples is well above the
    detector's false-alarm rate (or a sustained shift was found), no when it is at or below it."""
    found = [(a, rate) for a in artifacts if a.kind == "anomaly_detection" and (rate := anomaly_rate(a)) is not None]
    # A trend, a comparison or a trip is another question: an anomaly share does not answer it.
    if not found or _COMPARATIVE.search(question) or TRIP_WORDS.search(question):
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
    # (a sensor that stopped reporting while the others went on is something going on, a trip or a dead instrument,
    # whatever share the detector flags)
    stopped = [f"{sensor} {when}" for sensor, when in stopped_sensors(artifacts)]
    if stopped and not flagged and not asks_health(question):
        return Verdict("Yes", f"Yes, {join_names(stopped[:2])} while the other sensors went on "
                              "(a trip or a dead instrument).", lines)
    if flagged:
        answer: Answer = "Yes"
        # "anything odd?" wants what is odd: the reading flagged most, for one chiller
        where = _most_flagged(next(a for a, _ in found if ", ".join(a.asset_ids) == flagged[0])) \
            if len(flagged) == 1 else ""
        body = f"{chillers(flagged)} {'shows' if len(flagged) == 1 else 'show'} abnormal behaviour{where}, well above " \
               f"{rate_note}"
    elif unclear:
        # Up to twice the nominal rate is what the detector flags on fault-free data too (measured 5-11%
        # by `python -m bench tsfm`), so it is no finding: answered as nothing abnormal, the figure given.
        answer = "No"
        body = (f"nothing abnormal stands out: {chillers(unclear)} {'is' if len(unclear) == 1 else 'are'} only "
                f"slightly above {rate_note}, within what it flags on fault-free data")
    else:
        answer = "No"
        body = f"nothing abnormal stands out: every share is within {rate_note}"
    if asks_health(question):
        answer = flip(answer)
    return Verdict(answer, f"{answer}{':' if answer == 'Not clearly' else ','} {body}.", lines)


# Words that make a work-order question about frequency ("are breakdowns getting more frequent?"); without
# them it asks whether there is one ("any WO?", "was a work order raised for it?").
_FREQUENCY = re.compile(r"\b(often|frequent\w*|more|fewer|less|increas\w*|decreas\w*|rising|trend\w*|getting|"
                        r"per year|a year|every year|breaking down|keeps?|worse|better|than)\b", re.I)


# Words of a failure mode too generic to tie an order to it ("Failed due to Normal wear").
_GENERIC_MODE_WORDS = frozenset({"failed", "failure", "fault", "normal", "wear", "due", "other", "chiller", "system",
                                 "side", "water"})


_FAMILY_WEIGHT = 2


def _order_for(mode: str, orders: list[OrderRef]) -> OrderRef | None:
    """The order that names most of the failure mode's distinctive words (the latest on a tie), if any does."""
    words = {w for w in re.findall(r"[a-z]+", mode.lower()) if len(w) > 3} - _GENERIC_MODE_WORDS
    # (an order of the work that deals with the mode, "Condenser Tube Cleaning" for condenser fouling, counts as two
    # words: its code says what it was for)
    family = repair_codes(mode)
    scored = [(len(words & set(re.findall(r"[a-z]+", f"{o.code} {o.description}".lower())))
               + (_FAMILY_WEIGHT if o.code in family else 0), o.date, o) for o in orders]
    best = max(scored, key=lambda s: (s[0], s[1]), default=None)
    return best[2] if best is not None and best[0] > 0 else None


# "did any unit get through 2020 with zero corrective WOs?", "was there a chiller without a single breakdown?":
# whether one of the equipment counted had none.
_ANY_WITH_NONE = re.compile(r"\b(?:any|a|one|anyone|anything)\b.*\b(?:zero|no|without(?: a single| any)?|free of|"
                            r"none)\b(?! (?:idea|one)\b)", re.I)


def count_threshold_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """"More than 5?" of one chiller's records (work orders of the kind counted, or alerts): its count against
    that number. None without a bare number to hold the count against, or without one asset's records."""
    asked = asked_level(question)
    if asked is None or asked.sensors or asked.unit:
        return None
    counted: dict[str, int] = {}
    what = ""
    for art in artifacts:
        where = chillers(art.asset_ids) or ", ".join(art.equipment_ids)
        if art.kind == "work_order_summary":
            corrective = listed_kind(art) == "corrective"
            counts = work_order_counts(art)
            counted[where] = counted.get(where, 0) + ((counts.corrective if corrective else counts.total) or 0)
            what = "corrective work orders" if corrective else "work orders"
        elif art.kind == "alert_rules" and (rules := alert_rules(art)) is not None:
            counted[where] = counted.get(where, 0) + sum(r.count for r in rules)
            what = "alerts"
    if len(counted) != 1 or not what:
        return None
    (where, count), = counted.items()
    beyond = count < asked.level if asked.below else count > asked.level
    answer: Answer = "Yes" if beyond else "No"
    side = "fewer than" if asked.below else "more than"
    period = window_phrase(artifacts[0]) if artifacts else ""
    sentence = f"{answer}, {where} had {count} {what} {period}".rstrip() + \
        ("." if beyond else f", not {side} {asked.level:g}.")
    return Verdict(answer, sentence, [f"- {where}: {count} {what} [{a.id}]" for a in artifacts[:1]])


def _zero_alerts_verdict(found: list[Artifact]) -> Verdict:
    """Yes with the equipment that logged no alert over the listing's period, else no with the fewest."""
    counted = sorted(((chillers(a.asset_ids) or ", ".join(a.equipment_ids), sum(r.count for r in alert_rules(a) or []))
                      for a in found), key=lambda pair: pair[1])
    period = window_phrase(found[0]) or "in the period looked at"
    lines = [f"- {name}: {n} alerts" for name, n in counted]
    none = [name for name, n in counted if n == 0]
    if none:
        return Verdict("Yes", f"Yes, {join_names(none)} logged no alerts {period}.", lines)
    return Verdict("No", f"No, every one of the {len(counted)} logged alerts {period}; the fewest: {counted[0][0]} with "
                         f"{counted[0][1]}.", lines)


def zero_records_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Did any of the equipment counted have no work order (of the kind counted) in the period? Yes with the ones
    that had none, else no with the fewest. None unless the turn counted several equipment ids."""
    if not _ANY_WITH_NONE.search(question):
        return None
    found = [a for a in artifacts if a.kind == "work_order_summary" and (a.equipment_ids or a.asset_ids)]
    alerted = [a for a in artifacts if a.kind == "alert_rules" and alert_rules(a) is not None
               and (a.equipment_ids or a.asset_ids)]
    if len({tuple(a.equipment_ids or a.asset_ids) for a in found}) < 2 and \
            len({tuple(a.equipment_ids or a.asset_ids) for a in alerted}) >= 2:
        return _zero_alerts_verdict(alerted)  # "did any unit get through the month with zero?" after an alert count
    if len({tuple(a.equipment_ids or a.asset_ids) for a in found}) < 2:
        return None
    kind = "corrective " if all(listed_kind(a) == "corrective" for a in found) else ""

    def count(art: Artifact) -> int:
        counts = work_order_counts(art)
        return (counts.corrective if kind else counts.total) or 0

    counted = sorted(((chillers(a.asset_ids) or ", ".join(a.equipment_ids), count(a)) for a in found),
                     key=lambda pair: pair[1])
    period = window_phrase(found[0]) or "in the period looked at"
    lines = [f"- {name}: {n}" for name, n in counted]
    none = [name for name, n in counted if n == 0]
    if none:
        return Verdict("Yes", f"Yes, {join_names(none)} had no {kind}work orders {period}.", lines)
    fewest = [name for name, n in counted if n == counted[0][1]]
    return Verdict("No", f"No, every one of the {len(counted)} had at least one {kind}work order {period}; the fewest: "
                         f"{join_names(fewest)} with {counted[0][1]}.", lines)


def work_order_existence_verdict(artifacts: list[Artifact], question: str = "",
                                 session: list[Artifact] | None = None) -> Verdict | None:
    """Is there a work order (for it)? From the work-order listings of the turn: yes with the latest ones,
    and the one for the fault the session diagnosed when an order names it ("were work orders raised for
    it?" after "compressor overheating" is answered with the overheating order, not the latest oil change)."""
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
        latest = [f"{r.wo_id} on {r.date}" + (f" ({r.code} {r.description})" if r.code else "")
                  for r in recent_orders(art)[:3]]
        lines.append(f"- {where}: {count} work order{'s' if count != 1 else ''} ({art.summary})"
                     + (f"; latest: {'; '.join(latest)}" if latest else "") + f" [{art.id}]")
    period = window_phrase(found[-1]) or "in the period looked at"
    if total == 0:
        return Verdict("No", f"No, there is no work order {period}.", lines)
    first = recent_orders(found[-1])[:1]
    what = f" ({first[0].code} {first[0].description})".replace(" )", ")") if first and first[0].code else ""
    latest_text = f"; the latest is {first[0].wo_id} on {first[0].date}{what}" if first else ""
    matched = _order_for_the_diagnosis(found, session or [])
    described = _order_described(found, question)
    if matched is not None:  # the order for the fault the session diagnosed says most
        match, diagnosed = matched
        latest_text = (f"; {match.wo_id} on {match.date} ({match.code} {match.description}) is for the diagnosed "
                       f"{diagnosed}").replace(" )", ")")
    elif described is not None:  # "there's already a condenser-plugged job on file, isn't there?": that order
        latest_text = f"; {described.wo_id} on {described.date} ({described.code} {described.description})".replace(
            " )", ")")
    elif (coded := coded_orders(question, found)) is not None:
        # "it had a couple water leaks this year, didn't it?": the orders coded for that work
        return Verdict("Yes", f"Yes, {coded.total} {coded.words} work order{'s' if coded.total != 1 else ''} on "
                              f"{coded.where}: {coded.codes}.", lines)
    return Verdict("Yes", f"Yes, {total} work order{'s' if total != 1 else ''} {period}{latest_text}.", lines)


_CONTENT_WORD = re.compile(r"[a-z]{4,}")


@lru_cache(maxsize=1)
def _words_of_no_order() -> frozenset[str]:
    """Words that describe no particular order: function words, periods, and the words for records themselves."""
    vocab = vocabulary()
    record_words = {w for phrase in vocab.pick_objects.get("work_orders", ()) for w in phrase.split()}
    return frozenset(function_words()) | frozenset(vocab.months) | frozenset(vocab.seasons) \
        | frozenset(record_words) | {vocab.asset_word, vocab.asset_plural_word, "file", "record", "records"}


def _order_described(found: list[Artifact], question: str) -> OrderRef | None:
    """The listed order the question describes by the words of its code ("a condenser-plugged job" is the M013
    Condenser Plugged order): two of the question's words in the order's description, the latest such order."""
    said = set(_CONTENT_WORD.findall(question.lower())) - _words_of_no_order()
    listed = list({o.wo_id: o for art in found for o in [*recent_orders(art), *latest_per_job(art)]}.values())
    fitting = [o for o in listed if len(said & set(_CONTENT_WORD.findall(f"{o.code} {o.description}".lower()))) >= 2]
    return max(fitting, key=lambda o: o.date) if fitting else None


def _order_for_the_diagnosis(found: list[Artifact], session: list[Artifact]) -> tuple[OrderRef, str] | None:
    """The listed work order that names the fault the session diagnosed last on these chillers, and that fault."""
    diagnoses = [a for a in session if a.kind == "diagnose" and hypotheses(a)
                 and set(a.asset_ids) & {x for art in found for x in art.asset_ids}]
    diagnosis = max(diagnoses, key=lambda a: a.turn_index or 0, default=None)
    diagnosed = [h.failure_mode for h in hypotheses(diagnosis)[:1]
                 if not h.failure_mode.lower().startswith("no fault")] if diagnosis else []
    listed = list({o.wo_id: o for art in found for o in [*recent_orders(art), *latest_per_job(art)]}.values())
    match = _order_for(diagnosed[0], listed) if diagnosed else None
    return (match, diagnosed[0].split(":")[0]) if match is not None else None


# "when did we sort that out?", "was it fixed, and when?", "was it dealt with? if so when": the date asked
_ASKS_WHEN = re.compile(r"^\W*(?:so |and |ok )?when\b|\band when\b|\bif so,? when\b")


def when_resolved_sentence(question: str, artifacts: list[Artifact], session: list[Artifact]) -> str | None:
    """"When did we sort that out?": the date of the work order for the fault diagnosed, first; None when the
    question asks no such thing or no listed order names that fault."""
    if not asks_if_resolved(question.lower()) or not _ASKS_WHEN.search(question.lower()):
        return None
    matched = _order_for_the_diagnosis([a for a in artifacts if a.kind == "work_order_summary"], session)
    if matched is None:
        return None
    match, diagnosed = matched
    return f"On {match.date}: {match.wo_id} ({match.code} {match.description}), for the diagnosed {diagnosed}."


def _year_so_far(artifacts: list[Artifact], where: str, years: set[str]) -> str | None:
    """"12 so far in 2020": the corrective count of a listing over part of one year outside the series, the latest."""
    for art in reversed(artifacts):
        start, end = art.window_start, art.window_end
        if art.kind != "work_order_summary" or ",".join(art.asset_ids or art.equipment_ids) != where \
                or start is None or end is None or str(start.year) in years:
            continue
        counts = work_order_counts(art)
        if counts.partial_year and counts.partial_year not in years and counts.partial_year_corrective is not None:
            return f"{counts.partial_year_corrective} so far in {counts.partial_year}"  # ("and 2019 so far": that year)
        if counts.corrective is not None and not counts.corrective_per_year and (end - start).days < _DAYS_IN_A_YEAR \
                and (end - timedelta(seconds=1)).year == start.year:
            return f"{counts.corrective} so far in {start.year}"
    return None


_DAYS_IN_A_YEAR = 365


def _one_trend(art: Artifact, wo: WorkOrderCounts, question: str) -> Verdict:
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
    # "more often than it used to": the latest complete year against the years before it (1, 8, 3 is no
    # rise, whatever a line through it says); the slope only confirms the direction
    earlier = sum(counts[:-1]) / len(counts[:-1])
    if counts[-1] > earlier * (1 + LATEST_AGAINST_EARLIER) and slope > 0:
        answer: Answer = "Yes"
        body = f"breakdowns are getting more frequent: {series}"
    elif counts[-1] < earlier * (1 - LATEST_AGAINST_EARLIER):
        answer = "No"
        body = f"breakdowns are less frequent than before: {series} ({counts[-1]} in {years[-1]} against " \
               f"{earlier:.1f} a year before)"
    else:
        answer = "No"
        body = f"breakdowns are roughly steady: {series}"
    # "getting less frequent?", "is it getting better?" ask the opposite ("breaking down" is no direction).
    if comparison_sense(question, higher_is_worse=True) == "lower" and "steady" not in body:
        answer = flip(answer)
    return Verdict(answer, f"{answer}, {body}.", evidence)


def _merged_years(first: WorkOrderCounts, second: WorkOrderCounts) -> WorkOrderCounts:
    """Two listings' corrective orders per complete year as one series, with its least-squares slope."""
    # (a year at the edge of a listing's window reads 0 there: the listing that covers it has the count)
    per_year = {y: max(first.corrective_per_year.get(y, 0), second.corrective_per_year.get(y, 0))
                for y in {*first.corrective_per_year, *second.corrective_per_year}}
    if per_year == second.corrective_per_year:
        return second
    years = sorted(per_year)
    xs = [float(y) for y in years]
    ys = [float(per_year[y]) for y in years]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread if spread else None
    return replace(second, corrective_per_year={y: per_year[y] for y in years}, corrective_trend_per_year=slope)


def _earlier_listings(turn: list[Artifact], session: list[Artifact]) -> list[Artifact]:
    """The session's work-order listings of this turn's chillers ("so it's getting worse?" after last year, then
    the year before: both years are the series), oldest first."""
    mine = {a.id for a in turn}
    assets = {x for a in turn if a.kind == "work_order_summary" for x in a.asset_ids}
    return [a for a in session if a.kind == "work_order_summary" and a.id not in mine and set(a.asset_ids) & assets]


def breakdown_trend_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Are breakdowns getting more frequent? From corrective orders per complete year and their slope,
    per asset when the turn looked at several ("yes on Chiller 6 ...; no on Chiller 4 ...")."""
    latest: dict[str, tuple[Artifact, WorkOrderCounts]] = {}
    for a in artifacts:
        if a.kind == "work_order_summary" and (c := work_order_counts(a)).corrective_per_year:
            where = ",".join(a.asset_ids or a.equipment_ids)
            earlier = latest.get(where)
            # one listing per year ("for 2018, 2019 and 2020"): the years of all of them, one series
            latest[where] = (a, _merged_years(earlier[1], c) if earlier else c)
    if not latest:
        return None
    verdicts = {where: _one_trend(art, wo, question) for where, (art, wo) in latest.items()}
    if len(verdicts) == 1:
        where, verdict = next(iter(verdicts.items()))
        year_so_far = _year_so_far(artifacts, where, set(latest[where][1].corrective_per_year))
        if year_so_far is None:
            return verdict
        # "and so far this year?" after three years' counts: the year under way, beside the series
        return Verdict(verdict.answer, f"{verdict.sentence.rstrip('.')}; {year_so_far}.", verdict.evidence)
    answers = {v.answer for v in verdicts.values()}
    evidence = [line for v in verdicts.values() for line in v.evidence]
    parts = "; ".join(f"{where}: {v.sentence.split(', ' if v.answer != 'Not clearly' else ': ', 1)[-1].rstrip('.')}"
                      for where, v in verdicts.items())
    if len(answers) == 1:
        answer: Answer = answers.pop()
        return Verdict(answer, f"{answer} on all {len(verdicts)}: {parts}.", evidence)
    answer = "Yes" if "Yes" in answers else "Not clearly"
    yes = join_names([w for w, v in verdicts.items() if v.answer == "Yes"])
    rest = join_names([w for w, v in verdicts.items() if v.answer != "Yes"])
    lead = f"Yes on {yes}, not on {rest}" if answer == "Yes" else "Not clearly"
    return Verdict(answer, f"{lead} ({parts}).", evidence)


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
    elif verdicts and all(v.verdict == "no_change" for v in verdicts):
        # neither: "is its return temp sensor drifting, or is that a real change?" when nothing moved
        return Verdict("No", f"No, neither sensor drift nor a real change: {join_names([v.sensor for v in verdicts])} "
                             "stayed within its normal spread at equal load.", evidence)
    else:
        return Verdict("Not clearly", "Not clearly: the coupled signals neither confirm nor rule out sensor "
                                      "drift.", evidence)
    answer = flip(sensor_is_it) if asks_real else sensor_is_it
    return Verdict(answer, f"{answer}, {body}.", evidence)


# A failure mode that is the instrument's own ("Temperature Sensor: Calibration drift")
_INSTRUMENT_FAULT = re.compile(r"\bsensor\b|\bcalibration\b|\binstrument", re.I)
# Below this a process fault leading the diagnosis does not make the reading real on its own
_LEADS_CLEARLY = 0.5


def real_or_instrument(artifacts: list[Artifact]) -> tuple[str, list[str]] | None:
    """"Is the water really warmer, or is it the sensor?": the instrument when the diagnosis puts a sensor fault
    first or the reading moved on its own; real when a process fault clearly leads or the coupled signals moved with
    it; neither clearly otherwise. The lead names the side, the evidence follows."""
    diagnosed = [a for a in artifacts if a.kind == "diagnose" and hypotheses(a)]
    checked = [(a, v) for a in artifacts if a.kind == "sensor_validity" and (v := sensor_verdicts(a))]
    if not diagnosed and not checked:
        return None
    top = hypotheses(diagnosed[-1])[0] if diagnosed else None
    where = ", ".join(diagnosed[-1].asset_ids) if diagnosed else ""
    verdicts = checked[-1][1] if checked else []
    drift = [v.sensor for v in verdicts if v.verdict == "sensor_drift"]
    real = [v.sensor for v in verdicts if v.verdict == "real_change"]
    instrument_first = top is not None and bool(_INSTRUMENT_FAULT.search(top.failure_mode))
    # (a process fault leading says "real" only when no validity check found the reading steady at equal load)
    process_first = top is not None and not instrument_first and not top.failure_mode.startswith("No fault") \
        and top.probability >= _LEADS_CLEARLY and not (verdicts and not real)
    reasons: list[str] = []
    if top is not None:
        reasons.append(f"the diagnosis of {where} puts {top.failure_mode} first ({top.probability:.2f})")
        # (where the instrument's own fault ranks, when something else leads: what the question doubted)
        own = next((h for h in hypotheses(diagnosed[-1])[1:] if _INSTRUMENT_FAULT.search(h.failure_mode)), None)
        if own is not None and not instrument_first:
            reasons.append(f"{own.failure_mode} ranks lower ({own.probability:.2f})")
    if drift:
        reasons.append(f"{join_names(drift)} moved on its own while its coupled signals did not follow")
    if real:
        reasons.append(f"the coupled signals moved with {join_names(real)}")
    steady = [v.sensor for v in verdicts if v.verdict == "no_change"]
    unclear = [v.sensor for v in verdicts if v.verdict not in ("no_change", "sensor_drift", "real_change")]
    if steady and not drift and not real:
        reasons.append(f"no sensor drift shows: {join_names(steady)} stayed within its normal spread at equal load")
    if unclear:
        reasons.append(f"the check on {join_names(unclear)} is inconclusive (it moved without its coupled signals "
                       "following, but not clearly on its own)")
    evidence = [f"- {v.sensor}: {v.verdict.replace('_', ' ')}"
                + (f", moved {v.shift:+.2f} degF at equal load" if v.shift is not None else "")
                + f", {v.followers} coupled signal(s) followed [{checked[-1][0].id}]" for v in verdicts]
    evidence += [f"- most likely cause: {top.failure_mode} ({top.probability:.2f}) [{diagnosed[-1].id}]"] if top else []
    because = "; ".join(reasons)
    if instrument_first or (drift and not real and not process_first):
        return f"The sensor, most likely: {because}.", evidence
    if process_first or (real and not drift):
        return f"It looks real, not the sensor: {because}.", evidence
    if top is None and verdicts and len(steady) == len(verdicts):
        return f"Neither sensor drift nor a real change: {because.removeprefix('no sensor drift shows: ')}.", evidence
    return f"Neither clearly: {because}.", evidence


_KPI_EVENTS = re.compile(r"\bkpis?\b|\banomaly (?:events?|alarms?|alerts?)\b", re.I)


def kpi_event_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Were there KPI anomaly events? From the event log the alert-rule reads counted; None when the question
    does not ask about them or no read counted them."""
    if not _KPI_EVENTS.search(question):
        return None
    found = [(a, k) for a in artifacts if a.kind == "alert_rules" and (k := kpi_anomalies(a)) is not None]
    if not found:
        return None
    evidence = [f"- {', '.join(a.equipment_ids or a.asset_ids)}: {sum(n for _, n in kinds)} KPI anomaly events"
                + (" (" + ", ".join(f"{kind} {n}" for kind, n in kinds) + ")" if kinds else "") + f" [{a.id}]"
                for a, kinds in found]
    total = sum(n for _, kinds in found for _, n in kinds)
    when = window_phrase(found[0][0])
    where = join_names([", ".join(a.equipment_ids or a.asset_ids) for a, _ in found])
    if not total:
        return Verdict("No", f"No, no KPI anomaly event on {where} {when}.".replace("  ", " "), evidence)
    kinds: dict[str, int] = {}
    for _, listed in found:
        for kind, n in listed:
            kinds[kind] = kinds.get(kind, 0) + n
    top = ", ".join(f"{kind} ({n})" for kind, n in sorted(kinds.items(), key=lambda p: -p[1])[:3])
    # (only where they were: "any anywhere in the plant?" is answered with the equipment that had them)
    shown = sorted(((a, sum(n for _, n in k)) for a, k in found if any(n for _, n in k)), key=lambda p: -p[1])
    where = join_names([", ".join(a.equipment_ids or a.asset_ids) for a, _ in shown])
    return Verdict("Yes", f"Yes, {total} KPI anomaly event{'s' if total != 1 else ''} on {where} {when}: {top}."
                   .replace("  ", " "), evidence)


FEW_ALERTS = 10  # fewer alerts than this in a period are not "many"
_MANY = re.compile(r"(?<!how )\b(?:many|a lot|lots|loads|a bunch|tons of|heaps|a ton)\b", re.I)


_WITHOUT_ANY = re.compile(r"\bwithout (?:a single|any|an?|one)\b|\bfree of\b|\bwith (?:zero|no)\b", re.I)


def alert_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Did alerts fire? From the alert-rule activity of each equipment id."""
    found = [(a, r) for a in artifacts if a.kind == "alert_rules" and (r := alert_rules(a)) is not None]
    if not found or _COMPARATIVE.search(question):
        return None
    fired: list[tuple[int, str]] = []
    evidence, named_counts = [], []
    for art, rules in found:
        count = sum(r.count for r in rules)
        where = ", ".join(art.equipment_ids or art.asset_ids)
        named = named_rules(question, rules)  # "is the Evaporator Approach High rule firing?": that rule's count
        named_counts += [(where, r) for r in named]
        evidence.append(f"- {where}: {count} alerts from {sum(1 for r in rules if r.count)} rule(s)"
                        + "".join(f", {r.count} from {rule_text(r)}" for r in named) + f" [{art.id}]")
        if count:
            fired.append((count, where))
    # a rule asked about (by name before, "that alert" now) is counted where it fired and said where it did not:
    # "has it ever had an approach alert?" -> no, "did the other chillers get that alert?" -> on each of them
    listed = {(where, r.rule_id) for where, r in named_counts}
    for art, rules in found:
        where = ", ".join(art.equipment_ids or art.asset_ids)
        here = {r.rule_id: r for r in rules}
        named_counts += [(where, here.get(rule_id, RuleCount(rule_id, 0))) for rule_id in asked_rules(art)
                         if (where, rule_id) not in listed]
    wheres = {", ".join(a.equipment_ids or a.asset_ids) for a, _ in found}
    if named_counts and len(wheres) == 1 and len(found) > 1:
        # "did the evaporator approach alarm fire much over those three months?": one equipment's periods, summed
        where = next(iter(wheres))
        per = sorted(((art, sum(r.count for r in rules if r.rule_id in {n.rule_id for _, n in named_counts}))
                      for art, rules in found), key=lambda pair: str(pair[0].window_start))
        total = sum(n for _, n in per)
        rule = named_counts[0][1]
        over_periods: Answer = "Yes" if total else "No"
        over_periods = flip(over_periods) if _WITHOUT_ANY.search(question) else over_periods
        said = join_names([f"{n} {window_phrase(art)}".strip() for art, n in per])
        return Verdict(over_periods, f"{over_periods}, {rule_text(rule)} fired {total} time{'s' if total != 1 else ''} on "
                               f"{where}: {said}.", evidence)
    if named_counts:
        whole = all(art.window_start is None for art, _ in found)  # "has it ever...": the whole record
        quiet = [where for where, r in named_counts if not r.count]
        rule = named_counts[0][1]
        said = join_names([f"{rule_text(r)} fired {r.count} time{'s' if r.count != 1 else ''} on {where}"
                           for where, r in named_counts if r.count])
        if quiet:  # the ones where it did not fire, said once
            never = f"{'has never fired' if whole else 'did not fire'} on {join_names(quiet)}"
            said = f"{said}; it {never}" if said else f"{rule_text(rule)} {never}"
        answer: Answer = "Yes" if any(r.count for _, r in named_counts) else "No"
        # "did it go all of 2021 without a single load low alert?": yes means none fired
        answer = flip(answer) if _WITHOUT_ANY.search(question) else answer
        return Verdict(answer, f"{answer}, {said}.", evidence)
    if fired:
        summed: dict[str, int] = {}
        for count, where in fired:  # one listing per period: each equipment once, its periods added up
            summed[where] = summed.get(where, 0) + count
        fired = [(count, where) for where, count in summed.items()]
        total = sum(count for count, _ in fired)
        if _MANY.search(question) and total < FEW_ALERTS:  # "did it throw many alarms?" with 1: not many
            where = join_names([w for _, w in fired])
            return Verdict("No", f"No, only {total} alert{'s' if total != 1 else ''} fired on {where}.", evidence)
        if len(fired) == 1:
            count, where = fired[0]
            # (which rules: "any alarms on it this month?" - "yes, 1: RUL0016 Condenser Water Flow ...")
            rules_here = sorted((r for art, rules in found if ", ".join(art.equipment_ids or art.asset_ids) == where
                                 for r in rules if r.count), key=lambda r: -r.count)
            which = "; ".join(f"{rule_text(r)} ({r.count})" for r in rules_here[:_RULES_SAID])
            one: Answer = "No" if asks_health(question) else "Yes"  # ("was it quiet?": no, that many fired)
            return Verdict(one, f"{one}, {count} alert{'s' if count != 1 else ''} fired on {where}"
                                   + (f": {which}." if which else "."), evidence)
        # ("which one the most?" is answered by the chiller's name: "9 on Chiller 9 (CWC04009)")
        chiller = {", ".join(a.equipment_ids or a.asset_ids): a.asset_ids[0] for a, _ in found
                   if len(a.asset_ids) == 1 and a.equipment_ids}
        said = join_names([f"{count} on {chiller[where] + ' (' + where + ')' if where in chiller else where}"
                           for count, where in sorted(fired, reverse=True)[:3]])
        return Verdict("Yes", f"Yes, alerts fired on {len(fired)} equipment ids: {said}"
                              f"{' and more' if len(fired) > 3 else ''}.", evidence)
    if asks_health(question):  # "was it totally quiet?": yes means nothing fired
        return Verdict("Yes", "Yes, no alert rule fired in this period.", evidence)
    return Verdict("No", "No, no alert rule fired in this period.", evidence)


_RULES_SAID = 3  # the busiest rules a yes on one equipment names
_ARTIFACT_REF = re.compile(r"\s*\(artifact_\w+\)")
STANDS_OUT_SCORE = 2.5  # a priority score of twice the false-alarm anomaly share, or a fault at p 0.25


def fleet_pick_verdict(question: str, artifacts: list[Artifact]) -> Verdict | None:
    """"Is one of the chillers to blame?", "is any unit overheating?": across the site, yes with the chiller
    that stands out in the turn's ranking (and any other that does), no when none does; a health question
    ("are they all ok?") asks the opposite. None without a ranking of several chillers."""
    rows = next((r for a in artifacts if a.kind == "priority_ranking" and len(r := ranking(a)) > 1), None)
    if rows is None:
        return None
    def score(row: RankingRow) -> float:
        try:
            return float(row.score)
        except (TypeError, ValueError):
            return 0.0
    bar = max(STANDS_OUT_SCORE, score(rows[0]) / 2)  # "also stands out" only near the top one, not any excess
    flagged = [r for r in rows if score(r) >= bar]
    evidence = ranking_lines(rows)
    names = join_names(sorted((r.asset_id for r in rows), key=lambda n: (len(n), n)))
    if flagged:
        top = flagged[0]
        why = f": {_ARTIFACT_REF.sub('', top.reasons[0])}" if top.reasons else ""
        more = f"; {join_names([r.asset_id for r in flagged[1:]])} also stand{'s' if len(flagged) == 2 else ''} out" \
            if len(flagged) > 1 else ""
        answer: Answer = "Yes"
        body = f"{top.asset_id} stands out{why}{more}"
    else:
        answer = "No"
        body = f"none of {names} stands out: every score is below {STANDS_OUT_SCORE:g}"
    if asks_health(question):
        answer = flip(answer)
    return Verdict(answer, f"{answer}, {body}.", evidence)


def _lead_finding(question: str, artifacts: list[Artifact]) -> str | None:
    """The turn's finding closest to the question, as one sentence: how several chillers compare, else the
    summary of the most relevant artifact (the list comes answering ones first; a finding before raw
    telemetry or a plan), or the figure of the sensor the question names when telemetry is all there is."""
    if len({x for a in artifacts for x in a.asset_ids}) > 1:  # several chillers: how they compare says most
        comparison = compare_assets(artifacts)
        if comparison is not None:  # the top one and its figure: a whole table's headline is no first sentence
            top, out = comparison.rows[0], sum(1 for r in comparison.rows if r.stands_out)
            names = sorted((r.asset for r in comparison.rows), key=lambda n: (len(n), n))  # Chiller 9 before 10
            return (f"{top.asset} is highest of {chillers(names)} at {top.figure}"
                    + (f" ({out} of {len(comparison.rows)} stand out)" if out else "") + ".")
    said = sorted((a for a in artifacts if a.summary.strip()), key=lambda a: a.kind in _SUPPORTING_KINDS)
    if not said or said[0].kind == "telemetry_window":
        for sensor in asked_sensors(question):
            figures = sensor_figures(sensor, artifacts)
            if figures:
                fig, window = figures[0], next(a for a in artifacts if a.id == figures[0].artifact_id)
                return f"{fig.asset}'s {fig.label.lower()} was {figure_text(fig)} {window_phrase(window)}".rstrip() + "."
    if said:
        return first_clause(said[0].summary, 300).rstrip(".:;, ") + "."
    if not artifacts:
        return None
    art = artifacts[0]  # no summary written: at least what was looked at, where and when
    where = ", ".join(art.asset_ids or art.equipment_ids)
    return f"the {art.kind.replace('_', ' ')}" + (f" of {where}" if where else "") \
        + (f" {window_phrase(art)}" if window_phrase(art) else "") + " is all this turn has."


Check = Callable[[str, list[Artifact], list[Artifact]], Verdict | None]
# Most specific first: whether it tripped (a diagnosis finds the stop itself), a named failure mode, then
# the evidence a question of one kind needs (two diagnoses, before/after a repair, two sides of a
# comparison, the records' analyses, the blamed part's sensors), then health, then the single-evidence
# families; an unnamed diagnosis answers last.
CHECKS: tuple[Check, ...] = (
    lambda q, turn, _: _data_available_verdict(turn, q),
    lambda q, turn, _: running_again_verdict(turn, q),
    lambda q, turn, _: trip_verdict(turn, q),
    lambda q, turn, session: fault_count_verdict(turn or session, q),  # "one fault or two at once?"
    # ("did it raise any alerts while the tubes were fouled?" asks about the alerts; the mode is the scene)
    # (and "could this just be a bad sensor?" beside a validity check is answered on the check, below)
    lambda q, turn, _: failure_mode_verdict(turn, q) if asks_of_a_mode(q, _hypotheses(turn))
    and not speaks_of_alerts(q) and not (doubts_instrument(q.lower()) and any(a.kind == "sensor_validity" for a in turn))
    else None,
    same_cause_verdict,
    repair_verdict,
    lambda q, turn, _: count_threshold_verdict(turn, q),  # "more than 5?": the count against that number
    comparison_verdict,
    lambda q, turn, session: alert_outcome_verdict(turn, q, session),
    lambda q, turn, _: bundle_verdict(turn, q),
    lambda q, turn, _: kpi_event_verdict(turn, q),
    # ("is it actually not making setpoint or is the sensor lying?": a turn that checked the instrument answers on it
    # before the level it doubts)
    lambda q, turn, _: sensor_validity_verdict(turn, q),
    lambda q, turn, _: _level_verdict(turn, q),
    lambda q, turn, session: _setpoint_verdict(turn, q, session),
    attribution_verdict,
    lambda q, turn, _: health_verdict(turn, q),
    lambda q, turn, _: sensor_health_verdict(turn, q),
    lambda q, turn, _: worsening_verdict(turn, q),
    lambda q, turn, _: forecast_verdict(turn, q),
    lambda q, turn, _: forecast_accuracy_verdict(turn, q),
    lambda q, turn, _: forecast_threshold_verdict(turn, q),
    lambda q, turn, _: zero_records_verdict(turn, q),
    lambda q, turn, session: work_order_existence_verdict(turn, q, session),
    lambda q, turn, session: breakdown_trend_verdict([*_earlier_listings(turn, session), *turn], q),
)
# One piece of evidence each; a question may ask about both ("anything abnormal? alarms too"), so every one
# that applies is said, a yes first; an unnamed diagnosis answers only when neither does.
SINGLE: tuple[Check, ...] = (
    lambda q, turn, _: alert_verdict(turn, q),
    lambda q, turn, _: anomaly_verdict(turn, q),
)


def _data_available_verdict(artifacts: list[Artifact], question: str) -> Verdict | None:
    """"Do we have any sensor data on that one?": yes with its sensors and how far they reach (a chiller with none
    is answered no by the planner, with what exists instead)."""
    inventories = [a for a in artifacts if a.kind == "sensor_inventory" and a.results.get("sensors")]
    if not inventories or not asks_data_available(question):
        return None
    return Verdict("Yes", f"Yes, {inventories[0].summary}", [f"- {a.summary} [{a.id}]" for a in inventories[1:]])


def _setpoint_verdict(artifacts: list[Artifact], question: str, session: list[Artifact]) -> Verdict | None:
    """"Was the CHWST holding setpoint in July?": the supply against its setpoint while running ("is the offset growing
    from December to February?" reads the periods the dialog read before, too)."""
    earlier = [a for a in session if a.id not in {x.id for x in artifacts}]
    found = setpoint_offset_change(question, [*artifacts, *earlier]) or setpoint_side(question, artifacts) \
        or setpoint_held(question, artifacts)
    return Verdict(found[0], found[1], found[2]) if found is not None else None


def _level_verdict(artifacts: list[Artifact], question: str) -> Verdict | None:
    """"Any chiller below 30% load last week?": the readings held against the level the question names."""
    found = level_sentence(question, artifacts)
    return Verdict(found[0], found[1], found[2]) if found is not None else None


def _hypotheses(artifacts: list[Artifact]) -> list[Hypothesis]:
    return [h for a in artifacts if a.kind == "diagnose" for h in hypotheses(a)]


def yes_no_verdict(question: str, artifacts: list[Artifact], session: list[Artifact] | None = None) -> Verdict:
    """The yes/no answer the evidence supports (`artifacts`: this turn's, answering ones first; `session`:
    every artifact visible, for the other side of a comparison). When no family fits, "Not clearly" opens
    with the turn's most relevant finding, so the first sentence still carries a figure or a name."""
    for check in CHECKS:
        verdict = check(question, artifacts, session or [])
        if verdict is not None:
            return verdict
    found = [v for check in SINGLE if (v := check(question, artifacts, session or [])) is not None]
    if found:
        lead = next((v for v in found if v.answer == "Yes"), found[0])
        rest = [line for v in found if v is not lead for line in [f"- {v.sentence}", *v.evidence]]
        return Verdict(lead.answer, lead.sentence, [*lead.evidence, *rest])
    verdict = failure_mode_verdict(artifacts, question)
    if verdict is not None:
        return verdict
    finding = _lead_finding(question, artifacts)
    if finding is None:
        return Verdict("Not clearly", "Not clearly: this turn produced no evidence that settles it.")
    return Verdict("Not clearly", f"Not clearly from this alone: {finding}")
