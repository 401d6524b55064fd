"""Offline answer synthesis: a readable reply built only from the turn's results and artifacts.

The answer leads with the finding that answers this turn's question (not the newest result), cites
numbers, windows, assets and artifact ids (once, compactly), says what could not be done, states
assumptions and confidence, and suggests the next question. Checklists show every step; "how serious"
adds a severity statement; "a few lines for my boss" gets a few lines. It is bounded in length
however long the dialog grows (about 1,200 characters unless the user asks for detail).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from artifacts.model import Artifact
from artifacts.readings import stats_of
from assetops.domain.turn import Focus, SpecialistResult, SpecialistTask, TimeWindow, TurnDecision
from graph.answering.asked_figures import (
    HEADLINE_SENSORS,
    asked_figure_lines,
    asked_sensors,
    derived_figure_texts,
    figure_lines,
    figure_text,
    sensor_figures,
)
from graph.answering.confidence import confidence_line
from graph.answering.figures import telemetry_figures
from graph.answering.long_output import LONG_KINDS, markdown_url
from graph.answering.markdown import clauses_outside_parentheses, sentences, whole_clauses
from graph.answering.question_style import QuestionStyle, read_question
from graph.answering.recommend import offer_sentence
from graph.answering.sections import (
    PROTOCOL_KINDS,
    brief_lines,
    data_issue_lines,
    first_clause,
    fit_brief,
    latest,
    protocol_lines,
    severity_lines,
    source_telemetry,
)
from graph.answering.shapes import AnswerInputs, ShapedLead, decision_shape, shaped_lead
from graph.understanding.request import bullets_asked
from graph.understanding.sensors import canonical_of

PROBLEM_LINE_CHARS = 240
LEAD_RESULTS = 3  # the rest of the turn's findings are cited by artifact id
DEFAULT_MAX_CHARS = 1200  # unless the user asks for detail
BRIEF_MAX_CHARS = 600  # "a few lines for my boss"

# What to ask next, by the last specialist that produced evidence this turn.
NEXT_QUESTION: dict[str, str] = {
    "data": "Shall I look for anomalies or trends in this window?",
    "timeseries": "Want me to check which failure modes could explain this?",
    "failure": "Shall I check existing work orders or draft one for the most likely cause?",
    "maintenance": "Anything else on this asset, or shall I summarise the session for a report?",
}
# Where the answering action suggests a better next question than its specialist does.
NEXT_BY_ACTION: dict[str, str] = {
    "sensors": "Want a telemetry summary for a period inside that range?",
    "inventory": "Which chiller shall I look at first?",
    "diagnose": "Shall I check existing work orders or draft one for the most likely cause?",
}


@dataclass
class TurnOutcome:
    """Everything an answer may draw on for one turn."""

    decision: TurnDecision
    plan: list[SpecialistTask]
    results: list[SpecialistResult]
    artifacts: list[Artifact]  # created or reused this turn, in result order
    zone: ZoneInfo  # the site's time zone: stored (UTC) times are shown in it
    notes: list[str] = field(default_factory=list)
    focus: Focus = field(default_factory=Focus)
    question: str = ""  # the user's message this turn answers
    cited: list[Artifact] = field(default_factory=list)  # earlier artifacts this turn's artifacts cite
    session: list[Artifact] = field(default_factory=list)  # every artifact visible in the session (verdicts)
    # the first sentence of each earlier answer, oldest first: what a summary of the dialog restates (a
    # yes/no verdict such as "Yes, the cleaning fixed it" lives only there, not in an artifact)
    earlier_leads: list[str] = field(default_factory=list)


# Record listings that run over the whole history when no period is given.
_RECORD_ACTIONS = frozenset({"wo_summary", "bundle", "predict_next", "alert_rules", "alert_to_failure"})


def scope_line(outcome: TurnOutcome) -> str:
    """Which assets and window the turn was about (from the tasks, else the focus)."""
    assets: list[str] = []
    window: TimeWindow | None = None
    for task in outcome.plan:
        assets += [a for a in task.asset_ids if a not in assets]
        window = window or task.window
    if not assets:
        assets = list(outcome.focus.asset_ids)
    # tasks that ran over the whole history (no window) are not about the period discussed before
    whole_history = bool(outcome.plan) and all(t.window is None and t.action in _RECORD_ACTIONS
                                               for t in outcome.plan)
    window = window or (None if whole_history else outcome.focus.window)
    parts = []
    if assets:
        parts.append(", ".join(assets))
    if whole_history:
        parts.append("all history")
    elif window:
        label = f" ({window.label})" if window.label else ""
        parts.append(f"{_window_bound(window.start)} to {_window_bound(window.end)}{label}")
    return f"Scope: {'; '.join(parts)}." if parts else ""


def _window_bound(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d}" if (moment.hour, moment.minute) == (0, 0) else f"{moment:%Y-%m-%d %H:%M}"


def site_time(moment: datetime, zone: ZoneInfo) -> str:
    """A stored (UTC) time shown in the site's local time (`zone`), as the user speaks of it."""
    local = moment.astimezone(zone) if moment.tzinfo else moment
    return f"{local:%Y-%m-%d}" if (local.hour, local.minute) == (0, 0) else f"{local:%Y-%m-%d %H:%M}"


