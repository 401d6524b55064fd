"""The alert actions of the maintenance specialist: which rules fire (alert_rules) and whether their
alerts lead to maintenance (alert_to_failure).

No rule on record for an equipment, or no alert of a rule in the period, is an answer, and the
equipment's events over the period say what did happen: which rules fired instead, or, with no alert
in the period, when the last one was (see empty_periods).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from assetops.domain.turn import SpecialistTask
from specialists.base import SpecialistContext, SpecialistResult, ToolOutcome, found_nothing
from specialists.maintenance.alerts import (
    TRIAGE_RULE,
    RuleActivity,
    alerts_per_month,
    kpi_anomalies,
    rule_activity,
    triage,
)
from specialists.maintenance.empty_periods import EVENTS_TOOL, event_log_line, last_before
from specialists.maintenance.shared import (
    date_args,
    equipment_of,
    maintenance_result,
    period_label,
    save_artifact,
    with_notes,
)


@dataclass
class PeriodAlerts:
    """What the equipment's events over the period say about its alerts, and the calls that said it."""

    activity: list[RuleActivity]
    lines: list[str] = field(default_factory=list)
    calls: list[ToolOutcome] = field(default_factory=list)


def _fired_text(fired: list[RuleActivity]) -> str:
    return ", ".join(f"{a.rule_id} {a.rule_name.removeprefix('Chiller - ')} ({a.count} alerts)" for a in fired)


async def period_alerts(ctx: SpecialistContext, equipment_id: str, args: dict[str, str], names: dict[str, str], *,
                        rules_on_record: bool, events: ToolOutcome | None = None) -> PeriodAlerts:
    """The rules' activity over the period from `wo.get_events` (run here unless `events` is given);
    with no event at all in the period, the last alert (no rules on record: the last event) before it."""
    if events is None:
        (events,) = await ctx.tools.run([(EVENTS_TOOL, {"equipment_id": equipment_id, **args})],
                                        specialist="maintenance")
    found = PeriodAlerts(rule_activity(events.output.get("events", []) if events.ok else [], names), calls=[events])
    if not rules_on_record:
        found.lines.append(f"No alert rules on record for {equipment_id}: no alert has ever fired on it.")
        if events.ok:
            found.lines.append(f"Its event log over the period holds {event_log_line(events.output['events'])}.")
    if not events.ok and not found_nothing(events.error):
        found.lines.append(f"The events of {equipment_id} over the period could not be read ({events.error}).")
        return found
    if not events.ok:  # nothing at all in the period: when was the last alert (no rules: the last event)?
        before = await last_before(ctx, EVENTS_TOOL, equipment_id, args, noun="alert" if rules_on_record else "event",
                                   group="ALERT" if rules_on_record else None)
        if before is not None:
            found.lines.append(before.text)
            found.calls.append(before.outcome)
    return found


