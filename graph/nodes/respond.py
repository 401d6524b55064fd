"""The respond node: turns the turn's results and artifacts into the answer (offline or LLM)."""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from datetime import datetime, tzinfo
from typing import Any

from langchain_core.messages import AIMessage
from langgraph.graph import END
from langgraph.runtime import Runtime
from langgraph.types import Command

from artifacts.model import Artifact
from artifacts.readings import cited_ids
from assetops.domain.catalog import FleetCatalog
from assetops.domain.turn import SpecialistResult, TimeWindow, TurnDecision
from graph.answering.compare_terms import period_phrase
from graph.answering.compose import TurnOutcome, compose_answer, direct_answer
from graph.answering.sections import first_clause
from graph.context import TurnContext
from graph.nodes.common import last_user_message, session_artifacts
from graph.state import SupervisorState, state_focus
from graph.understanding import calendar_math as cal
from graph.understanding.request import MONTH_WORD

log = logging.getLogger(__name__)


async def _turn_artifacts(ctx: TurnContext, results: list[SpecialistResult]) -> list[Artifact]:
    """The artifacts the turn's results made or reused; a wider window a task only cut a narrower one from is its
    source, not evidence ("was its power higher in June?" after the summer's readings is answered on June)."""
    ids: list[str] = []
    for result in results:
        ids += [i for i in result.all_artifact_ids if i not in ids]
    return without_cut_sources(await session_artifacts(ctx, ids), results)


def without_cut_sources(found: list[Artifact], results: list[SpecialistResult]) -> list[Artifact]:
    """`found` less the wider windows a result only cut its own narrower window from (kept where another result, or
    the same one, used them directly)."""
    by_id = {a.id: a for a in found}
    sources: set[str] = set()
    kept: set[str] = set()
    for result in results:
        cut_from = {str(by_id[i].results.get("cut_from")) for i in result.artifact_ids
                    if i in by_id and by_id[i].results.get("cut_from")}
        sources |= cut_from
        kept |= {i for i in result.all_artifact_ids if i not in cut_from}
    return [a for a in found if a.id not in sources or a.id in kept]


async def _cited_artifacts(ctx: TurnContext, artifacts: list[Artifact]) -> list[Artifact]:
    """Earlier artifacts the turn's artifacts cite (a management report's sources), for a brief answer."""
    own = {a.id for a in artifacts}
    ids = [i for a in artifacts for i in cited_ids(a) if i not in own]
    return await session_artifacts(ctx, list(dict.fromkeys(ids))) if ids else []


async def _visible_artifacts(ctx: TurnContext, state: SupervisorState, turn: list[Artifact]) -> list[Artifact]:
    """Every artifact the session can see (a verdict or a recommendation sums up earlier turns too)."""
    ids = list(dict.fromkeys([*(state.get("artifact_ids") or []), *(a.id for a in turn)]))
    return await session_artifacts(ctx, ids)


async def _synthesise(ctx: TurnContext, state: SupervisorState, outcome: TurnOutcome) -> tuple[str, bool]:
    """The answer, and whether it was already streamed as partial text (LLM mode)."""
    max_chars = ctx.deps.config.answer_max_chars
    if not outcome.results:
        return direct_answer(outcome.decision, outcome.notes, max_chars=max_chars), False
    offline = compose_answer(outcome, max_chars=max_chars)
    if ctx.deps.llm is None:
        return offline, False
    from graph.llm.synthesis import llm_answer

    try:
        return await llm_answer(ctx, state, outcome, offline_draft=offline), True
    except Exception as exc:  # the offline answer is always there to fall back on
        log.warning("LLM synthesis failed, answering offline: %s", exc)
        await ctx.event("error", stage="respond", message=f"LLM synthesis failed: {exc}", recovered=True)
        return offline, False


async def respond(state: SupervisorState, runtime: Runtime[TurnContext]) -> Command[Any]:
    """Write the answer, stream it as partial text, then the final answer; end the turn."""
    ctx = runtime.context
    results = state.get("results") or []
    artifacts = await _turn_artifacts(ctx, results)
    earlier = [lead_of(str(m.content)) for m in state.get("messages") or [] if isinstance(m, AIMessage)]
    outcome = TurnOutcome(zone=ctx.deps.catalog.zone, decision=state.get("decision") or TurnDecision(),
                          plan=state.get("plan") or [], results=results, artifacts=artifacts,
                          notes=state.get("notes") or [], focus=state_focus(state),
                          question=last_user_message(state), cited=await _cited_artifacts(ctx, artifacts),
                          session=await _visible_artifacts(ctx, state, artifacts),
                          earlier_leads=[lead for lead in earlier if lead][-_EARLIER_KEPT:])
    answer, streamed = await _synthesise(ctx, state, outcome)
    if not streamed:
        for paragraph in answer.split("\n"):
            if paragraph.strip():
                await ctx.event("partial_text", text=paragraph + "\n")
    artifact_ids = list(state.get("artifact_ids") or [])
    await ctx.event("final_answer", text=answer, kind=outcome.decision.kind,
                    artifact_ids=[a.id for a in outcome.artifacts], visible_artifact_ids=artifact_ids)
    update: dict[str, Any] = {"answer": answer, "messages": [AIMessage(content=answer)]}
    # a pick, or a "yes" naming the chillers that show it ("Yes, Chillers 4, 6 and 9 show ...")
    # (a ranking asked for picks its top too: "rank them by power" then "was 6 also on top a year earlier?")
    picks = outcome.decision.shape == "which" or (outcome.decision.shape == "yes_no" and answer.startswith("Yes")) \
        or bool(_RANKING_ASKED.search(outcome.question))
    picked = picked_asset(answer, outcome.focus.asset_ids, ctx.deps.catalog) if picks else None
    # a ranking of several chillers (a pick, or a site-wide table): "the runner-up", "the other one" read it
    ranked = ranked_in_answer(answer, outcome.focus.asset_ids, ctx.deps.catalog) \
        if picks or outcome.decision.scope == "fleet" else []
    if picked is not None or len(ranked) > 1:  # "why that one?" next means the one this answer picked
        update["focus"] = replace(outcome.focus, picked=picked or outcome.focus.picked,
                                  ranked=ranked if len(ranked) > 1 else outcome.focus.ranked)
    period = (picked_period(answer, outcome.focus.periods) or picked_month(answer, ctx.deps.catalog.zone)) \
        if outcome.decision.shape == "which" else None
    if period is not None:  # "of those three Junes, which was the worst?" then "what got done that summer?"
        focus = update.get("focus", outcome.focus)
        update["focus"] = replace(focus, window=period, earlier_window=focus.window)
    return Command(goto=END, update=update)