def ordered_results(outcome: TurnOutcome, style: QuestionStyle) -> list[SpecialistResult]:
    """Usable results, those answering the question first; within each group later steps (which
    build on earlier ones, like a comparison on its data) first."""
    usable = [r for r in outcome.results if r.usable]
    answering = style.answering_actions(outcome.decision.intent)
    return sorted(usable, key=lambda r: (r.action not in answering, -r.step))


def _lead(outcome: TurnOutcome, ordered: list[SpecialistResult], *, answering: frozenset[str] = frozenset(),
          short: bool = False) -> str:
    """The findings: results answering the question in full (the first one at least), the others by
    their first clause; `short` keeps only the first clause of the first."""
    picked: list[tuple[str, bool]] = []
    for index, result in enumerate(ordered):
        summary, answers = result.summary.strip(), index == 0 or result.action in answering
        # A supporting step of the lead's own specialist (a comparison's per-chiller windows) adds
        # nothing the lead does not already say; another specialist's finding does.
        if not answers and result.specialist == ordered[0].specialist:
            continue
        if summary not in [text for text, _ in picked]:
            picked.append((summary, answers))
    picked = picked[:LEAD_RESULTS]
    if picked:
        if short:
            return first_clause(picked[0][0], 400)
        # A supporting finding by its first clause, whole: never cut inside a clause.
        return " ".join(text if in_full else clauses_outside_parentheses(sentences(text)[0])[0].rstrip(".") + "."
                        for text, in_full in picked)
    if outcome.results:
        return "I could not complete the analysis this turn; here is what went wrong."
    return outcome.decision.message or "There was nothing to analyse in that message."


def _artifacts_by_relevance(outcome: TurnOutcome, ordered: list[SpecialistResult]) -> list[Artifact]:
    """The turn's artifacts, those of the answering result first."""
    rank: dict[str, int] = {}
    for position, result in enumerate(ordered):
        for artifact_id in result.all_artifact_ids:
            rank.setdefault(artifact_id, position)
    return sorted(outcome.artifacts, key=lambda a: rank.get(a.id, len(ordered)))


def _evidence(artifacts: list[Artifact], scope_window: str, limit: int, zone: ZoneInfo) -> str:
    """One compact line citing each artifact once (its window only when it differs from the scope)."""
    cited = []
    for artifact in artifacts[:limit]:
        window = ""
        if artifact.window_start and artifact.window_end:
            window = f"{site_time(artifact.window_start, zone)} to {site_time(artifact.window_end, zone)}"
        where = f" {', '.join(artifact.asset_ids)} {window}" if window and window not in scope_window else ""
        cited.append(f"{artifact.kind.replace('_', ' ')}{where} [{artifact.id}]")
    more = f" and {len(artifacts) - limit} more" if len(artifacts) > limit else ""
    return f"Evidence: {'; '.join(cited)}{more}." if cited else ""