async def alert_rules(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """Which rules fire on the equipment and how often (none on record is an answer, with its event log)."""
    artifacts, errors, lines = [], [], []
    for equipment_id, asset in equipment_of(task, ctx.catalog):
        args = date_args(task, ctx.reference_date)
        rules, events = await ctx.tools.run(
            [("wo.get_alert_rules", {"equipment_id": equipment_id}), (EVENTS_TOOL, {"equipment_id": equipment_id, **args})],
            specialist="maintenance")
        if not rules.ok and not found_nothing(rules.error):
            errors.append(rules.error or "alert rules unavailable")
            continue
        names = {r["rule_id"]: r.get("rule_name", r["rule_id"]) for r in rules.output.get("rules", [])} if rules.ok else {}
        alerts = await period_alerts(ctx, equipment_id, args, names, rules_on_record=rules.ok, events=events)
        fired = [a for a in alerts.activity if a.count]
        silent = [a.rule_id for a in alerts.activity if not a.count]
        total = sum(a.count for a in fired)  # "how many alarms?" is answered by the first figure
        where = f"{asset}, {equipment_id}" if asset else equipment_id  # ("the quietest one": named, not just its id)
        if not rules.ok:
            head = alerts.lines[0].removesuffix(".")
        elif fired:
            head = (f"{total} alert{'s' if total != 1 else ''} from {len(fired)} rule(s) on {where} "
                    f"({period_label(task)}): " + _fired_text(fired)
                    + (f"; no alerts in this period from {', '.join(silent)}" if silent else ""))
        else:
            head = f"No alerts on {where} ({period_label(task)}) from any of its rules ({', '.join(silent)})"
        obs = [head] + [f"{a.rule_id}: {a.count} alerts {a.first}..{a.last}, busiest month {a.busiest_month}, "
                        f"{a.per_month_mean}/active month" for a in fired] + alerts.lines[0 if rules.ok else 1:]
        # the same event log holds the KPI anomaly events (the analytics' own alarms on derived KPIs)
        kpis = kpi_anomalies(events.output.get("events", [])) if events.ok else []
        if kpis:
            obs.append(f"KPI anomaly events: {sum(n for _, n in kpis)} ("
                       + ", ".join(f"{kind} {n}" for kind, n in kpis) + ").")
        art = await save_artifact(ctx, task, kind="alert_rules", summary=head, observations=obs,
                                  results={"rules": [a.__dict__ for a in alerts.activity], "rules_on_record": rules.ok,
                                           # what each rule points at, from the site's rule-to-failure-code mapping
                                           "rule_failure_codes": {a.rule_id: ctx.catalog.failure_codes_of_rule(a.rule_id)
                                                                  for a in alerts.activity
                                                                  if ctx.catalog.failure_codes_of_rule(a.rule_id)},
                                           "kpi_anomalies": [{"kpi": kind, "count": n} for kind, n in kpis],
                                           "asked_rules": [str(r) for r in task.params.get("asked_rules") or []],
                                           "per_month": alerts_per_month(events.output.get("events", []))
                                           if events.ok else {}},
                                  calls=[rules, *alerts.calls], assets=[asset] if asset else [], equipment=[equipment_id])
        artifacts.append(art)
        lines.append(with_notes(head, obs[1 + len(fired):]))
    return maintenance_result(task, " | ".join(lines), artifacts, errors)


async def alert_to_failure(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """Per rule (in parallel): does an alert lead to maintenance? Triage verdict with the rule used. Rules
    without an alert in the period are reported with the rules that did fire in it."""
    artifacts, errors, lines = [], [], []
    for equipment_id, asset in equipment_of(task, ctx.catalog):
        args = date_args(task, ctx.reference_date)
        rule_ids, calls, rules_on_record = list(task.params.get("rule_ids") or []), [], True
        if not rule_ids:
            rules = await ctx.tools.run_one("wo.get_alert_rules", {"equipment_id": equipment_id},
                                            specialist="maintenance")
            calls.append(rules)
            if not rules.ok and not found_nothing(rules.error):
                errors.append(rules.error or "alert rules unavailable")
                continue
            rule_ids = [r["rule_id"] for r in rules.output.get("rules", [])] if rules.ok else []
            rules_on_record = rules.ok
        outs = await ctx.tools.run([("wo.analyze_alert_to_failure", {"equipment_id": equipment_id, "rule_id": r, **args})
                                    for r in rule_ids], specialist="maintenance")
        calls += outs
        verdicts = [triage(r, int(o.output.get("total_alerts_analyzed", 0)), o.output.get("transitions", []))
                    for r, o in zip(rule_ids, outs, strict=True) if o.ok]
        errors += [o.error or "analysis failed" for o in outs if not o.ok and not found_nothing(o.error)]
        silent = [r for r, o in zip(rule_ids, outs, strict=True) if not o.ok and found_nothing(o.error)]
        notes: list[str] = []
        if silent or not rules_on_record:
            alerts = await period_alerts(ctx, equipment_id, args, {}, rules_on_record=rules_on_record)
            calls += alerts.calls
            fired = [a for a in alerts.activity if a.count]
            notes = ([f"No alerts of {', '.join(silent)} on {equipment_id} in {period_label(task)}"
                      + (f"; the alerts in that period came from {_fired_text(fired)}." if fired else ".")]
                     if silent else []) + alerts.lines
        if not verdicts and not notes:
            continue
        head = (f"On {equipment_id}: " + "; ".join(
            f"{v.rule_id} -> work order in {v.p_work_order:.0%} of {v.alerts} alerts ({v.verdict})" for v in verdicts)
            if verdicts else notes[0].removesuffix("."))
        observations = [head, *notes[0 if verdicts else 1:], f"Triage rule: {TRIAGE_RULE}"]
        art = await save_artifact(ctx, task, kind="alert_to_failure", summary=head, observations=observations,
                                  results={"verdicts": [v.__dict__ for v in verdicts], "rule": TRIAGE_RULE,
                                           "rules_without_alerts_in_period": silent},
                                  calls=calls, assets=[asset] if asset else [], equipment=[equipment_id])
        artifacts.append(art)
        lines.append(with_notes(head, notes[0 if verdicts else 1:]))
    return maintenance_result(task, " | ".join(lines), artifacts, errors)
