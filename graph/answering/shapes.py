"""The opening of the answer, written for the shape of the question (assetops.domain.turn.QuestionShape).

yes_no -> "Yes" / "No" / "Not clearly" first, then the evidence; which -> the pick first; how_to ->
a numbered procedure; verdict -> the session's findings, conclusion first; recommend -> the advice
with its reasons and an offer; open -> the finding that answers it. Several chillers with
per-asset results are compared and ranked, the odd one out first. Long outputs (the management
report) are summarised and linked. Pure: reads artifacts and the question only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from artifacts.model import Artifact
from artifacts.readings import (
    OrderRef,
    hypotheses,
    latest_per_job,
    ranking,
    recent_orders,
    stats_of,
    sustained_shifts,
)
from assetops.domain.turn import TurnDecision
from graph.answering.asked_figures import (
    alert_change_driver,
    alert_count_sentence,
    asked_sensors,
    coded_order_count_sentence,
    mostly_rule_sentence,
    orders_per_period_sentence,
    other_rules_sentence,
    period_pick,
    rank_place,
    rule_codes_sentence,
    rule_meaning_sentence,
    sensor_ranking,
    setpoint_offset_ranking,
    site_codes_sentence,
    site_order_count_sentence,
    site_rules_sentence,
    yearly_rate_sentence,
)
from graph.answering.change_verdicts import recovery_verdict
from graph.answering.compare_terms import window_phrase
from graph.answering.compare_verdicts import (
    comparison_verdict,
    direction_choice,
    period_record_comparison,
    period_record_difference,
    period_record_pick,
)
from graph.answering.diagnosis_verdicts import last_trip_sentence, named_mode, real_or_noise_sentence
from graph.answering.figures import telemetry_figures
from graph.answering.findings import session_findings
from graph.answering.fleet_ranking import compare_assets, ranking_lines, same_pick_sentence
from graph.answering.long_output import LONG_KINDS, dialog_leads, report_summary
from graph.answering.period_verdict import change_ranking, off_normal_ranking, period_verdict
from graph.answering.procedure import (
    DriftFinding,
    checked_sensor,
    drift_findings,
    fix_plan,
    procedure,
    recalibration_plan,
)
from graph.answering.recommend import offer_sentence, recommend
from graph.answering.record_verdicts import (
    alert_outcome_verdict,
    per_year_comparison,
    records_rank_verdict,
    same_rule_verdict,
)
from graph.answering.sections import first_clause
from graph.answering.signal_verdicts import forecast_accuracy_verdict
from graph.answering.stat_questions import (
    alert_dates_sentence,
    busiest_month_sentence,
    comparison_sentence,
    extreme_sentence,
    idle_sentence,
    labour_sentence,
    last_ran_sentence,
    most_labour_sentence,
    order_listing,
    pointed_order_sentence,
    ran_at_all_sentence,
    reading_course_sentence,
    rule_last_fired_sentence,
    run_time_change,
    run_time_ranking,
    run_time_sentence,
    total_change,
    total_sentence,
    worst_year_sentence,
)
from graph.answering.symptom_modes import symptom_answer
from graph.answering.trend_verdicts import silent_reading_verdict
from graph.answering.verdicts import (
    fleet_pick_verdict,
    real_or_instrument,
    when_resolved_sentence,
    yes_no_verdict,
)
from graph.answering.yes_no import Verdict, without_answer
from graph.understanding.last_done import REPAIR_STEMS, SERVICE_STEMS, last_done_job, names_job
from graph.understanding.request import (
    ONE_BEFORE,
    SAME_ONE,
    asks_rank_place,
    asks_real_or_noise,
    asks_repair_worked,
    bullets_asked,
    doubts_instrument,
    ranking_end,
    read_request,
)
from graph.understanding.symptoms import described_symptoms
from graph.understanding.text import Text
from graph.understanding.vocabulary import vocabulary

MAX_REASONS = 4


@dataclass(frozen=True)
class ShapedLead:
    """The first sentence (it answers the question) and the lines that support it, in order."""

    first: str
    lines: list[str] = field(default_factory=list)
    offer: str = ""  # closes the answer instead of the generic next question
    replaces_body: bool = True  # the lines already show what the generic body would (a procedure)


@dataclass(frozen=True)
class AnswerInputs:
    """What the shaped opening may draw on."""

    shape: str
    scope: str
    question: str
    artifacts: list[Artifact]  # this turn's, answering ones first
    session: list[Artifact] = field(default_factory=list)  # everything visible in the session
    pending_offer: str | None = None
    earlier_leads: list[str] = field(default_factory=list)  # each earlier answer's first sentence, oldest first
    fetched: list[str] = field(default_factory=list)  # the readings the turn's telemetry tasks asked for (bare names)
    subject: str | None = None  # the chiller the question is about when it names none ("that one": the one picked)
    readings: list[str] = field(default_factory=list)  # the readings the dialog is about (bare names)


_DRIFT_OR_REAL = re.compile(r"\bdrift\w*\b.*\bor\b.*\b(?:real|actual|genuine)\b|\b(?:real|actual|genuine)\b.*\bor\b"
                            r".*\b(?:drift\w*|sensor|instrument\w*)\b", re.I)


def _chiller_of(name: str, artifacts: list[Artifact]) -> str:
    """"Chiller 6 (CWC04006)" for an equipment id an artifact maps to its chiller; the name as given otherwise."""
    chiller = next((a.asset_ids[0] for a in artifacts if name in a.equipment_ids and len(a.asset_ids) == 1), None)
    return f"{chiller} ({name})" if chiller else name


def _windows_read_before(inputs: AnswerInputs) -> list[Artifact]:
    """The session's readings of the chillers this turn read, from other turns ("compared with May last year, which
    one slipped the most?" reads last year's May; this May was read a turn before)."""
    read = {a.asset_ids[0] for a in inputs.artifacts if a.kind == "telemetry_window" and a.asset_ids}
    mine = {a.id for a in inputs.artifacts}
    return [a for a in inputs.session if a.kind == "telemetry_window" and a.id not in mine
            and a.asset_ids and a.asset_ids[0] in read]