def _problems(outcome: TurnOutcome) -> list[str]:
    problems = []
    latest = {r.task_index: r for r in outcome.results}  # a retried task speaks through its last attempt
    for result in latest.values():
        task = outcome.plan[result.task_index] if 0 <= result.task_index < len(outcome.plan) else None
        if result.status == "failed" and task is not None and task.status == "failed":
            error = str(result.errors[0]) if result.errors else ""
            summary = result.summary.strip() or f"{task.goal or result.action} failed"
            detail = f" ({error})" if error and error not in summary else ""
            problems.append(f"- {_clip(summary + detail)}")
    problems += [f"- {_clip(note)}" for note in outcome.notes if note.startswith(("Skipped", "Stopped", "Not run"))]
    return _dedupe(problems)


def _clip(text: str, limit: int = PROBLEM_LINE_CHARS) -> str:
    text = text.replace("..", ".")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _confidence(outcome: TurnOutcome) -> str:
    """What the answer rests on (graph/answering/confidence.py); none for answers built from no data."""
    failed = any(t.status in ("failed", "skipped") for t in outcome.plan)
    return confidence_line(outcome.artifacts, evidence_missing=failed)


def _assumptions(outcome: TurnOutcome) -> list[str]:
    found = list(outcome.decision.assumptions)
    for artifact in outcome.artifacts:
        found += artifact.assumptions[:2]
    return _dedupe(found)[:4]


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _next_question(ordered: list[SpecialistResult]) -> str:
    if not ordered:
        return ""
    first = ordered[0]
    text = NEXT_BY_ACTION.get(first.action) or NEXT_QUESTION.get(first.specialist)
    return "Next: " + (text or "What would you like to look at next?")


_KEPT_LINES = 9  # the first sentence and eight lines of a long shaped opening, when all of it does not fit


def _fit(candidates: list[list[str]], max_chars: int) -> str:
    """The first candidate (fullest first) that fits in `max_chars`, else the shortest one whole:
    length is bounded by choosing fewer parts, never by cutting a sentence."""
    text = ""
    for parts in candidates:
        text = "\n".join(p for p in parts if p)
        if len(text) <= max_chars:
            return text
    return text


def _body(outcome: TurnOutcome, ordered: list[SpecialistResult], artifacts: list[Artifact],
          answering: frozenset[str], *, lead: str, severity: bool) -> list[str]:
    """Lines under the lead: silent sensors, the answering checklist's steps, the severity if asked."""
    created = {i for r in outcome.results for i in r.artifact_ids}  # reused ones were said before
    # The figure the question names ("kW/ton", "condenser water flow") when the lead does not state it.
    # (the level of the reading a symptom named stays in the answer when a long lead is cut to its first sentence)
    body = asked_figure_lines(outcome.question, artifacts, already=lead) \
        or figure_lines(symptom_readings(outcome.plan), artifacts, already=(sentences(lead) or [""])[0])
    body += data_issue_lines([a for a in artifacts if a.id in created], lead)
    # A checklist is shown step by step when it answers the question; a supporting one is only cited.
    asked = {i for n, r in enumerate(ordered) if n == 0 or r.action in answering for i in r.artifact_ids}
    protocol = next((a for a in artifacts if a.kind in PROTOCOL_KINDS and a.id in asked), None)
    if protocol is not None:
        body += protocol_lines(protocol)
    if severity:
        body += severity_lines([*outcome.cited, *outcome.artifacts])
    return body


def symptom_readings(plan: list[SpecialistTask]) -> list[str]:
    """The readings a diagnosis was asked about ("the condenser water to the tower has been warmer since May"): the
    few its plan fetched, whose level the answer states; none for a diagnosis over the usual readings."""
    if not any(t.action == "diagnose" for t in plan):
        return []
    fetched = _fetched_readings([t for t in plan if t.action == "history"])
    return fetched if len(fetched) <= _CARRIED_READINGS else []


def asked_as(outcome: TurnOutcome) -> str:
    """The question the first sentence answers: a follow-up that only swapped what it is about ("and in august?")
    asks the last full question again ("is 4 worse than 3 on kw/t in June? and in august?"; the evidence this turn
    gathered decides it)."""
    carried = outcome.focus.asked
    return f"{carried} {outcome.question}" if carried and carried != outcome.question else outcome.question


