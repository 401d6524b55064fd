"""Recommendations ("should we...?", "replace or keep fixing?"): the advice and its reasons first, then
an offer to act. Never the action itself: drafting is done only when the user asks for it.

Pure functions over the turn's and the session's artifacts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from artifacts.model import Artifact
from artifacts.readings import (
    OrderRef,
    RuleCount,
    alert_outcomes,
    alert_rules,
    anomaly_rate,
    efficiency_trend_per_day,
    hypotheses,
    latest_per_job,
    recent_orders,
    work_order_counts,
)
from graph.answering.asked_figures import coded_orders, named_rules, rule_text
from graph.answering.procedure import DriftFinding, checked_sensor, drift_findings
from graph.understanding.request import ALARM_TUNING, described_work, named_job, read_request
from specialists.maintenance.alerts import MEANINGFUL_P, SPURIOUS_P
from specialists.maintenance.bundling import MOBILISATION_HOURS
from specialists.maintenance.drafting import code_text, draft_work_order
from specialists.maintenance.prioritize import FALSE_ALARM_RATE

# The action an answer offers (Focus.pending_offer) -> the sentence that offers it.
OFFERS: dict[str, str] = {
    "draft_wo": "Say 'draft it' and I will draft the work order.",
    "monitoring_config": "Say 'set it up' and I will write the monitoring configuration.",
    "validation_protocol": "Say 'go ahead' and I will write the validation protocol.",
    "restart_checklist": "Say 'go ahead' and I will write the restart checklist.",
    "report": "Say 'write the report' and I will write it up for management.",
    "diagnose": "Say 'go ahead' and I will diagnose the most likely cause.",
    "anomaly_detection": "Say 'go ahead' and I will run anomaly detection on it.",
    "finetune": "Say 'fine-tune it' and I will fine-tune the model on this chiller's data and compare the forecasts.",
}
_REPLACE = re.compile(r"\b(replac\w*|retir\w*|end of (its )?life|scrap|new (unit|chiller)|swap (it )?out)\b", re.I)
INSPECT_PROBABILITY = 0.5  # a fault this likely is worth a planned look
RISING_CORRECTIVE = 1.0  # corrective orders a year added each year: a unit wearing out
MANY_CORRECTIVE = 6  # corrective orders in the last complete year
MANY_ALERTS = 10  # alerts in the period: a targeted look is worth it even before a diagnosis


@dataclass(frozen=True)
class Recommendation:
    """The advice (first sentence), the reasons behind it and the offer that closes the answer."""

    sentence: str
    reasons: list[str] = field(default_factory=list)
    offer: str = ""


def offer_sentence(pending_offer: str | None) -> str:
    """The sentence offering the action the planner set as pending ('' when none)."""
    return OFFERS.get(pending_offer or "", "Say 'go ahead' and I will do it." if pending_offer else "")


def _latest(artifacts: list[Artifact], kind: str) -> Artifact | None:
    found = [a for a in artifacts if a.kind == kind]
    return max(found, key=lambda a: a.turn_index or 0) if found else None


def _top_fault(artifacts: list[Artifact]) -> tuple[str, float, Artifact] | None:
    diagnosis = _latest(artifacts, "diagnose")
    hyps = hypotheses(diagnosis) if diagnosis else []
    if not diagnosis or not hyps:
        return None
    return hyps[0].failure_mode, hyps[0].probability, diagnosis


def _corrective_reasons(art: Artifact | None) -> tuple[list[str], float, int]:
    if art is None:
        return [], 0.0, 0
    wo = work_order_counts(art)
    per_year = wo.corrective_per_year
    slope = wo.corrective_trend_per_year or 0.0
    counts = [per_year[y] for y in sorted(per_year)]
    if not counts:
        return [], slope, 0
    years = sorted(per_year)
    hours = counts[-1] * MOBILISATION_HOURS
    return [f"corrective orders {', '.join(map(str, counts))} a year {years[0]}-{years[-1]} "
            f"(trend {slope:+.1f}/year) [{art.id}]",
            f"about {hours:g} h of call-out labour in {years[-1]} at ~{MOBILISATION_HOURS:g} h a visit "
            "(a proxy: the records hold no labour hours)"], slope, counts[-1]


def _efficiency_reason(artifacts: list[Artifact]) -> tuple[str, bool]:
    trend = _latest(artifacts, "trend_stats")
    value = efficiency_trend_per_day(trend) if trend else None
    if trend is None or value is None:
        return "", False
    worse = value > 0
    return f"kW/ton {'rising' if worse else 'steady or falling'} ({value:+.4f}/day) [{trend.id}]", worse


def replace_or_repair(artifacts: list[Artifact], pending_offer: str | None) -> Recommendation:
    """Replace or keep fixing: rising corrective work, its labour, and a worsening efficiency."""
    reasons, slope, last = _corrective_reasons(_latest(artifacts, "work_order_summary"))
    efficiency, worse = _efficiency_reason(artifacts)
    reasons += [efficiency] if efficiency else []
    if not reasons:
        return Recommendation("I cannot recommend either yet: there is no work-order history or efficiency "
                              "trend for this unit in the session.", [],
                              "Say 'show the work orders' and I will pull its corrective history.")
    wearing = slope >= RISING_CORRECTIVE and last >= MANY_CORRECTIVE
    if wearing and (worse or not efficiency):
        head = "Start planning a replacement: breakdowns are rising year on year"
    elif wearing or worse:
        head = "Keep fixing it for now, but budget for a replacement: the signs of wear are mixed"
    else:
        head = "Keep fixing it for now: the repair load is not rising"
    return Recommendation(head + ".", reasons, offer_sentence(pending_offer))


# "now or wait till the fall?", "can that wait?": the question weighs acting now against later.
_NOW_OR_LATER = re.compile(r"\b(now|wait|hold off|ride it out|later|postpone|defer|put (it )?off|until|till)\b", re.I)


# "should I raise a corrective order, or is there one already?", "raise a wo now or wait?": an order is weighed
_ORDER_WEIGHED = re.compile(r"\b(?:raise|put in|open|log|file|cut|submit|create|book)\b[^?]*?\b(?:work ?orders?|wos?|"
                            r"orders?|tickets?|jobs?)\b|\balready\b", re.I)


def _order_on_file(artifacts: list[Artifact]) -> OrderRef | None:
    """The latest corrective order the turn's work-order listing holds."""
    summary = _latest(artifacts, "work_order_summary")
    return next((o for o in recent_orders(summary) if not o.preventive), None) if summary is not None else None