def _which(inputs: AnswerInputs) -> ShapedLead | None:
    """The pick first: a ranking, the top hypothesis, or the asset that stands out."""
    rate = yearly_rate_sentence(inputs.question, inputs.artifacts)
    if rate is not None:  # "the same rate each year, or did we slip?": steady or not, per year
        return ShapedLead(rate[0], rate[1], replaces_body=False)
    moved = direction_choice(inputs.question, lambda asked: _yes_no_verdict(replace(inputs, question=asked)))
    if moved is not None:  # "up or down vs 2019?": the direction, in the user's word, with both figures
        return ShapedLead(moved.sentence, moved.evidence, replaces_body=False)
    totals = _site_totals(inputs)
    if totals is not None:  # a pick among rules or codes (across the site or the periods), not among the equipment
        return totals
    records_by_period = period_record_pick(inputs.question, inputs.artifacts)
    if records_by_period is not None:  # "more repair tickets in 2019 or in 2020?": the period, with both counts
        return ShapedLead(records_by_period.sentence, records_by_period.evidence, replaces_body=False)
    rows = next((r for a in inputs.artifacts if a.kind == "priority_ranking" and (r := ranking(a))), None)
    ranked = ranking_lines(rows) if rows is not None else []
    most_labour = most_labour_sentence(inputs.question, inputs.artifacts)
    if most_labour is not None:  # "which of those took the most hours?": a pick among the listed orders
        return ShapedLead(most_labour, [], replaces_body=False)
    by_run_time = run_time_ranking(inputs.question, inputs.artifacts) or run_time_change(inputs.question, inputs.artifacts)
    if by_run_time is not None:  # "which chiller ran the most hours?": ranked on running time ("more hours or fewer?")
        return ShapedLead(by_run_time[0], by_run_time[1], replaces_body=False)
    busiest = busiest_month_sentence(inputs.question, inputs.artifacts)
    if busiest is not None:  # "what's the worst month for alarms on 6?": the month, then each month's count
        return ShapedLead(busiest[0], busiest[1], replaces_body=False)
    # ("which year was the worst then?" after the yearly counts: the corrective orders per year the session counted)
    worst_year = worst_year_sentence(inputs.question, [*inputs.artifacts, *inputs.session])
    if worst_year is not None:
        return ShapedLead(worst_year[0], worst_year[1], replaces_body=False)
    by_period = period_pick(inputs.question, inputs.artifacts)
    if by_period is not None:  # "which of the two months looks healthier?": one chiller, periods compared
        return ShapedLead(by_period.headline, by_period.lines, replaces_body=False)
    only = inputs.fetched[0] if len(inputs.fetched) == 1 else None  # "which of the two went up more?": that reading
    by_change = off_normal_ranking(inputs.question, inputs.artifacts) \
        or change_ranking(inputs.question, inputs.artifacts, reading=only) \
        or change_ranking(inputs.question, [*inputs.artifacts, *_windows_read_before(inputs)], reading=only)
    if by_change is not None:  # "whose kW/ton is worse than this time last year?": ranked on the change, pick first
        return ShapedLead(by_change.headline, by_change.lines, replaces_body=False)
    by_sensor = setpoint_offset_ranking(inputs.question, inputs.artifacts) \
        or sensor_ranking(inputs.question, inputs.artifacts, measure_only=True)
    if by_sensor is not None:  # "which one is dragging our kW/ton?": the measure named picks; the causes follow
        return ShapedLead(f"{by_sensor.first}. {by_sensor.headline}", [*by_sensor.lines, *ranked[:4]],
                          replaces_body=False)
    if rows is not None:
        if ranking_end(inputs.question.lower()) == "good" and len(rows) > 1:
            # "which one is in the best shape?": the other end of the priority ranking, the least evidence of trouble
            least = rows[-1]
            why = (least.reasons or ("no adverse evidence",))[0]
            return ShapedLead(f"{least.asset_id} is in the best shape: it ranks last for attention ({why}).",
                              ranked)
        top = rows[0]
        why = (top.reasons or ("no adverse evidence on any asset yet",))[0]
        return ShapedLead(f"{top.asset_id}. {why[:1].upper()}{why[1:]}.", ranked)
    comparison = compare_assets(inputs.artifacts, inputs.question)
    if comparison is not None:
        pick = comparison.rows[0]
        if comparison.headline.startswith("None of"):  # nothing to pick: the answer is that none had any
            return ShapedLead(comparison.headline, comparison.lines)
        named = _chiller_of(pick.asset, inputs.artifacts)  # "CWC04006" picked is "Chiller 6 (CWC04006)"
        headline = comparison.headline.replace(pick.asset, named, 1) \
            if named != pick.asset and named not in comparison.headline else comparison.headline
        return ShapedLead(headline if headline.startswith(named) else f"{named}. {headline}", comparison.lines)
    diagnosed = next(((a, h) for a in inputs.artifacts if a.kind == "diagnose" and (h := hypotheses(a))), None)
    if diagnosed is not None:
        diagnosis, hyps = diagnosed
        asked = named_mode(inputs.question, hyps)
        likeliest = hyps[0]
        lines = [f"- {h.failure_mode}: {h.probability:.2f}" for h in hyps[:3]]
        first = f"{likeliest.failure_mode}. It is the most likely cause on {', '.join(diagnosis.asset_ids)}."
        if asked is not None and asked is not likeliest:
            first += f" {asked.failure_mode} ranks lower ({asked.probability:.2f})."
        return ShapedLead(first, lines)
    return None