def _shaped(outcome: TurnOutcome, artifacts: list[Artifact]) -> ShapedLead | None:
    """The opening written for the question's shape and scope (graph/answering/shapes.py)."""
    shape, scope = decision_shape(outcome.decision)
    return shaped_lead(AnswerInputs(shape=shape, scope=scope, question=asked_as(outcome), artifacts=artifacts,
                                    session=outcome.session or [*outcome.cited, *outcome.artifacts],
                                    pending_offer=outcome.focus.pending_offer, earlier_leads=outcome.earlier_leads,
                                    fetched=_fetched_readings(outcome.plan), subject=outcome.focus.picked,
                                    readings=[canonical_of(s) for s in outcome.focus.sensors]))


_CARRIED_READINGS = 2  # readings a telemetry task carried from the dialog that the first sentence states


def _fetched_readings(plan: list[SpecialistTask]) -> list[str]:
    """The readings the turn's telemetry tasks asked for, without the asset ("Tonnage")."""
    bare = [canonical_of(sensor) for task in plan if task.specialist == "data" and task.sensors
            for sensor in task.sensors]  # (a comparison's task carries each of its chillers' names)
    return list(dict.fromkeys(bare))


def _figures_lead(outcome: TurnOutcome, ordered: list[SpecialistResult], artifacts: list[Artifact]) -> list[str]:
    """A telemetry window that answers the question: its figures as bullets, not a run-on summary."""
    if not ordered or ordered[0].action != "history":
        return []
    ids = set(ordered[0].artifact_ids)
    window = next((a for a in artifacts if a.id in ids and a.kind == "telemetry_window"
                   and stats_of(a)), None)
    if window is None or not window.window_start or not window.window_end:
        return []
    head = (f"{', '.join(window.asset_ids)}, {site_time(window.window_start, outcome.zone)} to "
            f"{site_time(window.window_end, outcome.zone)}:")
    asked = [f for sensor in asked_sensors(outcome.question) for f in sensor_figures(sensor, [window])]
    # The first sentence states the figure asked for; "how did it run?" gets the headline figure.
    derived = derived_figure_texts(outcome.question, window)  # "what's the delta T?": return minus supply
    # "what did that temp average last august?": the reading the dialog carried (a few, not the whole window)
    fetched = _fetched_readings(outcome.plan)
    carried = [f for sensor in fetched for f in sensor_figures(sensor, [window])] \
        if len(fetched) <= _CARRIED_READINGS else []
    asked = asked or ([] if derived else carried[:1] or [f for sensor in HEADLINE_SENSORS
                                                          for f in sensor_figures(sensor, [window])][:1])
    if asked or derived:
        head = head.rstrip(":") + ": " + ", ".join([*derived, *(f"{f.label} {figure_text(f)}" for f in asked)]) + "."
    return [head, *telemetry_figures(window)]


