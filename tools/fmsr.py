"""The `fmsr` tool server: failure modes of an asset and which sensors reveal them (§6).

Offline first: curated failure modes come from the `fmea` table (rows with `curated_rank`) and the
failure mode x sensor verdicts from the `sensor_relevance` knowledge base. The tool context's LLM,
when one is configured, only answers what the knowledge base lacks (other asset classes, pairs
without an entry); its answers are cached in process.
"""

# No `from __future__ import annotations`: the framework reads the real annotation objects.
import asyncio
import time
from typing import Annotated, Any

from pydantic import Field
from sqlalchemy import func, select

from assetops.db.engine import Database
from assetops.db.tables.fleet import FmeaRow, SensorRelevanceRow
from assetops.profiling import record_llm_call
from tools.fmsr_logic import (
    SOURCE_LLM,
    UNKNOWN,
    Verdict,
    asset_class_key,
    failure_modes_prompt,
    mapping_output,
    match_failure_mode,
    match_sensor,
    normalise_name,
    parse_numbered_list,
    parse_relevancy_answer,
    relevancy_prompt,
    strip_asset_prefix,
    unknown_verdict,
    verdict_from_knowledge,
)
from tools.framework import ToolError, tool, tool_context

LLM_CONCURRENCY = 4
_llm_failure_modes: dict[str, list[str]] = {}
_llm_verdicts: dict[tuple[str, str, str], Verdict] = {}


async def curated_failure_modes(db: Database, asset_class: str) -> list[str]:
    """The curated failure modes of an asset class, in rank order."""
    statement = (
        select(FmeaRow.failure_mode)
        .where(func.lower(FmeaRow.asset_class) == asset_class, FmeaRow.curated_rank.is_not(None))
        .order_by(FmeaRow.curated_rank, FmeaRow.row_order)
    )
    async with db.session() as session:
        return [row[0] for row in (await session.execute(statement)).all()]


async def curated_asset_classes(db: Database) -> list[str]:
    """The asset classes that have curated failure modes, sorted."""
    statement = select(func.lower(FmeaRow.asset_class)).where(FmeaRow.curated_rank.is_not(None)).distinct()
    async with db.session() as session:
        return sorted(row[0] for row in (await session.execute(statement)).all())


async def relevance_knowledge(db: Database, asset_class: str) -> dict[tuple[str, str], Verdict]:
    """(failure mode, sensor without prefix) -> verdict for an asset class, from `sensor_relevance`."""
    statement = (
        select(SensorRelevanceRow)
        .where(func.lower(SensorRelevanceRow.asset_class) == asset_class)
        .order_by(SensorRelevanceRow.row_order)
    )
    async with db.session() as session:
        rows = (await session.execute(statement)).scalars().all()
    return {
        (row.failure_mode, row.sensor): verdict_from_knowledge(row.relevant, row.reason, row.temporal_behavior)
        for row in rows
    }


def _message_text(message: Any) -> str:
    content = getattr(message, "content", message)
    if isinstance(content, list):  # content blocks: keep the text ones
        return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)
    return str(content)


async def ask_llm(llm: Any, prompt: str, purpose: str) -> str:
    """One chat-model call, recorded in the current profile (model, latency, tokens), failed ones too."""
    started = time.perf_counter()
    try:
        message = await llm.ainvoke(prompt)
    except Exception:
        record_llm_call(llm, started, None, f"{purpose} (failed)")
        raise
    record_llm_call(llm, started, message, purpose)
    return _message_text(message)


@tool("fmsr")
async def get_failure_modes(
    asset_name: Annotated[str, Field(description="Asset name or class, e.g. 'Chiller 6' or 'AHU'.")],
) -> dict[str, Any]:
    """The failure modes of an asset: the curated list of its class (chiller, ahu), else an LLM's list."""
    key = asset_class_key(asset_name)
    if not key or key == "none":
        raise ToolError("asset_name is required")
    ctx = tool_context()
    curated = await curated_failure_modes(ctx.db, key)
    if curated:
        return {"asset_name": asset_name, "failure_modes": curated, "source": "curated"}
    if ctx.llm is None:
        supported = ", ".join(await curated_asset_classes(ctx.db)) or "none loaded"
        raise ToolError(
            f"LLM unavailable and asset class '{key}' (from '{asset_name}') is not in the local database. "
            f"Supported asset classes: {supported}."
        )
    return {"asset_name": asset_name, "failure_modes": await _llm_failure_modes_of(ctx.llm, asset_name), "source": "llm"}


async def _llm_failure_modes_of(llm: Any, asset_name: str) -> list[str]:
    cache_key = normalise_name(asset_name)
    if cache_key not in _llm_failure_modes:
        try:
            text = await ask_llm(llm, failure_modes_prompt(asset_name), "fmsr.get_failure_modes")
        except Exception as exc:  # any provider failure (network, auth, quota) becomes an actionable error
            raise ToolError(f"The LLM could not list failure modes for '{asset_name}': {exc}") from exc
        modes = parse_numbered_list(text)
        if not modes:
            raise ToolError(f"The LLM returned no numbered list of failure modes for '{asset_name}'; try again.")
        _llm_failure_modes[cache_key] = modes
    return list(_llm_failure_modes[cache_key])