def inspection(artifacts: list[Artifact], pending_offer: str | None, job: str | None = None,
               timing: bool = False, order_weighed: bool = False) -> Recommendation:
    """Plan an inspection or work? From the top fault's probability and the anomaly shares. The advice names
    the job the user asked about (`job`, else an inspection), and says now or later when `timing` is asked; when
    raising an order is weighed (`order_weighed`), the corrective order already on file is said beside it."""
    work = job or "inspection"
    reasons: list[str] = []
    fault = _top_fault(artifacts)
    anomaly = _latest(artifacts, "anomaly_detection")
    rate = anomaly_rate(anomaly) if anomaly else None
    likely = fault is not None and not fault[0].lower().startswith("no fault") and fault[1] >= INSPECT_PROBABILITY
    if fault is not None:
        reasons.append(f"most likely cause: {fault[0]} ({fault[1]:.2f}) [{fault[2].id}]")
    if anomaly is not None and rate is not None:
        reasons.append(f"{rate:.1%} of running samples flagged vs ~{FALSE_ALARM_RATE:.0%} on healthy data "
                       f"[{anomaly.id}]")
    alerts = _latest(artifacts, "alert_rules")
    fired = sum(r.count for r in alert_rules(alerts) or []) if alerts else 0
    if alerts is not None and fired:
        # (the rules behind them, busiest first: "evaporator approach alarms won't stop" is answered in its words)
        busiest = sorted((r for r in alert_rules(alerts) or [] if r.count), key=lambda r: -r.count)[:2]
        mostly = ", mostly " + " and ".join(f"{rule_text(r)} ({r.count})" for r in busiest) if busiest else ""
        reasons.append(f"{fired} alerts fired in the period{mostly} [{alerts.id}]")
    abnormal = (rate is not None and rate > 2 * FALSE_ALARM_RATE) or fired >= MANY_ALERTS
    if not reasons:
        return Recommendation(f"Not yet: nothing in this session points to a fault, so the {work} would be "
                              "routine rather than targeted.", [], offer_sentence(pending_offer))
    act = f"do the {work} now, don't wait" if timing else f"plan the {work}"
    if likely:
        head = f"Yes, {act}: {fault[0]} is the likely cause" if fault else f"Yes, {act}"
    elif abnormal:
        head = f"Yes, {act}: the chiller behaves abnormally or keeps alarming, though no cause is diagnosed yet"
    else:
        head = (f"Not yet: the {work} can wait; the evidence does not point to a fault, keep monitoring" if timing
                else f"Not yet: the evidence does not point to a fault, so hold the {work}; keep monitoring")
    on_file = _order_on_file(artifacts) if order_weighed else None
    if on_file is not None:
        # (a new order would duplicate the one open or just done: it is named so the crew checks it first)
        what = f" ({on_file.code} {on_file.description})".replace(" )", ")") if on_file.code else ""
        head += f". A corrective order is already on file: {on_file.wo_id} on {on_file.date}{what}; check it before " \
                "raising another"
    offer = offer_sentence(pending_offer or ("draft_wo" if head.startswith("Yes") else None))
    return Recommendation(head + ".", reasons, offer)