def compose_answer(outcome: TurnOutcome, *, max_chars: int) -> str:
    """The offline answer for a turn that ran specialists: the first sentence answers the question
    (shaped by the planner's question shape), the evidence follows. Bounded to `max_chars`, and to
    about 1,200 characters unless the question asks for detail, by leaving parts out, never by
    cutting a sentence; long outputs are linked, not pasted."""
    style = read_question(outcome.question)
    ordered = ordered_results(outcome, style)
    artifacts = _artifacts_by_relevance(outcome, ordered)
    shaped = _shaped(outcome, artifacts)
    # ("3 bullets for my manager" is brief, but the bullets of the report it asked for are the answer)
    report_asked = bullets_asked(outcome.question) and any(a.kind in LONG_KINDS for a in artifacts)
    if style.brief and not report_asked and (shaped is None or decision_shape(outcome.decision)[0] == "open"):
        return brief_answer(outcome, ordered, max_chars=min(max_chars, BRIEF_MAX_CHARS))
    limit = max_chars if style.detail else min(max_chars, DEFAULT_MAX_CHARS)
    answering = style.answering_actions(outcome.decision.intent)
    full, short = _lead(outcome, ordered, answering=answering), _lead(outcome, ordered, short=True)
    figures = _figures_lead(outcome, ordered, artifacts) if shaped is None else []
    if shaped is not None:
        opening = [shaped.first, *shaped.lines]
        full, short = shaped.first, shaped.first
    elif figures and ordered[0].summary.strip() == full.strip():
        opening = figures  # the window is the whole finding: its figures say it readably
    else:
        opening = [full]
    body = _body(outcome, ordered, artifacts, answering, lead="\n".join(opening), severity=style.severity)
    if shaped is not None and shaped.replaces_body:
        body = [line for line in body if not line[:1].isdigit() and not line.startswith("   - ")]
    scope = scope_line(outcome)
    problems = _problems(outcome)
    tail = ["Not available:", *problems] if problems else []
    assumptions = _assumptions(outcome)
    assumed = "Assumptions: " + "; ".join(a.rstrip(". ") for a in assumptions) + "." if assumptions else ""
    offer = (shaped.offer if shaped is not None else "") or offer_sentence(outcome.focus.pending_offer)
    closing = [_confidence(outcome), f"Next: {offer}" if offer else _next_question(ordered)]
    evidence, few = _evidence(artifacts, scope, 8, outcome.zone), _evidence(artifacts, scope, 3, outcome.zone)
    rest = "\n".join(p for p in [*body, scope, *tail, few, *closing] if p)
    trimmed = [whole_clauses(opening[0], max(limit - len(rest) - 1, 80)), *opening[1:]]
    first_only = [whole_clauses(short, max(limit - len(rest) - 1, 80))]
    return _fit([
        [*opening, *body, scope, *tail, assumed, evidence, *closing],
        [*opening, *body, scope, *tail, evidence, *closing],
        [*trimmed, *body, scope, *tail, few, *closing],
        # The shaped lines (a procedure's steps, a ranking) answer the question: the generic body goes first.
        [*trimmed, scope, *tail, few, *closing],
        [*trimmed[:_KEPT_LINES], scope, *tail[:3], few, closing[0]],
        # still too long (a long checklist): as many of its lines as fit, saying how many are left out
        *([*trimmed[:kept], f"(... {len(trimmed) - kept} more line{'s' if len(trimmed) - kept > 1 else ''}; ask for the full list)", scope, few]
          for kept in range(min(_KEPT_LINES, len(trimmed)) - 1, 2, -1)),
        [*first_only, *body, scope, *tail, few, *closing],
        [*first_only, *body[:4], scope, *tail[:3], _evidence(artifacts, scope, 1, outcome.zone), closing[0]],
        [*first_only, scope, _evidence(artifacts, scope, 1, outcome.zone)],
    ], limit)


def brief_answer(outcome: TurnOutcome, ordered: list[SpecialistResult], *, max_chars: int) -> str:
    """A few lines for a manager from the turn's and the cited artifacts: no generic suggestion."""
    evidence = [*outcome.cited, *outcome.artifacts]
    telemetry = source_telemetry(evidence, latest(evidence, ("diagnose",)))
    assets = list(dict.fromkeys(a for art in evidence for a in art.asset_ids))
    if telemetry is not None and telemetry.window_start and telemetry.window_end:
        period = f" ({site_time(telemetry.window_start, outcome.zone)} to {site_time(telemetry.window_end, outcome.zone)})"
    else:
        window = outcome.focus.window
        period = f" ({window.label or _window_bound(window.start)})" if window else ""
    lines = brief_lines(evidence, f"{', '.join(assets) or 'Site MAIN'}{period}:")
    if len(lines) <= 1:  # nothing diagnostic to condense: the answering finding, shortened
        lines = [_lead(outcome, ordered, short=True)]
    closing = [lines.pop()] if lines[-1].startswith("Next step:") else []
    sources = [f"Sources: {', '.join(a.id for a in outcome.artifacts)}."] if outcome.artifacts else []
    report = next((a for a in outcome.artifacts if a.kind in LONG_KINDS), None)
    if report is not None:  # the few lines are a summary: the full text stays one click away
        sources = [f"Full report: {markdown_url(report)}"]
    return fit_brief([*lines, *sources, *closing], max_chars)


def direct_answer(decision: TurnDecision, notes: list[str], *, max_chars: int) -> str:
    """The answer for a turn that ran nothing: the planner's reply, question or refusal."""
    message = decision.message or "I am not sure what you would like me to do; could you rephrase?"
    extra = [n for n in notes if n]
    text = "\n".join([message, *extra])
    return text if len(text) <= max_chars else text[: max_chars - 1] + "…"