# A how-to about checking a repair ("how do we know it's fixed?") wants the validation protocol itself;
# any other ("how should I go about the cleaning?") wants the fix first, the validation as its last part.
_ABOUT_VALIDATING = re.compile(r"\b(validat\w*|verif\w*|confirm\w*|prove|accept\w*|know (?:it|it's|that)|"
                               r"(?:is|it's|was) fixed|after the (?:repair|fix|cleaning))\b", re.I)


# A question that takes the sensor drift as given ("if that sensor's drifting, what's the fix?").
_ASSUMES_DRIFT = re.compile(r"\bsensor(?:'s| is| has)? (?:\w+ )?drift\w*|\b(?:drifting|drifted) sensor|"
                            r"\bout of calibration\b|\bcalibration drift\b", re.I)


def _drift_to_fix(inputs: AnswerInputs) -> DriftFinding | None:
    """The drifting sensor the dialog found last, when no diagnosis came after it (what "what would you do
    about it?" and "how do I recal it?" are about); on the turn's chillers when it names any."""
    pool = [*inputs.session, *inputs.artifacts]
    assets = {name for a in inputs.artifacts for name in a.asset_ids}
    drifts = [d for d in drift_findings(pool) if not assets or d.asset in assets]
    if not drifts:
        return None
    if _ASSUMES_DRIFT.search(inputs.question):  # "if that sensor's drifting, what's the fix?": the drift it is
        return drifts[0]
    diagnosed = max((a.turn_index or 0 for a in pool if a.kind == "diagnose"), default=-1)
    return drifts[0] if drifts[0].turn >= diagnosed else None


def _sensor_to_check(inputs: AnswerInputs) -> DriftFinding | None:
    """The one reading the dialog is on, on its one chiller, as a sensor to check in the field."""
    assets = {x for a in [*inputs.artifacts, *inputs.session] for x in a.asset_ids}
    asset = inputs.subject or (next(iter(assets)) if len(assets) == 1 else None)
    readings = [r for r in inputs.readings if r]
    if asset is None or len(readings) != 1:
        return None
    return DriftFinding(asset, readings[0], "", 0, "")


def _how_to(inputs: AnswerInputs) -> ShapedLead | None:
    drift = _drift_to_fix(inputs)
    if drift is not None and not _ABOUT_VALIDATING.search(inputs.question.replace("verify and", "")):
        first, steps = recalibration_plan(drift)
        return ShapedLead(first, steps)
    checked = checked_sensor([*inputs.session, *inputs.artifacts]) if _RECALIBRATE.search(inputs.question) else None
    if checked is not None:  # "how should I check and recalibrate that sensor?" after it was found to read true
        finding, verdict = checked
        first, steps = recalibration_plan(finding)
        return ShapedLead(f"The data show a {verdict}, not drift, on {finding.asset}'s {finding.sensor}, so expect the "
                          f"check to confirm it; to check and recalibrate it anyway, four steps:", steps)
    asked = _sensor_to_check(inputs) if _RECALIBRATE.search(inputs.question) else None
    if asked is not None:  # "how should I check that sensor against a reference probe?" with no check made yet
        _, steps = recalibration_plan(asked)
        return ShapedLead(f"To check {asked.asset}'s {asked.sensor} against a reference probe, and recalibrate it if "
                          "it reads off, four steps:", [step.replace(" []", "") for step in steps])
    found = procedure(inputs.artifacts)
    fix = fix_plan(inputs.artifacts) or fix_plan(inputs.session)
    validating = found is not None and any(a.kind == "validation_protocol" for a in inputs.artifacts)
    if validating and fix is not None and not _ABOUT_VALIDATING.search(inputs.question):
        assert found is not None
        return ShapedLead(fix[0], [*fix[1], "", found[0].replace("To ", "Then, to ", 1), *found[1]])
    found = found or fix
    if found is None:
        return None
    first, steps = found
    return ShapedLead(first, steps)


# ("how should I check that sensor against a reference probe?": the field check is the recalibration's first step)
_RECALIBRATE = re.compile(r"\b(?:re-?)?calibrat\w*|\brecal\b|\breference (?:probe|thermometer|sensor|instrument)\b",
                          re.I)
_SAID_KEPT = 4  # earlier answers a verdict restates
_ASKS_MEANING = re.compile(r"\b(?:mean|means|meaning|stand for|stands for|what is|what's|whats|explain|define)\b", re.I)
_REPLACE_OR_PREVIEW = re.compile(r"\b(?:replac\w*|retir\w*|work order|ticket|draft)\b", re.I)