def preview(artifacts: list[Artifact], pending_offer: str | None, work: str | None) -> Recommendation:
    """"What would the work order say?": the order as it would be drafted (`draft_work_order`, the same
    function the drafting uses), shown and not filed."""
    fault = _top_fault(artifacts)
    mode = fault[0] if fault is not None and not fault[0].lower().startswith("no fault") else None
    asset = next((a.asset_ids[0] for a in ([fault[2]] if fault else []) + artifacts[::-1] if a.asset_ids), None)
    if asset is None:
        return Recommendation("There is no chiller in this conversation yet to write an order for.", [])
    draft = draft_work_order(equipment_id=asset, asset_id=asset, failure_mode=mode,
                             confidence=fault[1] if fault else None, evidence=[], existing=[],
                             now=datetime.now(), work=work)
    reasons = [f"Scope: {step}" for step in draft.scope[:3]]
    if fault is not None:
        reasons.append(f"based on: {fault[0]} ({fault[1]:.2f}) [{fault[2].id}]")
    return Recommendation(f"The work order would read: \"{draft.title}\", {code_text(draft)}, priority {draft.priority}; "
                          "nothing is filed.", reasons, offer_sentence(pending_offer or "draft_wo"))


def about_assets(artifacts: list[Artifact], assets: set[str]) -> list[Artifact]:
    """The artifacts of `assets` (and those of no particular asset): advice on Chiller 6 never rests on
    another chiller's diagnosis found earlier in the session. All of them when `assets` is empty."""
    if not assets:
        return artifacts
    return [a for a in artifacts if not (a.asset_ids or a.equipment_ids)
            or assets & {*a.asset_ids, *a.equipment_ids}]


def alarm_tuning(artifacts: list[Artifact], pending_offer: str | None, question: str = "") -> Recommendation | None:
    """"Is it worth loosening the cycling alarm?": whether the rule's alerts led to work decides. Mostly not: tuning
    it costs little (it fires without trouble behind it); mostly yes: keep it, it flags real work. None without an
    analysis of its alerts."""
    found = [(a, o) for a in artifacts if a.kind == "alert_to_failure" for o in alert_outcomes(a) if o.alerts]
    if not found:
        return None
    names = {r.rule_id: r.rule_name for a in artifacts if a.kind == "alert_rules" for r in alert_rules(a) or []}
    # the rule the question names ("the cycling alarm"), else the busiest one analysed
    said = {r.rule_id for r in named_rules(question, [RuleCount(o.rule_id, o.alerts, names.get(o.rule_id, ""))
                                                      for _, o in found])}
    art, outcome = max(found, key=lambda pair: (pair[1].rule_id in said, pair[1].alerts))
    rule = rule_text(RuleCount(outcome.rule_id, outcome.alerts, names.get(outcome.rule_id, "")))
    where = ", ".join(art.equipment_ids or art.asset_ids)
    followed = f"{outcome.p_work_order:.0%} of its {outcome.alerts} alerts on {where}"
    share = f"a work order followed {followed}"
    reasons = [f"{rule}: {share} [{art.id}]",
               f"a rule is meaningful when at least {MEANINGFUL_P:.0%} of its alerts lead to work, likely spurious "
               f"under {SPURIOUS_P:.0%}"]
    if outcome.p_work_order >= MEANINGFUL_P:
        sentence = (f"No, I would leave {rule} as it is: {share}, enough to count as a meaningful rule, so making it "
                    f"fire less would hide real trouble.")
    elif outcome.p_work_order < SPURIOUS_P:
        sentence = (f"Yes, {rule} is worth re-tuning: a work order followed only {followed}, so most of its alerts are noise the crew "
                    f"learns to ignore.")
    else:
        sentence = (f"Worth a careful re-tune of {rule}: {share}, so some of its alerts do lead to work; adjust it in "
                    f"small steps and check the alerts it would have dropped.")
    return Recommendation(sentence, reasons, offer_sentence(pending_offer))


