"""The verdict on a session: what it found so far, conclusion first, built from the visible artifacts.

Pure: the latest diagnosis per asset (with its confidence), anomaly shares, work orders, alerts and
what is still open, one line each, never a tool dump.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from artifacts.model import Artifact
from artifacts.readings import (
    Hypothesis,
    alert_rules,
    anomaly_rate,
    draft_title,
    hypotheses,
    recent_orders,
    work_order_counts,
)
from graph.answering.asked_figures import HEADLINE_SENSORS, figure_text, sensor_figures
from graph.answering.compare_terms import window_phrase
from graph.answering.markdown import chillers, join_names, without_refs
from specialists.maintenance.prioritize import FALSE_ALARM_RATE

NO_FAULT = "no fault"


@dataclass(frozen=True)
class Findings:
    """The conclusion (first sentence), the supporting findings and what is still open."""

    conclusion: str
    lines: list[str] = field(default_factory=list)
    open_questions: list[str] = field(default_factory=list)


def _latest_by_asset(artifacts: list[Artifact], kind: str) -> dict[str, Artifact]:
    found: dict[str, Artifact] = {}
    for art in artifacts:
        if art.kind == kind:
            for asset in art.asset_ids or art.equipment_ids or [""]:
                if asset not in found or (art.turn_index or 0) >= (found[asset].turn_index or 0):
                    found[asset] = art
    return found


def _top(art: Artifact) -> Hypothesis | None:
    hyps = hypotheses(art)
    return hyps[0] if hyps else None


def _range(hypothesis: Hypothesis) -> str:
    values = hypothesis.confidence_range
    return f"{values[0]:.2f}-{values[-1]:.2f}" if values else f"{hypothesis.probability:.2f}"


def _when(art: Artifact) -> str:
    """" in June 2021", " from 2021-05-25 to 2021-06-15": the artifact's period, so a summary says when."""
    phrase = window_phrase(art)
    return f" {phrase}" if phrase else ""


def _alert_line(asset: str, art: Artifact) -> str | None:
    rules = [r for r in alert_rules(art) or [] if r.count]
    if not rules:
        return None
    top = max(rules, key=lambda r: r.count)
    name = f" {top.rule_name}" if top.rule_name else ""
    return (f"- {asset}{_when(art)}: {sum(r.count for r in rules)} alerts, most from {top.rule_id}{name} "
            f"({top.count}) [{art.id}]")


# A telemetry summary short enough to quote whole in a summary line (never cut mid-sentence).
_QUOTABLE = 180


def session_findings(artifacts: list[Artifact]) -> Findings:
    """Conclusion first: the diagnosed faults (or that none stands out), then anomalies, work orders,
    alerts and measured figures, each with its period; open questions where an asset was looked at but not
    diagnosed. With no diagnosis, the conclusion leads with the first finding rather than saying nothing."""
    diagnoses = _latest_by_asset(artifacts, "diagnose")
    faults, healthy, lines = [], [], []
    for asset, art in diagnoses.items():
        top = _top(art)
        if top is None:
            continue
        mode = top.failure_mode
        if mode.lower().startswith(NO_FAULT):
            healthy.append(asset)
            lines.append(f"- {asset}{_when(art)}: no fault stands out ({mode} {_range(top)}) [{art.id}]")
        else:
            faults.append(f"{asset}: {mode} ({_range(top)})")
            confirm = f"; confirm by {top.confirm_by}" if top.confirm_by else ""
            lines.append(f"- {asset}{_when(art)}: most likely {mode} ({_range(top)}){confirm} [{art.id}]")
    for asset, art in _latest_by_asset(artifacts, "anomaly_detection").items():
        rate = anomaly_rate(art)
        if rate is not None:
            word = "abnormal" if rate > 2 * FALSE_ALARM_RATE else "within the false-alarm rate"
            lines.append(f"- {asset}{_when(art)}: {rate:.1%} of running samples flagged ({word}) [{art.id}]")
    for asset, art in _latest_by_asset(artifacts, "work_order_summary").items():
        wo = work_order_counts(art)
        per_year = wo.corrective_per_year
        trend = f"; corrective a year: {', '.join(str(v) for v in per_year.values())}" if per_year else ""
        latest = recent_orders(art)[:1]  # the last job done says what was already acted on ("the tubes were cleaned")
        last = f"; latest: {latest[0].description or latest[0].code} on {latest[0].date}" if latest else ""
        lines.append(f"- {asset}{_when(art)}: {wo.total} work orders, {wo.corrective} corrective{trend}{last} "
                     f"[{art.id}]")
    alerted = [(asset, art) for asset, art in _latest_by_asset(artifacts, "alert_rules").items()]
    lines += [line for asset, art in alerted if (line := _alert_line(asset, art)) is not None]
    for asset, art in _latest_by_asset(artifacts, "telemetry_window").items():
        if asset in diagnoses:
            continue
        if art.summary and len(art.summary) <= _QUOTABLE:
            lines.append(f"- {art.summary.rstrip('.')} [{art.id}]")
            continue
        # a long summary: how it ran, in its headline figures ("efficiency 0.38 kW/ton while running, ...")
        figures = [f"{f.label.lower()} {figure_text(f)}" for sensor in HEADLINE_SENSORS for f in sensor_figures(sensor, [art])]
        if figures:
            lines.append(f"- {asset}{_when(art)}: {', '.join(figures)} [{art.id}]")
    drafts = [a for a in artifacts if a.kind == "work_order_draft"]
    lines += [f"- Drafted: {' '.join(draft_title(a))} [{a.id}]".rstrip() for a in drafts]
    looked_at = {a for art in artifacts for a in art.asset_ids}
    undiagnosed = sorted(looked_at - set(diagnoses))
    open_questions = [f"{chillers(undiagnosed)} {'has' if len(undiagnosed) == 1 else 'have'} data but no "
                      "diagnosis yet."] if undiagnosed else []
    if faults:
        conclusion = "Verdict: " + "; ".join(faults) + "."
        if healthy:
            conclusion += f" No fault stands out on {chillers(healthy)}."
    elif healthy:
        conclusion = f"Verdict: no fault stands out on {chillers(healthy)}."
    elif lines:
        lead = without_refs(lines[0]).removeprefix("- ")
        conclusion = f"Verdict: no diagnosis yet; the main finding: {lead}."
    else:
        conclusion = "Verdict: nothing has been analysed in this session yet."
    return Findings(conclusion, lines, open_questions)


def names(artifacts: list[Artifact]) -> str:
    """The assets the findings are about, for a heading."""
    return join_names(sorted({a for art in artifacts for a in art.asset_ids}))
