"""The maintenance specialist: work-order history, bundling, next-failure prediction, alert triage,
drafted work orders, monitoring, restart and validation protocols, prioritisation and reports."""

from __future__ import annotations

import asyncio
from datetime import date, datetime
from typing import Any

import pandas as pd

from artifacts.model import Artifact, new_artifact_id
from assetops.domain.catalog import FleetCatalog
from assetops.domain.specialists import SpecialistId
from assetops.domain.turn import SpecialistTask
from specialists.base import SpecialistContext, SpecialistResult, ToolOutcome
from specialists.dispatch import Handlers, dispatch
from specialists.maintenance import evidence
from specialists.maintenance.alerts import TRIAGE_RULE, rule_activity, triage
from specialists.maintenance.bundling import (
    BUNDLE_WINDOW_DAYS,
    MOBILISATION_HOURS,
    bundle_corrective,
    savings,
)
from specialists.maintenance.drafting import draft_work_order
from specialists.maintenance.drafts_repo import save_draft
from specialists.maintenance.history import corrective_years, summarise_work_orders
from specialists.maintenance.prioritize import RULE as PRIORITY_RULE
from specialists.maintenance.prioritize import prioritise, priority_headline
from specialists.maintenance.protocols import monitoring_config, restart_checklist, validation_protocol
from specialists.maintenance.report import management_report

# Actions that work across the site: every other action needs an equipment id or a chiller name.
SITE_ACTIONS = frozenset({"report", "prioritize"})


def equipment_of(task: SpecialistTask, catalog: FleetCatalog) -> list[tuple[str, str | None]]:
    """(equipment id, asset name) pairs of the task; chiller names map to their Maximo ids."""
    pairs = [(eid, catalog.asset_id_of(eid)) for eid in task.equipment_ids]
    for asset in task.asset_ids:
        equipment_id = catalog.equipment_id_of(asset) or asset
        if equipment_id not in task.equipment_ids:
            pairs.append((equipment_id, asset))
    return pairs


def date_args(task: SpecialistTask, reference: date) -> dict[str, str]:
    """start_date/end_date tool arguments: the task window, never past the session's reference date
    (records dated after "today" of the dialog must not leak into answers)."""
    end = reference if task.window is None else min(task.window.end.date(), reference)
    args = {"end_date": end.isoformat()}
    if task.window is not None:
        args["start_date"] = task.window.start.date().isoformat()
    return args


def period_label(task: SpecialistTask) -> str:
    if task.window is None:
        return "all history"
    return task.window.label or f"{task.window.start.date()} to {task.window.end.date()}"


def none_found(error: str | None) -> bool:
    """True when a listing tool's error only says the period holds no records (an answer, not a failure)."""
    return bool(error) and str(error).startswith("No ") and " found " in str(error)


