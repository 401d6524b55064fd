"""Dialog suites and their per-turn checks: the suite YAML format, the checks of one turn against
its spec (specialists, mentions, numbers against SQL probes, clarify/refuse, first sentence, writes,
invented entities) and the task-completion rubric. Shared by `bench heldout` and `assetops eval`.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import yaml

from evaluation.metrics.rollout import corpus_harness

DIALOGS_FILE = Path(__file__).resolve().parents[1] / "bench" / "heldout_dialogs.yaml"
SITE_TZ = ZoneInfo("America/New_York")
RUNNING_LOAD_PCT = 10.0  # % Loaded above which a sample counts as "running" (off periods read near 0)
PRODUCER_BY_CODE = {"dc": "data", "ts": "timeseries", "fr": "failure", "mp": "maintenance"}
NUMBER = re.compile(r"(?<![\w.])[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])[-+]?\d+(?:\.\d+)?")


# ---------------------------------------------------------------- spec

@dataclass
class TurnSpec:
    """One user turn and what a good answer to it must show."""

    text: str
    specialists: list[str] = field(default_factory=list)
    mentions: list[Any] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)
    kind: str | None = None
    max_tool_calls: int | None = None
    numeric: list[dict[str, Any]] = field(default_factory=list)
    repeat: int = 1
    first: list[Any] = field(default_factory=list)  # the first sentence must contain one of these
    writes: bool = False  # the user asked for a write (a draft); any write in another turn is unrequested

    @property
    def message(self) -> str:
        """What is sent: the text, pasted `repeat` times."""
        return self.text * self.repeat


@dataclass
class DialogSpec:
    """A held-out dialog: id, category, reference date and turns."""

    id: str
    category: str
    reference_date: date
    turns: list[TurnSpec]


def load_dialogs(path: Path = DIALOGS_FILE) -> list[DialogSpec]:
    """Parse the dialogs file into specs (reference date falls back to the file's default)."""
    raw = yaml.safe_load(path.read_text())
    default_ref = date.fromisoformat(str(raw["reference_date"]))
    return [DialogSpec(id=d["id"], category=d["category"],
                       reference_date=date.fromisoformat(str(d["reference_date"])) if "reference_date" in d
                       else default_ref,
                       turns=[TurnSpec(**t) for t in d["turns"]]) for d in raw["dialogs"]]


# ---------------------------------------------------------------- pure scoring

def numbers_in(text: str) -> list[float]:
    """Every number written in the text ("1,234.5" -> 1234.5); dates yield their parts, harmlessly."""
    return [float(m.group().replace(",", "")) for m in NUMBER.finditer(text)]


def number_found(text: str, expected: float, *, tol_rel: float = 0.0, tol_abs: float = 0.0) -> bool:
    """Whether the text contains a number within tolerance of `expected` (the looser tolerance wins)."""
    tolerance = max(abs(expected) * tol_rel, tol_abs) + 1e-9
    return any(abs(value - expected) <= tolerance for value in numbers_in(text))


# Artifact and draft ids are hex: "44" or "ch3" can sit inside one by chance, so mentions are looked for in the
# answer with the ids blanked (the id's kind stays readable: "artifact_dc", "WOD-").
_IDS = re.compile(r"\b(artifact_[a-z]+_|WOD-)[0-9a-f]{6,}\b")


def without_ids(text: str) -> str:
    """The text with every artifact and draft id reduced to its prefix (what a mention may not match inside)."""
    return _IDS.sub(lambda m: m.group(1), text)


def mention_found(text: str, mention: Any) -> bool:
    """A string must appear (case-insensitive), outside artifact/draft ids; a list of strings: any one of them."""
    options = mention if isinstance(mention, list) else [mention]
    lowered = without_ids(text).lower()
    return any(str(option).lower() in lowered for option in options)


_WHOLE_WORDS = frozenset({"yes", "no"})


def word_found(text: str, expected: Any) -> bool:
    """Like `mention_found`, but each option must begin a word: a first sentence expected to say "no" does not say it
    inside "diagnosed" or as the start of "Not clearly" (yes and no must stand whole), nor "Chiller 1" inside
    "Chiller 13" (an option ending in a digit ends there); "Aug" still begins "August"."""
    options = expected if isinstance(expected, list) else [expected]
    plain = without_ids(text)

    def found(option: str) -> bool:
        end = r"(?!\w)" if option.lower() in _WHOLE_WORDS else r"(?!\d)" if option[-1:].isdigit() else ""
        return re.search(rf"(?<!\w){re.escape(option)}{end}", plain, re.I) is not None
    return any(found(str(option)) for option in options)


def kind_ok(expected: str | None, actual: set[str]) -> bool | None:
    """Whether the supervisor's decision kinds of the turn satisfy the expected kind (None: not checked)."""
    if expected is None:
        return None
    wanted = {"clarify_or_reject": {"clarify", "reject"}}.get(expected, {expected})
    return bool(wanted & actual)


# Task completion per turn (issue 11's rubric), computed from the turn's checks:
#   2 answered: the turn got the kind of reply it needed (an answer, or the clarification/refusal the spec
#     expects) and every check of the spec passed: specialists, mentions, absent, numbers, first sentence,
#     tool budget;
#   1 partly: it answered (ran specialists or answered directly) but at least one check failed, or part of
#     its work failed (status "partial": the answer says what is missing);
#   0 not: it asked back or refused where an answer was expected (or answered where a refusal was expected),
#     the turn failed, it wrote something the user did not ask for (a drafted work order, a saved model),
#     or the answer names an entity the fleet does not have (an invented chiller, site or equipment id).
ANSWER_KINDS = frozenset({"run", "answer"})
REFUSAL_EXPECTED = frozenset({"clarify", "reject", "clarify_or_reject"})
WRITE_ARTIFACT_KINDS = frozenset({"work_order_draft", "finetune", "fine_tune", "tuned_model"})
WRITE_TOOLS = frozenset({"tsfm.run_tsfm_finetuning", "run_tsfm_finetuning"})
CHILLER_NAME = re.compile(r"\bchiller\s+#?(\d+)\b", re.IGNORECASE)
ASKED_CHILLER = re.compile(r"\b(?:chillers?|ch|unit|no\.?)\s*#?\s*(\d+)\b")
EQUIPMENT_ID = re.compile(r"\bCWC\d{5}\b", re.IGNORECASE)
SITE_NAME = re.compile(r"\b[Ss]ite\s+([A-Z][A-Z0-9_-]+)\b")


def first_sentence(text: str) -> str:
    """The answer's first sentence: up to the first sentence end or line break (Markdown marks dropped)."""
    body = re.sub(r"[*_`]", "", text).strip().lstrip("#> -").strip()
    match = re.search(r"(?<!\d)[.!?](?=\s|$)|\n", body)
    return (body[:match.start() + 1] if match else body).strip()


def invented_entities(answer: str, asked: str, known_assets: set[str], known_equipment: set[str],
                      known_sites: set[str]) -> list[str]:
    """Chillers, equipment ids and sites the answer names that neither the fleet nor the user's words have.

    An entity the user typed (an unknown "Chiller 99" echoed back in a refusal) is not invented.
    """
    asked_lower = asked.lower()
    typed = set(ASKED_CHILLER.findall(asked_lower))  # "ch 5", "chiller #5", "unit 5" as the user wrote them
    found = [f"Chiller {n}" for n in CHILLER_NAME.findall(answer)
             if f"chiller {n}" not in {a.lower() for a in known_assets} and n not in typed]
    found += [e.upper() for e in EQUIPMENT_ID.findall(answer)
              if e.upper() not in known_equipment and e.lower() not in asked_lower]
    found += [f"Site {s}" for s in SITE_NAME.findall(answer) if s not in known_sites and s.lower() not in asked_lower]
    return sorted(set(found))


def task_completion(*, answered: bool, expected_kind: str | None, kind_ok: bool | None, failed: bool,
                    unrequested_write: bool, invented: bool, checks: list[bool], partial: bool = False) -> int:
    """The rubric above as a pure function: 2 answered, 1 partly, 0 not."""
    if failed or unrequested_write or invented:
        return 0
    if expected_kind in REFUSAL_EXPECTED:
        return 2 if kind_ok else 0
    if not answered or kind_ok is False:
        return 0
    return 2 if all(checks) and not partial else 1


# ---------------------------------------------------------------- probes (independent of the tools)

def _utc_bounds(start: str, end: str) -> tuple[datetime, datetime]:
    """Site-local [start, end) dates as aware datetimes (the columns hold aware UTC)."""
    return (datetime.fromisoformat(start).replace(tzinfo=SITE_TZ), datetime.fromisoformat(end).replace(tzinfo=SITE_TZ))


async def probe_value(db: Any, probe: dict[str, Any]) -> float | None:
    """The value of one probe computed straight from the fleet tables (None when there is no data)."""
    from sqlalchemy import func, select

    from assetops.db.tables import AlertEventRow, TelemetryRow, WorkOrderRow

    start, end = _utc_bounds(str(probe["start"]), str(probe["end"]))
    if probe["probe"] == "telemetry_mean":
        column = getattr(TelemetryRow, probe["column"])
        query = select(func.avg(column)).where(TelemetryRow.asset_id == probe["asset"], TelemetryRow.ts >= start,
                                               TelemetryRow.ts < end, column.is_not(None))
        if probe.get("running"):
            query = query.where(TelemetryRow.pct_loaded > RUNNING_LOAD_PCT)
    elif probe["probe"] == "wo_count":
        query = select(func.count()).select_from(WorkOrderRow).where(
            WorkOrderRow.equipment_id == probe["equipment"], WorkOrderRow.actual_finish >= start,
            WorkOrderRow.actual_finish < end)
        if probe.get("kind", "all") != "all":
            query = query.where(WorkOrderRow.preventive.is_(probe["kind"] == "preventive"))
    elif probe["probe"] == "alert_count":
        query = select(func.count()).select_from(AlertEventRow).where(
            AlertEventRow.equipment_id == probe["equipment"], AlertEventRow.start_time >= start,
            AlertEventRow.start_time < end)
        if probe.get("rule"):
            query = query.where(AlertEventRow.rule_id == probe["rule"])
    else:
        raise ValueError(f"unknown probe {probe['probe']!r}: use telemetry_mean, wo_count or alert_count")
    async with db.session() as session:
        value = await session.scalar(query)
    return None if value is None else float(value)


# ---------------------------------------------------------------- running

@dataclass
class TurnResult:
    """What one turn did and how it scored (None = not checked in this turn)."""

    dialog: str
    index: int
    text: str
    answer: str
    wall_ms: float
    answer_chars: int
    executed: int
    memo_calls: int
    created: int
    reused_artifacts: int
    ran: list[str]
    kinds: list[str]
    routing: bool | None
    mentions: tuple[int, int]
    numeric: tuple[int, int]
    numeric_detail: list[str]
    kind: bool | None
    tool_budget: bool | None
    status: str
    first: bool | None = None
    answered: bool = False
    refusal_expected: bool = False
    unrequested_write: bool = False
    invented: list[str] = field(default_factory=list)
    tc: int = 0


def _specialists_used(events: list[Any]) -> tuple[set[str], set[str]]:
    """(specialists that ran, producers of artifacts reused or cited from earlier turns)."""
    ran = {str(e.data.get("specialist") or e.specialist) for e in events if e.type == "specialist_started"}
    created = {e.data.get("artifact_id") for e in events if e.type == "artifact_created"}
    earlier = [e.data.get("artifact_id") for e in events if e.type == "artifact_reused"]
    for e in events:
        if e.type == "final_answer":
            earlier += [a for a in e.data.get("artifact_ids") or [] if a not in created]
    reused = {PRODUCER_BY_CODE.get(str(a).split("_")[1], "?") for a in earlier if str(a).count("_") >= 2}
    return ran, reused


def _writes(events: list[Any]) -> bool:
    """Whether the turn wrote something a user must ask for: a drafted work order, a tuned model."""
    for e in events:
        if e.type == "artifact_created" and str((e.data.get("artifact") or {}).get("kind")) in WRITE_ARTIFACT_KINDS:
            return True
        if e.type == "tool_call_finished" and str(e.data.get("name")) in WRITE_TOOLS and not e.data.get("reused"):
            return True
    return False


async def known_fleet(db: Any) -> tuple[set[str], set[str], set[str]]:
    """(asset names, equipment ids, sites) the loaded fleet has: what an answer may name."""
    from sqlalchemy import distinct, select

    from assetops.db.tables import TelemetryRow, WorkOrderRow
    from assetops.domain.catalog_loader import load_catalog

    catalog = await load_catalog(db)
    async with db.session() as session:
        assets = set((await session.scalars(select(distinct(TelemetryRow.asset_id)))).all())
        equipment = set((await session.scalars(select(distinct(WorkOrderRow.equipment_id)))).all())
    assets |= {name for name in (catalog.asset_id_of(str(eq)) for eq in equipment) if name}
    return assets, {str(e).upper() for e in equipment}, set(catalog.sites)


async def score_turn(db: Any, dialog: str, index: int, spec: TurnSpec, events: list[Any],
                     fleet: tuple[set[str], set[str], set[str]] | None = None, asked: str = "") -> TurnResult:
    """Score one turn's events against its spec (`asked`: every user message of the dialog so far)."""
    answer = next((str(e.data.get("text") or "") for e in reversed(events) if e.type == "final_answer"), "")
    calls = [e.data for e in events if e.type == "tool_call_finished"]
    executed = sum(not c.get("reused") for c in calls)
    ran, reused = _specialists_used(events)
    kinds = sorted({str(e.data.get("kind")) for e in events if e.type in ("supervisor_decision", "final_answer")})
    hits, details = 0, []
    for check in spec.numeric:
        values = [await probe_value(db, p) for p in check["any_of"]]
        found = any(v is not None and number_found(answer, v, tol_rel=check.get("tol_rel", 0.0),
                                                   tol_abs=check.get("tol_abs", 0.0)) for v in values)
        hits += found
        details.append(f"{'ok' if found else 'MISS'} expected one of {[None if v is None else round(v, 2) for v in values]}")
    mention_hits = sum(mention_found(answer, m) for m in spec.mentions)
    mention_hits += sum(a.lower() not in without_ids(answer).lower() for a in spec.absent)
    done = events[-1].data if events else {}
    routing = all(s in ran | reused for s in spec.specialists) if spec.specialists else None
    first = word_found(first_sentence(answer), spec.first) if spec.first else None
    budget = None if spec.max_tool_calls is None else executed <= spec.max_tool_calls
    kind = kind_ok(spec.kind, set(kinds))
    answered = bool(ANSWER_KINDS & set(kinds)) and bool(answer.strip())
    wrote = _writes(events) and not spec.writes
    invented = invented_entities(answer, asked or spec.text, *fleet) if fleet else []
    status = str(done.get("status"))
    failed = status in ("failed", "error")  # "rejected" is the refusal the rubric scores by kind
    mention_total = len(spec.mentions) + len(spec.absent)
    checks = [routing is not False, mention_hits == mention_total, hits == len(spec.numeric), first is not False,
              budget is not False]
    return TurnResult(
        dialog=dialog, index=index, text=spec.text[:100], answer=answer, answer_chars=len(answer),
        wall_ms=float(done.get("timings", {}).get("wall_ms", 0.0)), executed=executed, memo_calls=len(calls) - executed,
        created=sum(e.type == "artifact_created" for e in events), reused_artifacts=sum(e.type == "artifact_reused"
                                                                                       for e in events),
        ran=sorted(ran), kinds=kinds, routing=routing, mentions=(mention_hits, mention_total),
        numeric=(hits, len(spec.numeric)), numeric_detail=details, kind=kind, tool_budget=budget,
        status=str(done.get("status")), first=first, answered=answered,
        refusal_expected=spec.kind in REFUSAL_EXPECTED, unrequested_write=wrote, invented=invented,
        tc=task_completion(answered=answered, expected_kind=spec.kind, kind_ok=kind, failed=failed,
                           unrequested_write=wrote, invented=bool(invented), checks=checks,
                           partial=status == "partial"))


def checked_counts(values: list[bool | None]) -> tuple[int, int]:
    """(how many are True, how many were checked): None means not checked."""
    checked = [v for v in values if v is not None]
    return sum(checked), len(checked)


def summarise(results: list[TurnResult], harness: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Overall figures (printed by `report`)."""
    first = [r.wall_ms for r in results if r.index == 1]
    follow = [r.wall_ms for r in results if r.index > 1]
    calls = sum(r.executed + r.memo_calls for r in results)
    follow_created = sum(r.created for r in results if r.index > 1)
    follow_reused = sum(r.reused_artifacts for r in results if r.index > 1)
    expect_answer = [r for r in results if not r.refusal_expected]
    return {"tc": statistics.fmean(r.tc / 2 for r in results) if results else 0.0,
            "answer_rate": (sum(r.answered for r in expect_answer), len(expect_answer)),
            "unrequested_writes": sum(r.unrequested_write for r in results),
            "invented": sorted({name for r in results for name in r.invented}),
            "first": checked_counts([r.first for r in results]),
            "routing": checked_counts([r.routing for r in results]), "mentions": [r.mentions for r in results],
            "numeric": [r.numeric for r in results], "kind": checked_counts([r.kind for r in results]),
            "tool_budget": checked_counts([r.tool_budget for r in results]),
            "first_ms": statistics.fmean(first) if first else 0.0, "follow_ms": statistics.fmean(follow) if follow else 0.0,
            "calls_per_turn": calls / len(results) if results else 0.0,
            "answer_chars_median": statistics.median([r.answer_chars for r in results]) if results else 0,
            "answer_chars_max": max((r.answer_chars for r in results), default=0),
            "memo_reuse": sum(r.memo_calls for r in results) / calls if calls else 0.0,
            "artifact_reuse": follow_reused / (follow_created + follow_reused) if follow_created + follow_reused else 0.0,
            "harness": corpus_harness(list(harness.values()))}