# "which one came second?", "which of them ...": a chiller asked for
_ASKS_FOR_A_CHILLER = re.compile(r"\bwhich (?:one|chiller|unit|machine|of (?:them|the|those|these))\b", re.I)


def _the_one_read(inputs: AnswerInputs) -> ShapedLead | None:
    """"Which one came second?" answered by reading that one chiller alone: its name first, then what was read."""
    assets = {name for a in inputs.artifacts for name in a.asset_ids}
    if len(assets) != 1 or not _ASKS_FOR_A_CHILLER.search(inputs.question):
        return None
    read = next((a.summary.strip() for a in inputs.artifacts if a.summary.strip()), "")
    return ShapedLead(f"{assets.pop()}: {read}" if read else f"{assets.pop()}.", [], replaces_body=False)


def _verdict(inputs: AnswerInputs) -> ShapedLead:
    findings = session_findings(inputs.session or inputs.artifacts)
    open_lines = [f"Open: {q}" for q in findings.open_questions]
    said = [f"- Found: {lead}" for lead in dialog_leads(inputs.earlier_leads, findings.conclusion)]
    return ShapedLead(findings.conclusion, [*said[:_SAID_KEPT], *findings.lines[:8], *open_lines])


# "is it worth fine tuning the model on 9's own data?": the advice asked is about the model, not the machine.
_TUNING = re.compile(r"\b(?:fine[- ]?tun\w*|retrain\w*|re-train\w*|train(?:ing)? (?:the |a |its )?(?:model|ttm)|"
                     r"tune (?:the |a |its )?(?:model|ttm))\b", re.I)
_TUNE_ADVICE = {"Yes": "Not needed", "Partly": "Worth trying", "No": "Yes, worth it"}


def _tuning_advice(inputs: AnswerInputs) -> ShapedLead | None:
    """Whether fine-tuning is worth it: the base model's error against the actuals decides (small error: not
    needed; large: worth it); None without a forecast evaluation."""
    if not _TUNING.search(inputs.question):
        return None
    scored = forecast_accuracy_verdict(inputs.artifacts, "is the forecast reliable?")
    if scored is None:
        return None
    return ShapedLead(f"{_TUNE_ADVICE[scored.answer]}: {without_answer(scored.sentence)}", scored.evidence,
                      replaces_body=False)


def _recommend(inputs: AnswerInputs) -> ShapedLead:
    tuning = _tuning_advice(inputs)
    if tuning is not None:  # "worth fine tuning the model first?": from how far the base model misses
        return tuning
    drift = _drift_to_fix(inputs)
    if drift is not None and not _REPLACE_OR_PREVIEW.search(inputs.question):  # "what would you do about it?"
        first, steps = recalibration_plan(drift)
        return ShapedLead(first, steps, offer_sentence(inputs.pending_offer or "draft_wo"))
    turn_assets = {name for a in inputs.artifacts for name in (*a.asset_ids, *a.equipment_ids)}
    advice = recommend(inputs.question, [*inputs.session, *inputs.artifacts], inputs.pending_offer, turn_assets)
    return ShapedLead(advice.sentence, [f"- {r}" for r in advice.reasons[:MAX_REASONS]], advice.offer,
                      replaces_body=False)


# "did any of the other chillers get that alert?": the chiller under discussion is not one of them.
_THE_OTHERS = re.compile(r"\b(?:any of )?the (?:other|remaining) (?:ones|chillers|units|machines|\w+ chillers)\b|"
                         r"\b(?:any other|another) (?:units?|chillers?|machines?)\b|"
                         r"\bthe others\b|\bthe rest\b", re.I)


def _yes_no_verdict(inputs: AnswerInputs) -> Verdict:
    if inputs.subject and _THE_OTHERS.search(inputs.question):
        others = [a for a in inputs.artifacts if inputs.subject not in a.asset_ids]
        if others and len(others) < len(inputs.artifacts):
            inputs = replace(inputs, artifacts=others)
    # A sensor compared across two periods ("was its kW/ton better a year earlier?") is the most specific.
    # ("so this year's quarter, up on that?" names no reading: the one the turn fetched, when it fetched one)
    only = inputs.fetched[0] if len(inputs.fetched) == 1 and not asked_sensors(inputs.question) else None
    ranked = records_rank_verdict(inputs.artifacts, inputs.subject) \
        if asks_rank_place(Text.of(inputs.question).joined) else None
    return ranked or same_rule_verdict(inputs.question, inputs.artifacts, inputs.session) \
        or period_verdict(inputs.question, inputs.artifacts, inputs.session) \
        or period_record_difference(inputs.question, inputs.artifacts) \
        or (comparison_verdict(inputs.question, inputs.artifacts, inputs.session, reading=only) if only else None) \
        or (fleet_pick_verdict(inputs.question, inputs.artifacts) if inputs.scope == "fleet" else None) \
        or yes_no_verdict(inputs.question, inputs.artifacts or inputs.session, inputs.session)


_COUNTS_OR_COMPARES = re.compile(r"\b(?:than|more|fewer|less|how many|how often)\b", re.I)


def _is_the_job(description: str, job: frozenset[str], either: bool) -> bool:
    """The order does the job asked; `either`: the question offered alternatives ("a leak check or a freon
    top-up"), so any one of its job words will do."""
    return any(names_job(description, frozenset({s})) for s in job) if either else names_job(description, job)