class MaintenanceSpecialist:
    """Answers maintenance questions with the `wo` tools and pure planning logic."""

    id: SpecialistId = "maintenance"

    def __init__(self) -> None:
        self.handlers: Handlers = {
            "wo_summary": self.wo_summary, "bundle": self.bundle, "predict_next": self.predict_next,
            "alert_rules": self.alert_rules, "alert_to_failure": self.alert_to_failure,
            "draft_wo": self.draft_wo, "monitoring_config": self.monitoring, "restart_checklist": self.restart,
            "validation_protocol": self.validation, "prioritize": self.prioritize, "report": self.report,
        }

    async def run(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Dispatch to the action's handler; unknown actions are an honest failure, not an exception.
        A known action that needs equipment and has none asks which chiller instead of running."""
        known = task.action in self.handlers
        if known and task.action not in SITE_ACTIONS and not equipment_of(task, ctx.catalog):
            return SpecialistResult("maintenance", task.action, "failed", "Which chiller? No equipment was given.",
                                    errors=["no equipment in the task"])
        return await dispatch("maintenance", self.handlers, task, ctx)

    async def _save(self, ctx: SpecialistContext, task: SpecialistTask, *, kind: str, summary: str,
                    observations: list[str], results: dict[str, Any], calls: list[ToolOutcome],
                    assets: list[str] | None = None, equipment: list[str] | None = None,
                    confidence: float | None = None, assumptions: list[str] | None = None) -> Artifact:
        artifact = Artifact(
            id=new_artifact_id("maintenance"), **ctx.new_artifact_fields(), producer="maintenance", kind=kind,
            asset_ids=assets if assets is not None else list(task.asset_ids),
            equipment_ids=equipment if equipment is not None else [e for e, _ in equipment_of(task, ctx.catalog)],
            window_start=task.window.start if task.window else None,
            window_end=task.window.end if task.window else None,
            tool_calls=[c.as_artifact_call() for c in calls], observations=observations, results=results,
            summary=summary, confidence=confidence, assumptions=assumptions or [],
        )
        return await ctx.store.put(artifact)

    @staticmethod
    def _result(task: SpecialistTask, summary: str, artifacts: list[Artifact], errors: list[str] | None = None,
                status: str | None = None) -> SpecialistResult:
        state = status or ("partial" if errors and artifacts else "failed" if errors else "ok")
        return SpecialistResult("maintenance", task.action, state, summary,  # type: ignore[arg-type]
                                artifact_ids=[a.id for a in artifacts], errors=errors or [])

    async def wo_summary(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Work-order history per equipment: counts, trend, top codes, distribution."""
        kind = str(task.params.get("kind", "all"))
        tool = {"corrective": "wo.get_corrective_work_orders", "preventive": "wo.get_preventive_work_orders"}.get(
            kind, "wo.get_work_orders")
        artifacts, errors, lines = [], [], []
        for equipment_id, asset in equipment_of(task, ctx.catalog):
            args = {"equipment_id": equipment_id, **date_args(task, ctx.reference_date)}
            listing, dist = await ctx.tools.run([(tool, args), ("wo.get_work_order_distribution", args)],
                                                specialist="maintenance")
            if not listing.ok and not none_found(listing.error):
                errors.append(listing.error or "work orders unavailable")
                lines.append(f"{asset or equipment_id}: {listing.error}")
                continue
            orders = listing.output.get("work_orders", []) if listing.ok else []  # none in the period is an answer
            s = summarise_work_orders(orders, until=ctx.reference_date)
            label = "corrective " if kind == "corrective" else "preventive " if kind == "preventive" else ""
            obs = [f"{s.total} {label}work orders on {equipment_id} ({period_label(task)}), {s.first} to {s.last}"
                   if s.total else f"No {label}work orders on {equipment_id} ({period_label(task)})"]
            if s.top_codes:
                obs.append("Most frequent: " + ", ".join(f"{c} {d} ({n})" for c, d, n in s.top_codes[:3]))
            if s.corrective_trend_per_year is not None and kind != "preventive":
                partial = ctx.reference_date.year
                obs.append("Corrective orders per year: " + ", ".join(
                    f"{y}: {v['corrective']}" + (f" (to {ctx.reference_date})" if y == partial else "")
                    for y, v in sorted(s.per_year.items()))
                    + f" (trend over complete years {s.corrective_trend_per_year:+.2f}/year)")
            if s.mean_days_between_corrective is not None:
                obs.append(f"Mean interval between corrective orders: {s.mean_days_between_corrective} days")
            before = await self._last_before(ctx, tool, equipment_id, args) if not s.total else None
            if before is not None:
                obs.append(before[0])
            results = s.as_results() | {"kind": kind, **corrective_years(s, ctx.reference_date),
                                        "last_before": before[1] if before else None,
                                        "distribution": dist.output.get("distribution", [])[:8] if dist.ok else []}
            art = await self._save(ctx, task, kind="work_order_summary", summary=obs[0], observations=obs,
                                   results=results, calls=[listing, dist], assets=[asset] if asset else [],
                                   equipment=[equipment_id])
            artifacts.append(art)
            lines.append("; ".join(obs))
        return self._result(task, " | ".join(lines), artifacts, errors)

    async def _last_before(self, ctx: SpecialistContext, tool: str, equipment_id: str,
                           args: dict[str, str]) -> tuple[str, dict[str, Any] | None] | None:
        """With none in the period, the latest order before it: "none since DATE" is the answer people
        need ("was it fixed?"), and the empty listing's failed call is followed by a successful one."""
        if "start_date" not in args:
            return None
        (earlier,) = await ctx.tools.run([(tool, {"equipment_id": equipment_id, "end_date": args["start_date"]})],
                                         specialist="maintenance")
        orders = earlier.output.get("work_orders", []) if earlier.ok else []
        if not orders:
            return (f"None on record before {args['start_date']} either.", None) if none_found(earlier.error) else None
        last = summarise_work_orders(orders, recent=1).recent[0]
        text = (f"The last one before the period was {last.get('wo_id')} on {last.get('date')}"
                + (f" ({last.get('code')} {last.get('description')})" if last.get("code") else "") + ".")
        return text, last

    async def bundle(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Corrective orders that one visit could have covered, with the saving and the rule used."""
        window = int(task.params.get("window_days", BUNDLE_WINDOW_DAYS))
        artifacts, errors, lines = [], [], []
        for equipment_id, asset in equipment_of(task, ctx.catalog):
            listing = await ctx.tools.run_one("wo.get_corrective_work_orders",
                                              {"equipment_id": equipment_id, **date_args(task, ctx.reference_date)}, specialist="maintenance")
            if not listing.ok:
                errors.append(listing.error or "corrective work orders unavailable")
                continue
            bundles = bundle_corrective(listing.output.get("work_orders", []), window_days=window)
            saved = savings(bundles)
            rule = (f"corrective orders on the same equipment finishing within {window} days of the first of a group; "
                    f"each avoided visit saves ~{MOBILISATION_HOURS:g} h of mobilisation")
            head = (f"{len(bundles)} groups of corrective orders on {equipment_id} could each have been one visit, "
                    f"saving {saved['visits_saved']} visits (~{saved['hours_saved']:g} h)")
            obs = [head, f"Rule: {rule}"] + [
                f"{b.start.date()}..{b.end.date()}: {', '.join(str(o.get('wo_id')) for o in b.orders)} "
                f"({', '.join(str(o.get('primary_code')) for o in b.orders)})" for b in bundles[:5]]
            art = await self._save(ctx, task, kind="bundles", summary=head, observations=obs, calls=[listing],
                                   results={"bundles": [b.as_dict() for b in bundles], "savings": saved, "rule": rule},
                                   assets=[asset] if asset else [], equipment=[equipment_id])
            artifacts.append(art)
            lines.append(head)
        return self._result(task, " | ".join(lines), artifacts, errors)

    async def predict_next(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Next work-order type probabilities from the Markov transition counts."""
        artifacts, errors, lines = [], [], []
        for equipment_id, asset in equipment_of(task, ctx.catalog):
            out = await ctx.tools.run_one("wo.predict_next_work_order",
                                          {"equipment_id": equipment_id, **date_args(task, ctx.reference_date)}, specialist="maintenance")
            if not out.ok:
                errors.append(out.error or "prediction unavailable")
                continue
            preds = out.output.get("predictions", [])[:5]
            last = out.output.get("last_work_order_type")
            top = ", ".join(f"{p['primary_code']} {p.get('primary_code_description', '')} {p['probability']:.0%}"
                            for p in preds[:3])
            head = f"After the last work order type {last} on {equipment_id}, the next is most likely: {top}"
            art = await self._save(ctx, task, kind="next_work_order", summary=head, observations=[head],
                                   results={"last_work_order_type": last, "predictions": preds}, calls=[out],
                                   assets=[asset] if asset else [], equipment=[equipment_id],
                                   confidence=float(preds[0]["probability"]) if preds else None)
            artifacts.append(art)
            lines.append(head)
        return self._result(task, " | ".join(lines), artifacts, errors)

    async def alert_rules(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Which rules fire on the equipment and how often."""
        artifacts, errors, lines = [], [], []
        for equipment_id, asset in equipment_of(task, ctx.catalog):
            rules, events = await ctx.tools.run(
                [("wo.get_alert_rules", {"equipment_id": equipment_id}),
                 ("wo.get_events", {"equipment_id": equipment_id, **date_args(task, ctx.reference_date)})], specialist="maintenance")
            if not rules.ok:
                errors.append(rules.error or "alert rules unavailable")
                continue
            names = {r["rule_id"]: r.get("rule_name", r["rule_id"]) for r in rules.output.get("rules", [])}
            activity = rule_activity(events.output.get("events", []) if events.ok else [], names)
            fired = [a for a in activity if a.count]
            silent = [a.rule_id for a in activity if not a.count]
            head = (f"{len(fired)} alert rule(s) fired on {equipment_id} ({period_label(task)}): " + ", ".join(
                f"{a.rule_id} {a.rule_name.removeprefix('Chiller - ')} ({a.count} alerts)" for a in fired)
                + (f"; no alerts in this period from {', '.join(silent)}" if silent else ""))
            obs = [head] + [f"{a.rule_id}: {a.count} alerts {a.first}..{a.last}, busiest month {a.busiest_month}, "
                            f"{a.per_month_mean}/active month" for a in activity if a.count]
            art = await self._save(ctx, task, kind="alert_rules", summary=head, observations=obs,
                                   results={"rules": [a.__dict__ for a in activity]}, calls=[rules, events],
                                   assets=[asset] if asset else [], equipment=[equipment_id])
            artifacts.append(art)
            lines.append(head)
        return self._result(task, " | ".join(lines), artifacts, errors)

    async def alert_to_failure(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Per rule (in parallel): does an alert lead to maintenance? Triage verdict with the rule used."""
        artifacts, errors, lines = [], [], []
        for equipment_id, asset in equipment_of(task, ctx.catalog):
            rule_ids = list(task.params.get("rule_ids") or [])
            calls: list[ToolOutcome] = []
            if not rule_ids:
                rules = await ctx.tools.run_one("wo.get_alert_rules", {"equipment_id": equipment_id},
                                                specialist="maintenance")
                calls.append(rules)
                rule_ids = [r["rule_id"] for r in rules.output.get("rules", [])] if rules.ok else []
            outs = await ctx.tools.run([("wo.analyze_alert_to_failure",
                                         {"equipment_id": equipment_id, "rule_id": r, **date_args(task, ctx.reference_date)})
                                        for r in rule_ids], specialist="maintenance")
            calls += outs
            verdicts = [triage(r, int(o.output.get("total_alerts_analyzed", 0)), o.output.get("transitions", []))
                        for r, o in zip(rule_ids, outs, strict=True) if o.ok]
            errors += [o.error or "analysis failed" for o in outs if not o.ok]
            if not verdicts:
                continue
            head = f"On {equipment_id}: " + "; ".join(
                f"{v.rule_id} -> work order in {v.p_work_order:.0%} of {v.alerts} alerts ({v.verdict})" for v in verdicts)
            art = await self._save(ctx, task, kind="alert_to_failure", summary=head,
                                   observations=[head, f"Triage rule: {TRIAGE_RULE}"],
                                   results={"verdicts": [v.__dict__ for v in verdicts], "rule": TRIAGE_RULE},
                                   calls=calls, assets=[asset] if asset else [], equipment=[equipment_id])
            artifacts.append(art)
            lines.append(head)
        return self._result(task, " | ".join(lines), artifacts, errors)

    async def draft_wo(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Draft (and persist) the corrective order for the most likely failure mode, avoiding duplicates."""
        artifacts, errors, lines = [], [], []
        for equipment_id, asset in equipment_of(task, ctx.catalog):
            mode, confidence, supporting = evidence.top_hypothesis(ctx.visible_artifacts, asset, task)
            if mode is None:
                errors.append("no diagnosed failure mode to draft a work order for; ask for a diagnosis first")
                continue
            existing = await ctx.tools.run_one("wo.get_work_orders", {"equipment_id": equipment_id},
                                               specialist="maintenance")
            now = datetime.combine(ctx.reference_date, datetime.min.time())
            draft = draft_work_order(equipment_id=equipment_id, asset_id=asset, failure_mode=mode,
                                     confidence=confidence, evidence=supporting, now=now,
                                     existing=existing.output.get("work_orders", []) if existing.ok else [])
            artifact_id = new_artifact_id("maintenance")
            draft_id = await save_draft(ctx.store.db, session_id=ctx.session_id, artifact_id=artifact_id, draft=draft)
            code = (f"failure code {draft.primary_code}/{draft.secondary_code} ({draft.code_description})"
                    if draft.primary_code else "no failure code maps to this mode: set one on review")
            head = f"Drafted {draft_id} for {asset or equipment_id}: {draft.title}; {code}, priority {draft.priority}"
            obs = [head, *draft.justification[:3]] + (
                [f"Possible duplicates finished in the last 60 days: {', '.join(draft.possible_duplicates)}"]
                if draft.possible_duplicates else ["No matching corrective order in the last 60 days."])
            art = Artifact(id=artifact_id, **ctx.new_artifact_fields(), producer="maintenance", kind="work_order_draft",
                           asset_ids=[asset] if asset else [], equipment_ids=[equipment_id], summary=head,
                           observations=obs, confidence=confidence, tool_calls=[existing.as_artifact_call()],
                           results={"draft_id": draft_id, "title": draft.title, "failure_mode": draft.failure_mode,
                                    "primary_code": draft.primary_code, "secondary_code": draft.secondary_code,
                                    "priority": draft.priority, "scope": draft.scope,
                                    "possible_duplicates": draft.possible_duplicates})
            artifacts.append(await ctx.store.put(art))
            lines.append(head)
        return self._result(task, " | ".join(lines), artifacts, errors)

    async def _protocol(self, task: SpecialistTask, ctx: SpecialistContext, kind: str) -> SpecialistResult:
        artifacts = []
        for equipment_id, asset in equipment_of(task, ctx.catalog):
            name = asset or equipment_id
            baselines = await self._running_baselines(ctx, asset, task.sensors)
            if kind == "restart_checklist":
                protocol = restart_checklist(name, evidence.offline_sensors(ctx.visible_artifacts, asset),
                                             evidence.top_hypothesis(ctx.visible_artifacts, asset, task)[0])
            elif kind == "validation_protocol":
                protocol = validation_protocol(name, baselines)
            else:
                protocol = monitoring_config(name, baselines)
            head = f"{protocol.title}: {len(protocol.steps)} steps" + (
                f", thresholds for {len(protocol.criteria)} sensors" if protocol.criteria else "")
            assumptions = (["thresholds from running samples only (Chiller % Loaded > 5 %) of the session's "
                            "latest telemetry window"] if baselines else
                           ["no telemetry window with enough running data in this session yet: thresholds omitted"])
            artifacts.append(await self._save(ctx, task, kind=kind, summary=head, observations=protocol.steps,
                                              results=protocol.as_results(), calls=[], assets=[asset] if asset else [],
                                              equipment=[equipment_id], assumptions=assumptions))
        return self._result(task, " | ".join(a.summary for a in artifacts), artifacts)

    @staticmethod
    async def _running_baselines(ctx: SpecialistContext, asset: str | None,
                                 sensors: list[str]) -> dict[str, dict[str, float]]:
        """Sensor baselines over running samples of the session's telemetry (no tool call)."""
        workdir = ctx.store.db.settings.work_dir
        path = evidence.telemetry_csv(ctx.visible_artifacts, asset, workdir)
        if path is None or asset is None:
            return {}
        frame = await asyncio.to_thread(pd.read_csv, path)
        return evidence.running_baselines(frame, asset, sensors)

    async def restart(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Safe-restart checklist after a trip."""
        return await self._protocol(task, ctx, "restart_checklist")

    async def validation(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Post-repair validation protocol with thresholds from the session's baselines."""
        return await self._protocol(task, ctx, "validation_protocol")

    async def monitoring(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Monitoring / alert configuration from baselines."""
        return await self._protocol(task, ctx, "monitoring_config")

    async def prioritize(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Which asset needs attention first, from the evidence gathered so far."""
        assets = task.asset_ids or sorted({a for art in ctx.visible_artifacts for a in art.asset_ids})
        ranking = prioritise(ctx.visible_artifacts, assets)
        if not ranking:
            return self._result(task, "No assets to compare yet.", [], ["no assets in focus"])
        head = priority_headline(ranking)
        obs = [head, *(f"{p.asset_id}: " + ("; ".join(p.reasons[:4]) or "no adverse evidence") for p in ranking),
               f"Rule: {PRIORITY_RULE}"]
        art = await self._save(ctx, task, kind="priority_ranking", summary=head, observations=obs, calls=[],
                               results={"ranking": [p.__dict__ for p in ranking]}, assets=assets,
                               equipment=[ctx.catalog.equipment_id_of(a) or a for a in assets])
        return self._result(task, head, [art])

    async def report(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Management report from the session's artifacts only: no tool call at all."""
        text, cited = management_report(ctx.visible_artifacts, task.asset_ids, period_label(task))
        art = await self._save(ctx, task, kind="management_report", summary=text.splitlines()[0].lstrip("# "),
                               observations=[text], results={"report": text, "cites": cited}, calls=[])
        return self._result(task, text, [art])