def _required_list(name: str, values: list[str]) -> list[str]:
    cleaned = [value for value in values if isinstance(value, str) and value.strip()]
    if not cleaned:
        raise ToolError(f"{name} list is required")
    return cleaned


@tool("fmsr")
async def get_failure_mode_sensor_mapping(
    asset_name: Annotated[str, Field(description="Asset name, e.g. 'Chiller 6'.")],
    failure_modes: Annotated[
        list[str], Field(description="Failure modes, e.g. ['Condenser Water side fouling'] (5 or fewer).")
    ],
    sensors: Annotated[
        list[str], Field(description="Sensor names with or without the asset prefix, e.g. ['Chiller 6 Tonnage'].")
    ],
) -> dict[str, Any]:
    """Which sensors reveal which failure modes, with the reason and expected temporal behaviour per pair.

    Answers come from the curated knowledge base; pairs it lacks are judged by the LLM when one is
    configured, otherwise answered "Unknown".
    """
    if not asset_class_key(asset_name):
        raise ToolError("asset_name is required")
    fms = _required_list("failure_modes", failure_modes)
    sensor_names = _required_list("sensors", sensors)
    ctx = tool_context()
    asset_class = asset_class_key(asset_name)
    knowledge = await relevance_knowledge(ctx.db, asset_class)
    verdicts = _knowledge_verdicts(asset_name, fms, sensor_names, knowledge)
    missing = [pair for pair in _pairs(fms, sensor_names) if pair not in verdicts]
    if missing and ctx.llm is not None:
        verdicts.update(await _llm_verdicts_for(ctx.llm, asset_name, asset_class, missing))
    for pair in missing:
        verdicts.setdefault(pair, unknown_verdict(asset_class))
    output = mapping_output(asset_name, fms, sensor_names, verdicts)
    output["metadata"]["knowledge_base_pairs"] = len(_pairs(fms, sensor_names)) - len(missing)
    if missing and ctx.llm is None:
        output["metadata"]["note"] = _coverage_note(asset_class, len(missing), knowledge)
    return output


def _coverage_note(asset_class: str, missing: int, knowledge: dict[tuple[str, str], Verdict]) -> str:
    """Tell the caller what the knowledge base does cover, so a retry can use those names."""
    if not knowledge:
        return f"The knowledge base has no entries for asset class '{asset_class}'; {missing} pair(s) are Unknown."
    modes = "; ".join(dict.fromkeys(fm for fm, _ in knowledge))
    sensors = ", ".join(sorted({sensor for _, sensor in knowledge}))
    return (
        f"{missing} pair(s) are not in the knowledge base and no LLM is configured. Known failure modes for "
        f"'{asset_class}': {modes}. Known sensors: {sensors}."
    )


def _pairs(fms: list[str], sensors: list[str]) -> list[tuple[str, str]]:
    return [(fm, sensor) for fm in dict.fromkeys(fms) for sensor in dict.fromkeys(sensors)]


def _knowledge_verdicts(
    asset_name: str, fms: list[str], sensors: list[str], knowledge: dict[tuple[str, str], Verdict]
) -> dict[tuple[str, str], Verdict]:
    """The pairs the knowledge base answers, keyed by the names as given."""
    known_fms = list(dict.fromkeys(fm for fm, _ in knowledge))
    known_sensors = list(dict.fromkeys(sensor for _, sensor in knowledge))
    found: dict[tuple[str, str], Verdict] = {}
    for fm, sensor in _pairs(fms, sensors):
        kb_fm = match_failure_mode(fm, known_fms)
        kb_sensor = match_sensor(sensor, asset_name, known_sensors)
        if kb_fm is not None and kb_sensor is not None and (kb_fm, kb_sensor) in knowledge:
            found[(fm, sensor)] = knowledge[(kb_fm, kb_sensor)]
    return found


async def _llm_verdicts_for(
    llm: Any, asset_name: str, asset_class: str, pairs: list[tuple[str, str]]
) -> dict[tuple[str, str], Verdict]:
    """LLM verdicts for the pairs the knowledge base lacks (cached per class, failure mode, bare sensor)."""
    gate = asyncio.Semaphore(LLM_CONCURRENCY)

    async def judge(fm: str, sensor: str) -> Verdict:
        key = (asset_class, normalise_name(fm), normalise_name(strip_asset_prefix(sensor, asset_name)))
        if key in _llm_verdicts:
            return _llm_verdicts[key]
        async with gate:
            try:
                text = await ask_llm(llm, relevancy_prompt(asset_name, fm, sensor), "fmsr.sensor_mapping")
            except Exception as exc:  # any provider failure: this pair stays unanswered, the rest go on
                return Verdict(UNKNOWN, f"The LLM call failed: {exc}", UNKNOWN, SOURCE_LLM)
        verdict = parse_relevancy_answer(text)
        _llm_verdicts[key] = verdict
        return verdict

    answers = await asyncio.gather(*(judge(fm, sensor) for fm, sensor in pairs))
    return dict(zip(pairs, answers, strict=True))