def _job_done(inputs: AnswerInputs) -> ShapedLead | None:
    """"Did we already do a leak check on it this summer?": yes with the order that did it in the period
    listed, no (with the period) when none of that job is there."""
    said = last_done_job(Text.of(inputs.question), vocabulary())
    job = said - REPAIR_STEMS  # a named job, not "corrective"
    if said & REPAIR_STEMS and job <= SERVICE_STEMS:
        return None  # ("did maintenance raise any corrective orders?": maintenance raised them, it is no job asked)
    listings = [a for a in inputs.artifacts if a.kind == "work_order_summary"]
    if not job or not listings or _COUNTS_OR_COMPARES.search(inputs.question):
        return None  # ("did it have more corrective orders than chiller 2?" compares counts)
    if asks_repair_worked(inputs.question.lower()):
        return None  # ("tubes got cleaned jul 9. did it help?": the job is told; whether it helped is asked)
    done, missing = [], []
    either = bool(re.search(r"\bor\b", inputs.question, re.I))
    for art in listings:
        where = ", ".join(art.asset_ids or art.equipment_ids)
        found = next((o for o in latest_per_job(art) if _is_the_job(f"{o.code} {o.description}", job, either)), None)
        if found is not None:
            done.append(f"{where}: {found.wo_id} on {found.date} ({found.code} {found.description})")
        else:
            missing.append(f"{where} {window_phrase(art) or 'on record'}")
    if done:
        return ShapedLead(f"Yes, {'; '.join(done)}.", [], replaces_body=False)
    return ShapedLead(f"No, no such work order on {'; '.join(missing)}.", [], replaces_body=False)


def _yes_no(inputs: AnswerInputs) -> ShapedLead:
    resolved = when_resolved_sentence(inputs.question, inputs.artifacts, inputs.session)
    if resolved is not None:  # "was it fixed, and when?": yes, with the date of the work for the fault found
        return ShapedLead(f"Yes. {resolved}", [], replaces_body=False)
    rate = yearly_rate_sentence(inputs.question, inputs.artifacts) or run_time_change(inputs.question, inputs.artifacts) \
        or total_change(inputs.question, [*inputs.artifacts, *inputs.session])
    if rate is not None:  # "were the PMs done at a steady rate?", "on for more hours this sept than last?"
        return ShapedLead(rate[0], rate[1], replaces_body=False)
    ran = ran_at_all_sentence(inputs.question, inputs.artifacts)
    if ran is not None:  # "was it running at all last weekend?": its running share, yes or no
        return ShapedLead(ran, [], replaces_body=False)
    silent = silent_reading_verdict(inputs.question, inputs.artifacts, [*inputs.readings, *inputs.fetched])
    if silent is not None:  # "evap refrig temp still reading nothing?": whether that reading sends samples
        return ShapedLead(silent.sentence, silent.evidence, replaces_body=False)
    discussed = next(iter([*inputs.readings, *inputs.fetched]), None)
    recovered = recovery_verdict(inputs.question, inputs.artifacts, inputs.session, discussed)
    if recovered is not None:  # "is it back to normal now?": the reading discussed since then against before
        return ShapedLead(recovered.sentence, recovered.evidence, replaces_body=False)
    done = _job_done(inputs)
    if done is not None:
        return done
    mostly = mostly_rule_sentence(inputs.question, inputs.artifacts)
    if mostly is not None:  # "mostly the cycling ones?": that rule's share of the alerts listed
        return ShapedLead(mostly, [], replaces_body=False)
    same = same_pick_sentence(inputs.artifacts, inputs.subject) \
        if inputs.subject and SAME_ONE.search(inputs.question.lower()) else None
    if same is not None:  # "was it the same unit last year?": whether the one picked tops that period's count too
        return ShapedLead(same[0], same[1], replaces_body=False)
    place = rank_place(inputs.question, inputs.artifacts, inputs.subject, inputs.readings)
    if place is not None:  # "was that one also the worst in June 2020?": its place in the ranking, with the figures
        return ShapedLead(place[1], place[2], replaces_body=False)
    verdict = _yes_no_verdict(inputs)
    return ShapedLead(verdict.sentence, verdict.evidence, replaces_body=False)


# "When did that start?", "since when has it been like this?": a date is asked.
_WHEN_STARTED = re.compile(r"\bwhen\b.*\b(?:start\w*|begin\w*|began|kick\w* in|first)\b|\bsince when\b|"
                           r"\bhow long (?:has|have|had)\b", re.I)
_SHIFT_DAY = re.compile(r"^From (\d{4}-\d{2}-\d{2}) ")


def _moment(stamp: object) -> str:
    """"2020-07-29T18:00:00-04:00" as "2020-07-29 18:00" (site time, as the detector reports it)."""
    return str(stamp)[:16].replace("T", " ")


_STRONGEST_PERIODS = 3  # without a sustained shift, the earliest of the strongest flagged stretches dates it


def _onset(inputs: AnswerInputs) -> ShapedLead | None:
    """The day the largest sustained shift began (the detector lists the largest first), said first; without
    one, the earliest of the worst sensor's strongest flagged stretches."""
    found = [a for a in inputs.artifacts if a.kind == "anomaly_detection"]
    for art in found:
        for shift in sustained_shifts(art):
            day = _SHIFT_DAY.match(shift)
            if day is not None:
                return ShapedLead(f"It started around {day.group(1)}: {shift[day.end():].strip()}", [],
                                  replaces_body=False)
    for art in found:
        per_sensor = [v for v in (art.results.get("per_sensor") or {}).values() if isinstance(v, dict)]
        worst = max(per_sensor, key=lambda item: float(item.get("rate") or 0), default=None)
        periods = [p for p in (worst or {}).get("periods") or [] if isinstance(p, dict) and p.get("start")]
        if worst is not None and periods:
            first = min(periods[:_STRONGEST_PERIODS], key=lambda p: str(p["start"]))
            return ShapedLead(f"It shows from around {str(first['start'])[:10]}: the earliest of the strongest "
                              f"flagged stretches of {worst.get('sensor', 'the reading')} runs {_moment(first['start'])} "
                              f"to {_moment(first['end'])}.", [], replaces_body=False)
    return None