# "recalibrate the sensor or replace it?", "swap the probe out?": the choice is about an instrument
_OF_A_SENSOR = re.compile(r"\b(?:sensors?|transmitters?|probes?|rtds?|thermistors?|instruments?|(?:re-?)?calibrat\w*|recal)\b",
                          re.I)


def recalibrate_or_replace(drift: DriftFinding, pending_offer: str | None) -> Recommendation:
    """A drifting sensor: recalibrate it first (drift is a calibration fault, the element still responds), and replace
    it only if it fails the check against a reference or drifts out again."""
    moved = f" moved {drift.shift} at equal load" if drift.shift else " drifted"
    return Recommendation(
        f"Recalibrate it first: {drift.asset}'s {drift.sensor}{moved} while the readings coupled to it held, which is "
        "calibration drift, not a dead sensor; replace it only if it fails the check against a reference probe or "
        "drifts out again within a few months.",
        [f"{drift.asset} {drift.sensor}: sensor drift [{drift.artifact_id}]",
         "a drifting element still tracks the process, so a recalibration restores it; a stuck, noisy or dead one "
         "needs replacing"],
        offer_sentence(pending_offer or "draft_wo"))


def field_check_first(finding: DriftFinding, verdict: str, pending_offer: str | None) -> Recommendation:
    """A sensor the data show reading true: neither replacement nor recalibration is called for yet; a check against a
    reference decides (recalibrate if it reads off, replace if it is stuck or dead)."""
    return Recommendation(
        f"Neither yet: {finding.asset}'s {finding.sensor} shows {verdict} in the data, not drift; check it against a "
        "reference probe first, recalibrate it if it reads off, and replace it only if it is stuck, noisy or dead.",
        [f"{finding.asset} {finding.sensor}: {verdict} [{finding.artifact_id}]"],
        offer_sentence(pending_offer or "draft_wo"))


def recommend(question: str, artifacts: list[Artifact], pending_offer: str | None,
              assets: set[str] | None = None) -> Recommendation:
    """The recommendation the question asks for, on the evidence of `assets` (the turn's chillers): the order
    as it would read when asked, replace-or-repair when it says so, else act-or-wait."""
    artifacts = about_assets(artifacts, assets or set())
    if read_request(question).preview:
        return preview(artifacts, pending_offer, described_work(question))
    of_a_sensor = bool(_REPLACE.search(question) and _OF_A_SENSOR.search(question))
    drifted = drift_findings(artifacts) if of_a_sensor else []
    if drifted:  # "should we recalibrate the sensor or replace it outright?": the instrument, not the chiller
        return recalibrate_or_replace(drifted[0], pending_offer)
    checked = checked_sensor(artifacts) if of_a_sensor else None
    if checked is not None:  # the check found it reading true: neither, until a field check says otherwise
        return field_check_first(*checked, pending_offer)
    if _REPLACE.search(question):
        return replace_or_repair(artifacts, pending_offer)
    tuned = alarm_tuning(artifacts, pending_offer, question) if ALARM_TUNING.search(question.lower()) else None
    if tuned is not None:
        return tuned
    history = work_history(question, artifacts, pending_offer)
    if history is not None:
        return history
    return inspection(artifacts, pending_offer, named_job(question), bool(_NOW_OR_LATER.search(question)),
                      bool(_ORDER_WEIGHED.search(question)))


def work_history(question: str, artifacts: list[Artifact], pending_offer: str | None) -> Recommendation | None:
    """"Is it worth adding a BAS software check to the next PM on 10 and 13, given the history?": the breakdowns
    coded for that work on each chiller listed decide it (repeated: yes; none: no need). None unless the question
    names work some listed breakdown's code names."""
    listings = [a for a in artifacts if a.kind == "work_order_summary"]
    found = []
    for art in listings:
        coded = coded_orders(question, [art])
        broke = {o.code for o in latest_per_job(art) if not o.preventive}
        if coded is not None and broke & set(coded.code_ids):
            found.append(coded)
    if not found:
        return None
    total = sum(c.total for c in found)
    reasons = [f"{c.where}: {c.codes}" for c in found]
    named = described_work(question) or named_job(question)
    work = f"the {named}" if named else "it"
    head = (f"Yes, add {work}: the history shows {total} breakdown{'s' if total != 1 else ''} coded for that work"
            if total > 1 else "Not on this history alone: one breakdown coded for that work, so it would be routine")
    return Recommendation(head + ".", reasons, offer_sentence(pending_offer))