_EQUIPMENT_ID = re.compile(r"\bCWC\d{5}\b")
_RANKING_ASKED = re.compile(r"\b(?:rank|ranked|ranking|sort|sorted)\b", re.I)
_EARLIER_KEPT = 8  # earlier answers a summary may restate
_SHORT_LEAD = 30  # a pick ("Chiller 4.") says little without the sentence after it


# The period an answer covered ("Scope: Chiller 9; 2021-06-01 to 2021-07-01 (last month)."), and whether a lead says one.
_SCOPE_DATES = re.compile(r"^Scope: [^;\n]*; (\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})", re.M)
_SAYS_WHEN = re.compile(rf"\b(?:19|20)\d\d\b|\bQ[1-4]\b|\b{MONTH_WORD}\b", re.I)


def lead_of(answer: str) -> str:
    """An answer's lead: its first sentence (with the next one when the first is only a pick), with the period the
    answer covered when the sentence does not say it (a summary restating it would lose when it was)."""
    first_line = answer.strip().split("\n", 1)[0]
    lead = first_clause(first_line, 240)
    if len(lead) < _SHORT_LEAD and len(first_line) > len(lead):
        lead = first_clause(first_line[len(lead):].strip(), 240) if first_line.startswith(lead[:-1]) else lead
    scope = _SCOPE_DATES.search(answer)
    if scope is not None and lead and not _SAYS_WHEN.search(lead):
        start, end = (datetime.fromisoformat(day) for day in scope.groups())
        when = period_phrase(start, end).removeprefix("in ")
        lead = f"{lead.rstrip('. ')} ({when})." if when else lead
    return lead


def ranked_in_answer(answer: str, assets: list[str], catalog: FleetCatalog) -> list[str]:
    """The assets in the order the answer first names them (by name or equipment id): its ranking."""
    found: dict[str, int] = {}
    for asset in assets:
        match = re.search(rf"\b{re.escape(asset)}\b", answer)
        if match:
            found[asset] = match.start()
    for match in _EQUIPMENT_ID.finditer(answer):
        named = catalog.asset_id_of(match.group())
        if named is not None and named in assets and match.start() < found.get(named, len(answer)):
            found[named] = match.start()
    return sorted(found, key=lambda a: found[a])


def picked_period(answer: str, periods: list[TimeWindow]) -> TimeWindow | None:
    """The period of those the dialog set side by side that an answer to "which one?" names first in its first
    sentence (by its label, "June 2020"); None when it names none."""
    first = answer.split("\n", 1)[0].lower()
    found = [(at, p) for p in periods if p.label and (at := first.find(p.label.lower())) >= 0]
    return min(found, key=lambda pair: pair[0])[1] if found else None


_MONTH_PICKED = re.compile(r"^(January|February|March|April|May|June|July|August|September|October|November|December) "
                           r"(\d{4}) was the\b")


def picked_month(answer: str, zone: tzinfo) -> TimeWindow | None:
    """The month an answer to "which month had the most?" picks ("July 2019 was the busiest month ..."), as a
    window, so "that month" next is the one picked; None when it picks none."""
    found = _MONTH_PICKED.match(answer)
    if found is None:
        return None
    month = datetime.strptime(found.group(1), "%B").month
    return cal.month_window(int(found.group(2)), month, f"{found.group(1)} {found.group(2)}", zone)


def picked_asset(answer: str, assets: list[str], catalog: FleetCatalog | None = None) -> str | None:
    """The asset an answer to "which one?" names first in its first sentence, by name or equipment id
    (None for one asset)."""
    if len(assets) < 2:
        return None
    first = answer.split("\n", 1)[0]
    found = [(m.start(), a) for a in assets for m in re.finditer(rf"\b{re.escape(a)}\b", first)]
    if catalog is not None:  # "CWC04006 has the most alerts": work-order answers name the equipment id
        found += [(m.start(), named) for m in _EQUIPMENT_ID.finditer(first)
                  if (named := catalog.asset_id_of(m.group())) is not None and named in assets]
    # "Chillers 4, 6 and 9 show it": the first number of a plural names the first of them
    for m in re.finditer(r"\b(\w+)s (\d+)\b", first):
        named = f"{m.group(1)} {m.group(2)}"
        if named in assets:
            found.append((m.start(), named))
    return min(found)[1] if found else None