def _the_one_before(art: Artifact, latest: OrderRef, job: frozenset[str]) -> str:
    """"; the one before it: WO155001 on 2020-10-02 (...)": the next older order of the same job among the
    summary's latest orders (said so when it is not among them)."""
    listed = recent_orders(art)
    ids = [o.wo_id for o in listed]
    older = listed[ids.index(latest.wo_id) + 1:] if latest.wo_id in ids else []
    match = next((o for o in older if names_job(f"{o.code} {o.description}", job)
                  or (job <= REPAIR_STEMS and not o.preventive) or (job <= SERVICE_STEMS and o.preventive)), None)
    if match is None:
        return f"; the one before it is not among the {len(listed)} latest orders listed"
    return f"; the one before it: {match.wo_id} on {match.date} ({match.code} {match.description})"


def _best_named(question: str, orders: list[OrderRef]) -> OrderRef | None:
    """Of the orders doing the job asked (newest first), the one whose description shares the most words with the
    question ("the last water leak": L002 Water Leak before a newer MT008 Leak Detection survey)."""
    asked = set(Text.of(question).stems)
    return max(orders, key=lambda o: len(asked & set(Text.of(f"{o.code} {o.description}").stems)), default=None)


def _last_done(inputs: AnswerInputs, job: frozenset[str]) -> ShapedLead | None:
    """"When was it last cleaned?": the latest work order of that job in the listing, date first."""
    listings = [a for a in inputs.artifacts if a.kind == "work_order_summary"]
    if not listings:
        return None
    lines = []
    for art in listings:
        where = ", ".join(art.asset_ids or art.equipment_ids)
        orders = latest_per_job(art)
        found = _best_named(inputs.question, [o for o in orders if names_job(f"{o.code} {o.description}", job)])
        if found is None and job <= SERVICE_STEMS:  # "serviced", "a preventive WO" name no job: any planned one
            found = next((o for o in orders if o.preventive), None)
        if found is None and job <= REPAIR_STEMS:  # "last repaired", "last corrective WO": any corrective order
            found = next((o for o in orders if not o.preventive), None)
        lines.append(f"{where}: last on {found.date}, {found.wo_id} ({found.code} {found.description})" if found
                     else f"{where}: no such work order {window_phrase(art) or 'on record'}")
        if found is not None and ONE_BEFORE.search(inputs.question):
            lines[-1] += _the_one_before(art, found, job)
    first = lines[0] + "." if len(lines) == 1 else "Latest matching work orders: " + "; ".join(lines) + "."
    return ShapedLead(first, [], replaces_body=False)


def _open(inputs: AnswerInputs) -> ShapedLead | None:
    """Only where the finding has a better form than its summary: a count asked for leads with it, the day
    a change began leads an answer to "when did it start?"."""
    resolved = when_resolved_sentence(inputs.question, inputs.artifacts, inputs.session)
    if resolved is not None:  # "when did we sort that out?": the date of the work for the fault found, first
        return ShapedLead(resolved, [], replaces_body=False)
    tripped_at = last_trip_sentence(inputs.question, inputs.artifacts)
    if tripped_at is not None:  # "when did it last trip?": the stop's date and time, then the diagnosis
        return ShapedLead(tripped_at, [], replaces_body=False)
    # only where the readings are the answer (a sensor-health or other analysis says its own finding first)
    run_time = run_time_sentence(inputs.question, inputs.artifacts) or last_ran_sentence(inputs.question, inputs.artifacts)
    reads = bool(inputs.artifacts) and inputs.artifacts[0].kind in ("telemetry_window", "point_values")
    idle = idle_sentence(inputs.artifacts) if reads and run_time is None else None
    if idle is not None:  # the chiller was off: said first, with the window's own figures after it
        return ShapedLead(idle, [f"- {a.summary}" for a in inputs.artifacts
                                 if a.kind in ("telemetry_window", "point_values") and a.summary][:2],
                          replaces_body=False)
    # ("load wasn't that different. what would explain the jump?": the cause asked is the diagnosis's to say, not the
    # figures the statement before it set side by side)
    diagnosed = any(hypotheses(a) for a in inputs.artifacts) and read_request(inputs.question).asks_cause
    stated = None if diagnosed else run_time or extreme_sentence(inputs.question, inputs.artifacts) \
        or reading_course_sentence(inputs.question, inputs.artifacts) \
        or comparison_sentence(inputs.question, inputs.artifacts, inputs.fetched)
    if stated is not None:  # a statistic other than the mean was asked, or two figures set side by side: it leads
        return ShapedLead(stated, [], replaces_body=False)
    listing = order_listing(inputs.question, inputs.artifacts) or pointed_order_sentence(inputs.question,
                                                                                          inputs.artifacts)
    if listing is not None:  # "what were the last three jobs?", "that vibration one?": the orders themselves
        return ShapedLead(listing[0], listing[1], replaces_body=False)
    job = last_done_job(Text.of(inputs.question), vocabulary())
    if job:
        done = _last_done(inputs, job)
        if done is not None:
            return done
    if _WHEN_STARTED.search(inputs.question):
        onset = _onset(inputs)
        if onset is not None:
            return onset
    code = site_codes_sentence(inputs.question, inputs.artifacts)
    if code is not None:  # "whats the most common failure code in those": the code, its share, the next one
        return ShapedLead(code, [], replaces_body=False)
    mostly = mostly_rule_sentence(inputs.question, inputs.artifacts)
    if mostly is not None:  # "mostly the cycling ones?" with its verb left out is still a yes or no
        return ShapedLead(mostly, [], replaces_body=False)
    counted = alert_count_sentence(inputs.question, inputs.artifacts)
    if counted is not None:
        listed = [f"- {a.summary}" for a in inputs.artifacts if a.kind == "alert_rules" and a.summary]
        return ShapedLead(counted, listed[:4], replaces_body=False)
    per_period = orders_per_period_sentence(inputs.question, inputs.artifacts)
    if per_period is not None:  # "corrective orders year by year": each period's count, then each summary
        listed = [f"- {first_clause(a.summary, 300)}" for a in inputs.artifacts
                  if a.kind == "work_order_summary" and a.summary]
        return ShapedLead(per_period, listed[:6], replaces_body=False)
    records = period_record_comparison(inputs.question, inputs.artifacts)
    if records is not None:  # "how does that total compare with the same months of 2019?": both counts, how far apart
        return ShapedLead(records, [], replaces_body=False)
    return None


