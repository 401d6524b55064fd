"""The maintenance specialist: work-order history, bundling, next-failure prediction, alert triage,
drafted work orders, monitoring, restart and validation protocols, prioritisation and reports."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import datetime

import pandas as pd

from artifacts.model import Artifact, new_artifact_id
from assetops.domain.specialists import SpecialistId
from assetops.domain.turn import SpecialistTask
from specialists.base import SpecialistContext, SpecialistResult, ToolOutcome, found_nothing
from specialists.common.frames import RUNNING_LOAD_PCT
from specialists.dispatch import Handlers, dispatch
from specialists.maintenance import evidence, handlers_alerts
from specialists.maintenance.bundling import (
    BUNDLE_WINDOW_DAYS,
    MOBILISATION_HOURS,
    bundle_corrective,
    savings,
)
from specialists.maintenance.drafting import code_text, draft_work_order
from specialists.maintenance.drafts_repo import save_draft
from specialists.maintenance.empty_periods import explain_empty, order_text
from specialists.maintenance.history import corrective_years, summarise_work_orders
from specialists.maintenance.prioritize import RULE as PRIORITY_RULE
from specialists.maintenance.prioritize import prioritise, priority_headline
from specialists.maintenance.protocols import monitoring_config, restart_checklist, validation_protocol
from specialists.maintenance.report import management_report
from specialists.maintenance.shared import (
    date_args,
    equipment_of,
    maintenance_result,
    period_label,
    save_artifact,
    with_notes,
)


def too_little_history(error: str | None) -> bool:
    """True when predict_next_work_order failed for want of orders or transitions (more history helps)."""
    return found_nothing(error) or "no transition data" in str(error or "").lower()


__all__ = ["SITE_ACTIONS", "MaintenanceSpecialist", "date_args", "equipment_of", "period_label"]

# Actions that work across the site: every other action needs an equipment id or a chiller name.
SITE_ACTIONS = frozenset({"report", "prioritize"})


class MaintenanceSpecialist:
    """Answers maintenance questions with the `wo` tools and pure planning logic."""

    id: SpecialistId = "maintenance"

    def __init__(self) -> None:
        self.handlers: Handlers = {
            "wo_summary": self.wo_summary, "bundle": self.bundle, "predict_next": self.predict_next,
            "alert_rules": handlers_alerts.alert_rules, "alert_to_failure": handlers_alerts.alert_to_failure,
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
            if not listing.ok and not found_nothing(listing.error):
                errors.append(listing.error or "work orders unavailable")
                lines.append(f"{asset or equipment_id}: {listing.error}")
                continue
            orders = listing.output.get("work_orders", []) if listing.ok else []  # none in the period is an answer
            s = summarise_work_orders(orders, until=ctx.reference_date)
            label = "corrective " if kind == "corrective" else "preventive " if kind == "preventive" else ""
            # An unfiltered count always carries its split: "how many preventive, and how many corrective?"
            split = f" ({s.preventive} preventive, {s.corrective} corrective)" if not label and s.total else ""
            orders_word = "work order" if s.total == 1 else "work orders"
            span = f"on {s.first}" if s.first == s.last else f"{s.first} to {s.last}"
            obs = [f"{s.total} {label}{orders_word}{split} on {equipment_id} ({period_label(task)}), {span}"
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
            if s.labor_hours:
                obs.append(f"Labour booked: {s.labor_hours:g} h" + (f" ({s.corrective_labor_hours:g} h on corrective "
                                                                    "orders)" if s.corrective_labor_hours else ""))
            # None in the period is an answer; "since when?" is the next question (empty_periods).
            lookbacks = await explain_empty(ctx, tool, equipment_id, args, missing=f"{label}work orders") \
                if not listing.ok else []
            obs += [lookback.text for lookback in lookbacks]
            results = s.as_results() | {"kind": kind, **corrective_years(s, ctx.reference_date),
                                        "last_before": next((lb.latest for lb in lookbacks if lb.latest), None),
                                        "distribution": dist.output.get("distribution", [])[:8] if dist.ok else []}
            art = await save_artifact(ctx, task, kind="work_order_summary", summary=obs[0], observations=obs,
                                      results=results, calls=[listing, dist, *(lb.outcome for lb in lookbacks)],
                                      assets=[asset] if asset else [], equipment=[equipment_id])
            artifacts.append(art)
            lines.append("; ".join(obs))
        return maintenance_result(task, " | ".join(lines), artifacts, errors)

    async def bundle(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Corrective orders that one visit could have covered, with the saving and the rule used. None in
        the period is an answer too, with the last corrective order before it."""
        window = int(task.params.get("window_days", BUNDLE_WINDOW_DAYS))
        artifacts, errors, lines = [], [], []
        for equipment_id, asset in equipment_of(task, ctx.catalog):
            args = {"equipment_id": equipment_id, **date_args(task, ctx.reference_date)}
            listing = await ctx.tools.run_one("wo.get_corrective_work_orders", args, specialist="maintenance")
            if not listing.ok and not found_nothing(listing.error):
                errors.append(listing.error or "corrective work orders unavailable")
                continue
            lookbacks = [] if listing.ok else await explain_empty(
                ctx, "wo.get_corrective_work_orders", equipment_id, args, missing="corrective work orders")
            bundles = bundle_corrective(listing.output.get("work_orders", []) if listing.ok else [], window_days=window)
            saved = savings(bundles)
            rule = (f"corrective orders on the same equipment finishing within {window} days of the first of a group; "
                    f"each avoided visit saves ~{MOBILISATION_HOURS:g} h of mobilisation")
            head = (f"{len(bundles)} groups of corrective orders on {equipment_id} could each have been one visit, "
                    f"saving {saved['visits_saved']} visits (~{saved['hours_saved']:g} h)" if listing.ok else
                    f"No corrective work orders on {equipment_id} ({period_label(task)}): nothing to bundle")
            obs = [head, *(lb.text for lb in lookbacks), f"Rule: {rule}"] + [
                f"{b.start.date()}..{b.end.date()}: {', '.join(str(o.get('wo_id')) for o in b.orders)} "
                f"({', '.join(str(o.get('primary_code')) for o in b.orders)})" for b in bundles[:5]]
            art = await save_artifact(ctx, task, kind="bundles", summary=head, observations=obs,
                                      calls=[listing, *(lb.outcome for lb in lookbacks)],
                                      results={"bundles": [b.as_dict() for b in bundles], "savings": saved, "rule": rule},
                                      assets=[asset] if asset else [], equipment=[equipment_id])
            artifacts.append(art)
            lines.append(with_notes(head, [lb.text for lb in lookbacks]))
        return maintenance_result(task, " | ".join(lines), artifacts, errors)

    async def predict_next(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Next work-order type probabilities from the Markov transition counts. Too few orders in the
        period to learn from: the whole history up to its end, else how many orders there are."""
        artifacts, errors, lines = [], [], []
        for equipment_id, asset in equipment_of(task, ctx.catalog):
            args = {"equipment_id": equipment_id, **date_args(task, ctx.reference_date)}
            out = await ctx.tools.run_one("wo.predict_next_work_order", args, specialist="maintenance")
            prediction, calls = (out if out.ok else None), [out]
            notes: list[str] = []
            if not out.ok and too_little_history(out.error):
                prediction, more, notes = await self._with_more_history(ctx, equipment_id, args, out.error or "")
                calls += more
            if prediction is None and not notes:
                errors.append(out.error or "prediction unavailable")
                continue
            preds = prediction.output.get("predictions", [])[:5] if prediction else []
            last = prediction.output.get("last_work_order_type") if prediction else None
            top = ", ".join(f"{p['primary_code']} {p.get('primary_code_description', '')} {p['probability']:.0%}"
                            for p in preds[:3])
            head = (f"After the last work order type {last} on {equipment_id}, the next is most likely: {top}"
                    if prediction else notes.pop(0).removesuffix("."))
            art = await save_artifact(ctx, task, kind="next_work_order", summary=head, observations=[head, *notes],
                                      results={"last_work_order_type": last, "predictions": preds}, calls=calls,
                                      assets=[asset] if asset else [], equipment=[equipment_id],
                                      confidence=float(preds[0]["probability"]) if preds else None,
                                      assumptions=notes[:1])
            artifacts.append(art)
            lines.append(with_notes(head, notes))
        return maintenance_result(task, " | ".join(lines), artifacts, errors)

    @staticmethod
    async def _with_more_history(ctx: SpecialistContext, equipment_id: str, args: dict[str, str],
                                 error: str) -> tuple[ToolOutcome | None, list[ToolOutcome], list[str]]:
        """(prediction, calls, notes) when the period held too few orders: the prediction from the whole
        history up to the period's end; failing that, how many orders there are and the last one."""
        reason, end = error.split(" between ")[0].split(": it ")[0], args["end_date"]
        calls: list[ToolOutcome] = []
        if "start_date" in args:
            wider = await ctx.tools.run_one("wo.predict_next_work_order", {"equipment_id": equipment_id,
                                                                          "end_date": end}, specialist="maintenance")
            calls.append(wider)
            if wider.ok:
                return wider, calls, [f"Too few orders in the period to learn from ({reason}); predicted from "
                                      f"the whole history up to {end}."]
        orders = await ctx.tools.run_one("wo.get_work_orders", {"equipment_id": equipment_id, "end_date": end},
                                         specialist="maintenance")
        calls.append(orders)
        listed = orders.output.get("work_orders", []) if orders.ok else []
        if not listed:
            gone = found_nothing(orders.error)
            return None, calls, [f"No work orders on record for {equipment_id} up to {end}: nothing to predict "
                                 "from."] if gone else []
        last = summarise_work_orders(listed, recent=1).recent[0]
        return None, calls, [f"Too few orders to say what comes next on {equipment_id} ({reason}): "
                             f"{len(listed)} work order(s) on record up to {end}, the last {order_text(last)}."]

    async def draft_wo(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Draft (and persist) the order the user commanded, after a duplicate check of recent orders: the
        corrective order for the most likely failure mode or, with nothing diagnosed, an inspection for
        the requested work (`params["work"]`, else a general inspection) with no failure code."""
        artifacts, lines = [], []
        work = str(task.params.get("work") or "").strip() or None
        for equipment_id, asset in equipment_of(task, ctx.catalog):
            mode, confidence, supporting = evidence.top_hypothesis(ctx.visible_artifacts, asset, task)
            existing = await ctx.tools.run_one("wo.get_work_orders", {"equipment_id": equipment_id},
                                               specialist="maintenance")
            now = datetime.combine(ctx.reference_date, datetime.min.time())
            draft = draft_work_order(equipment_id=equipment_id, asset_id=asset, failure_mode=mode, work=work,
                                     confidence=confidence, evidence=supporting, now=now,
                                     existing=existing.output.get("work_orders", []) if existing.ok else [])
            if isinstance(task.params.get("priority"), int):  # the priority the user gave the order
                draft = replace(draft, priority=int(task.params["priority"]))
            artifact_id = new_artifact_id("maintenance")
            draft_id = await save_draft(ctx.store.db, session_id=ctx.session_id, artifact_id=artifact_id, draft=draft)
            head = f"Drafted {draft_id} for {asset or equipment_id}: {draft.title}; {code_text(draft)}, " \
                   f"priority {draft.priority}"
            matching = "corrective order" if draft.primary_code else "order"
            obs = [head, *draft.justification[:3]] + (
                [f"Possible duplicates finished in the last 60 days: {', '.join(draft.possible_duplicates)}"]
                if draft.possible_duplicates else [f"No matching {matching} in the last 60 days."])
            art = Artifact(id=artifact_id, **ctx.new_artifact_fields(), producer="maintenance", kind="work_order_draft",
                           asset_ids=[asset] if asset else [], equipment_ids=[equipment_id], summary=head,
                           observations=obs, confidence=confidence, tool_calls=[existing.as_artifact_call()],
                           results={"draft_id": draft_id, "title": draft.title, "failure_mode": draft.failure_mode,
                                    "primary_code": draft.primary_code, "secondary_code": draft.secondary_code,
                                    "priority": draft.priority, "scope": draft.scope, "diagnosed": mode is not None,
                                    "possible_duplicates": draft.possible_duplicates})
            artifacts.append(await ctx.store.put(art))
            lines.append(head)
        return maintenance_result(task, " | ".join(lines), artifacts)

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
            assumptions = ([f"thresholds from running samples only (Chiller % Loaded > {RUNNING_LOAD_PCT:g} %) of the "
                            "session's latest telemetry window"] if baselines else
                           ["no telemetry window with enough running data in this session yet: thresholds omitted"])
            artifacts.append(await save_artifact(ctx, task, kind=kind, summary=head, observations=protocol.steps,
                                              results=protocol.as_results(), calls=[], assets=[asset] if asset else [],
                                              equipment=[equipment_id], assumptions=assumptions))
        return maintenance_result(task, " | ".join(a.summary for a in artifacts), artifacts)

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
        component = task.params.get("component")
        ranking = prioritise(ctx.visible_artifacts, assets, str(component) if component else None)
        if not ranking:
            return maintenance_result(task, "No assets to compare yet.", [], ["no assets in focus"])
        head = priority_headline(ranking)
        obs = [head, *(f"{p.asset_id}: " + ("; ".join(p.reasons[:4]) or "no adverse evidence") for p in ranking),
               f"Rule: {PRIORITY_RULE}"]
        art = await save_artifact(ctx, task, kind="priority_ranking", summary=head, observations=obs, calls=[],
                               results={"ranking": [p.__dict__ for p in ranking]}, assets=assets,
                               equipment=[ctx.catalog.equipment_id_of(a) or a for a in assets])
        return maintenance_result(task, head, [art])

    async def report(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Management report from the session's artifacts only: no tool call at all."""
        text, cited = management_report(ctx.visible_artifacts, task.asset_ids, period_label(task))
        art = await save_artifact(ctx, task, kind="management_report", summary=text.splitlines()[0].lstrip("# "),
                               observations=[text], results={"report": text, "cites": cited}, calls=[])
        return maintenance_result(task, text, [art])