def _long_output(inputs: AnswerInputs) -> ShapedLead | None:
    report = next((a for a in inputs.artifacts if a.kind in LONG_KINDS), None)
    if report is None:
        return None
    lines = report_summary(report, inputs.session or inputs.artifacts, bullets_asked(inputs.question),
                           earlier=inputs.earlier_leads)
    return ShapedLead(lines[0], lines[1:])


def _fleet(inputs: AnswerInputs) -> ShapedLead | None:
    only = inputs.fetched[0] if len(inputs.fetched) == 1 else None  # "same for ch6": the reading fetched
    by_sensor = change_ranking(inputs.question, inputs.artifacts) \
        or setpoint_offset_ranking(inputs.question, inputs.artifacts) \
        or sensor_ranking(inputs.question, inputs.artifacts, reading=only)
    if by_sensor is not None:  # the sensor the question names ranks them, not the anomaly share
        return ShapedLead(by_sensor.headline, by_sensor.lines, replaces_body=False)
    totals = _site_totals(inputs)
    if totals is not None:
        return totals
    rows = next((r for a in inputs.artifacts if a.kind == "priority_ranking" and (r := ranking(a))), None)
    if rows is not None and len(rows) > 1 and _PLAN.search(inputs.question):
        # "a plan for this week, most urgent first": the order of the work leads (a ranking of how the chillers
        # look, "rank them worst first", leads with what stands out)
        why = (rows[0].reasons or ("no adverse evidence on any asset yet",))[0]
        return ShapedLead(f"{rows[0].asset_id} first: {why[:1].lower()}{why[1:]}.", ranking_lines(rows))
    comparison = compare_assets(inputs.artifacts, inputs.question)
    return ShapedLead(comparison.headline, comparison.lines) if comparison is not None else None


_PLAN = re.compile(r"\bplan\b|\bschedule\b", re.I)


def _site_totals(inputs: AnswerInputs) -> ShapedLead | None:
    """"top 3 alarm rules on site", "the most common failure code across the site": the rules (codes) summed
    across the equipment lead, the per-equipment table follows."""
    summed = site_rules_sentence(inputs.question, inputs.artifacts) or site_codes_sentence(inputs.question,
                                                                                          inputs.artifacts)
    if summed is None:
        return None
    comparison = compare_assets(inputs.artifacts, inputs.question)
    return ShapedLead(summed, comparison.lines if comparison is not None else [], replaces_body=False)


def _by_symptoms(inputs: AnswerInputs) -> ShapedLead | None:
    """"What kind of failure gives you more kW and a warmer leaving temp?": the failure-mode knowledge this turn
    looked up, ranked by the symptoms the question describes."""
    if not any(a.kind in ("failure_modes", "sensor_mapping") for a in inputs.artifacts):
        return None
    found = symptom_answer(described_symptoms(Text.of(inputs.question), vocabulary()))
    return ShapedLead(found[0], found[1], replaces_body=False) if found is not None else None


_ACTIONABLE = {"Yes": "Actionable", "Partly": "Partly actionable", "No": "Mostly nuisance", "Not clearly": "Not clearly"}


def _alerts_real_or_noise(inputs: AnswerInputs) -> str | None:
    """"Anything actionable in there, or mostly nuisance?" about alerts: whether work orders followed them."""
    if not asks_real_or_noise(inputs.question):
        return None
    verdict = alert_outcome_verdict(inputs.artifacts, "do they lead to work orders?", inputs.session)
    if verdict is None:
        return None
    # ("Sometimes: ... no rule reaches the share that makes it meaningful": mostly nuisance, not partly actionable)
    label = "Mostly nuisance" if verdict.sentence.startswith("Sometimes") else _ACTIONABLE.get(verdict.answer,
                                                                                               verdict.answer)
    return f"{label}: {without_answer(verdict.sentence)}"


def shaped_lead(inputs: AnswerInputs) -> ShapedLead | None:
    """The opening for the question's shape, or None where the finding's own summary answers best."""
    by_symptoms = _by_symptoms(inputs)
    if by_symptoms is not None:
        return by_symptoms
    accuracy = forecast_accuracy_verdict(inputs.artifacts, inputs.question) if inputs.shape == "open" else None
    if accuracy is not None:  # "how confident are you in that number?": the error against the level, judged
        return ShapedLead(accuracy.sentence.removeprefix(f"{accuracy.answer}, ").capitalize(), accuracy.evidence,
                          replaces_body=False)
    meaning = rule_meaning_sentence(inputs.question, inputs.artifacts) if _ASKS_MEANING.search(inputs.question) \
        else None
    if meaning is not None:  # "what does RUL0018 mean?": the rule's name, then where it fired
        return ShapedLead(meaning, [], replaces_body=False)
    codes = rule_codes_sentence(inputs.question, inputs.artifacts)
    if codes is not None:  # "which failure codes is that rule tied to?": the codes it maps to, then how often it fired
        return ShapedLead(codes, [], replaces_body=False)
    if inputs.shape in ("which", "open") and (_DRIFT_OR_REAL.search(inputs.question)
                                             or doubts_instrument(inputs.question.lower())):
        # "is its sensor drifting, or is that a real change?", "real problem or is the sensor lying?": the side
        side = real_or_instrument(inputs.artifacts)
        if side is not None:
            return ShapedLead(side[0], side[1], replaces_body=False)
    real = real_or_noise_sentence(inputs.question, inputs.artifacts) or _alerts_real_or_noise(inputs)
    if real is not None:  # "real problem or noise?": the choice asked, from the diagnosis (or the alerts' outcomes)
        return ShapedLead(real, [], replaces_body=False)
    besides = other_rules_sentence(inputs.question, inputs.artifacts)
    if besides is not None:  # "anything besides load low on them?": the other rules that fired
        return ShapedLead(besides, [], replaces_body=False)
    driver = alert_change_driver(inputs.question, [*inputs.artifacts, *inputs.session])
    if driver is not None:  # "why the jump?" after two alert counts: the rule that moved most
        return ShapedLead(driver[0], driver[1], replaces_body=False)
    long_output = _long_output(inputs)
    if long_output is not None and inputs.shape in ("open", "verdict"):
        return long_output
    if inputs.shape == "yes_no":
        return _yes_no(inputs)
    if inputs.shape == "which":
        return _which(inputs) or _fleet(inputs) or _the_one_read(inputs)
    if inputs.shape == "how_to":
        return _how_to(inputs)
    if inputs.shape == "verdict":
        return _verdict(inputs)
    if inputs.shape == "recommend":
        return _recommend(inputs)
    fired = rule_last_fired_sentence(inputs.question, inputs.artifacts)
    if fired is not None:  # "when did it last log excessive power while off?": that rule's latest alert
        return ShapedLead(fired, [], replaces_body=False)
    dates = alert_dates_sentence(inputs.question, inputs.artifacts)
    if dates is not None:  # "when did they happen?" after an alert count: the months they came in
        return ShapedLead(dates[0], dates[1], replaces_body=False)
    total = total_sentence(inputs.question, inputs.artifacts)
    if total is not None:  # "the plant's total power draw yesterday?": summed over the chillers, then the energy
        return ShapedLead(total, [], replaces_body=False)
    coded = coded_order_count_sentence(inputs.question, inputs.artifacts)
    if coded is not None:  # "those leaks on it, how many?": the orders coded for that work, from the listing's codes
        return ShapedLead(coded, [], replaces_body=False)
    labour = labour_sentence(inputs.question, inputs.artifacts)
    if labour is not None:  # "how much labour did those take?": the hours booked, per equipment id
        fleet = _fleet(inputs) if inputs.scope in ("fleet", "assets") else None
        return ShapedLead(labour, fleet.lines if fleet is not None else [], replaces_body=False)
    if inputs.scope in ("fleet", "assets"):
        yearly = per_year_comparison(inputs.question, inputs.artifacts)
        if yearly is not None:  # "how does chiller 9 compare over the same years?": year by year, the one asked first
            fleet = _fleet(inputs)
            return ShapedLead(yearly, fleet.lines if fleet is not None else [], replaces_body=False)
        counted = alert_count_sentence(inputs.question, inputs.artifacts) \
            or site_order_count_sentence(inputs.question, inputs.artifacts)
        if counted is not None:  # "how many alarms did the plant have?": the count, then the table
            fleet = _fleet(inputs)
            return ShapedLead(counted, fleet.lines if fleet is not None else [], replaces_body=False)
        fleet = _fleet(inputs)
        if fleet is not None:
            return fleet
    return _open(inputs)


def figures_for(artifacts: list[Artifact]) -> list[str]:
    """Bullet figures of the first telemetry window (when the answer leads with telemetry)."""
    window = next((a for a in artifacts if a.kind == "telemetry_window" and stats_of(a)), None)
    return telemetry_figures(window) if window is not None else []


def offer_for(pending_offer: str | None) -> str:
    """The closing offer for a pending action ('' when none)."""
    return offer_sentence(pending_offer)


def decision_shape(decision: TurnDecision) -> tuple[str, str]:
    """(shape, scope) of the turn's decision."""
    return decision.shape, decision.scope
