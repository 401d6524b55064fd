"""The types of one turn: the time window, the dialog focus, a specialist task, its result and the
planner's decision.

Planning produces them, the supervisor carries them between nodes (the LangGraph checkpointer stores
these dataclasses as they are), and the specialists read and return them.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal

from assetops.domain.specialists import SpecialistId


@dataclass
class TimeWindow:
    """A half-open time window [start, end) in the site's local time (aware datetimes)."""

    start: datetime
    end: datetime
    label: str = ""  # how the user said it: "spring 2021", "past month"

    def to_dict(self) -> dict[str, str]:
        return {"start": self.start.isoformat(), "end": self.end.isoformat(), "label": self.label}


@dataclass
class Focus:
    """What the dialog is about right now; carried across turns so follow-ups can refer to it."""

    site: str | None = None
    asset_ids: list[str] = field(default_factory=list)
    equipment_ids: list[str] = field(default_factory=list)
    window: TimeWindow | None = None
    sensors: list[str] = field(default_factory=list)  # full names: "Chiller 9 Supply Temperature"
    failure_modes: list[str] = field(default_factory=list)
    hypotheses: list[str] = field(default_factory=list)  # ranked, most likely first
    rule_ids: list[str] = field(default_factory=list)
    asked_rules: list[str] = field(default_factory=list)  # rules the user named (by id or name): "when did they fire?"
    last_intent: str | None = None
    scope: str = "asset"  # a `Scope`: "fleet" while the dialog is about the whole site
    pending_offer: str | None = None  # an action the last answer offered ("draft_wo"): "yes, do it" takes it
    offered_work: str | None = None  # the job that offer was about ("oil analysis"): the draft carries it
    discussed: list[str] = field(default_factory=list)  # assets talked about, most recent first ("both" reads it)
    earlier_window: TimeWindow | None = None  # the period discussed before `window` ("those two quarters")
    periods: list[TimeWindow] = field(default_factory=list)  # periods listed side by side ("those three years")
    picked: str | None = None  # the asset the last "which one?" answer named first ("why that one?")
    ranked: list[str] = field(default_factory=list)  # that answer's assets in its order ("the runner-up")
    picked_for: str | None = None  # what that pick was for: "good" ("which ran more efficiently?") or "bad"
    asked: str | None = None  # the last full question: "and in august?" asks it again of another period
    window_named: bool = False  # `window` is a period the user named (not a default look-back)
    listed: str | None = None  # the records the dialog listed last ("alerts", "work_orders"): "how many of those?"
    # periods the user named relative to another, in their words, latest first: "the week before" said again is
    # that week ("this past week vs the week before" ... "was it carrying more load the week before?")
    named_periods: list[TimeWindow] = field(default_factory=list)
    # jobs the user said were done, each the day (period) it was done, labelled with the job's words, latest first:
    # "it was shut down for a tube clean on the 9th" ... "has the clean helped?" sets before and after that day
    told_jobs: list[TimeWindow] = field(default_factory=list)
    # the start of the day the user said an event happened ("tripped on the 23rd of last month"): "the week before
    # the trip", "since the trip" count from it in later turns too
    told_event: datetime | None = None


# Where a task of the turn's plan stands: waiting (or to be retried), done, given up, or skipped
# because evidence it depends on could not be obtained.
TaskStatus = Literal["pending", "done", "failed", "skipped"]


@dataclass
class SpecialistTask:
    """One narrow task for one specialist. `depends_on` indexes earlier tasks of the same plan.

    The last three fields are the supervisor's bookkeeping while the task sits in a plan: a
    specialist never reads them.
    """

    specialist: SpecialistId
    action: str
    asset_ids: list[str] = field(default_factory=list)
    equipment_ids: list[str] = field(default_factory=list)
    window: TimeWindow | None = None
    sensors: list[str] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)
    depends_on: list[int] = field(default_factory=list)
    goal: str = ""  # one line a person can read: "anomaly detection on Chiller 4 power, Mar-May 2021"
    status: TaskStatus = "pending"
    attempts: int = 0  # retries spent
    reason: str = ""  # why it failed or was skipped

    @property
    def label(self) -> str:
        """The task as a person reads it: its goal, else `specialist.action`."""
        return self.goal or f"{self.specialist}.{self.action}"

    def signature(self) -> tuple[object, ...]:
        """What makes two tasks the same piece of work (used to drop duplicates)."""
        window = (self.window.start.isoformat(), self.window.end.isoformat()) if self.window else (None, None)
        return (self.specialist, self.action, tuple(self.asset_ids), tuple(self.equipment_ids), *window,
                tuple(sorted(self.sensors)))


ResultStatus = Literal["ok", "partial", "failed"]


@dataclass
class SpecialistResult:
    """What a specialist hands back to the supervisor: short, with ids, never raw tool dumps.

    The last four fields are filled by the dispatch node: which plan task it answers, in which
    supervisor step, and whether a failure is worth retrying.
    """

    specialist: SpecialistId
    action: str
    status: ResultStatus
    summary: str
    artifact_ids: list[str] = field(default_factory=list)
    reused_artifact_ids: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    follow_ups: list[SpecialistTask] = field(default_factory=list)  # missing evidence another specialist can get
    result_id: str = field(default_factory=lambda: uuid.uuid4().hex[:8])
    task_index: int = -1  # the plan index of the task it answers
    step: int = 0  # the supervisor step that dispatched it
    unavailable: bool = False  # no specialist could take the task: retrying cannot help
    retryable: bool = True  # a crash, missing evidence or a transient error: a retry may succeed

    @property
    def usable(self) -> bool:
        """Whether it produced something an answer can lead with."""
        return self.status in ("ok", "partial") and bool(self.summary)

    @property
    def all_artifact_ids(self) -> list[str]:
        """Artifacts it created, then those it reused."""
        return [*self.artifact_ids, *self.reused_artifact_ids]

    def first_error(self) -> str:
        """Its first error, else its summary: why it failed, in one line."""
        return str(self.errors[0]) if self.errors else self.summary or "unknown error"


DecisionKind = Literal["run", "answer", "clarify", "reject"]

# The shape of answer a question needs: the first sentence of the answer is written for it.
#   open       a request or open question: the finding that answers it first
#   yes_no     "is it...?", "are breakdowns getting more frequent?": yes or no first, then the evidence
#   which      "which one...?", "which unit worries you?": the pick first
#   how_to     "how do we restart safely?": a procedure
#   verdict    "so what's the verdict?": a summary of the findings so far
#   recommend  "should we plan an inspection?", "replace or keep fixing?": a recommendation (and an
#              offer to act), never the action itself
QuestionShape = Literal["open", "yes_no", "which", "how_to", "verdict", "recommend"]
QUESTION_SHAPES: tuple[QuestionShape, ...] = ("open", "yes_no", "which", "how_to", "verdict", "recommend")
# How many assets the turn is about: one named or carried asset, several, or the whole site.
Scope = Literal["asset", "assets", "fleet"]


@dataclass
class Decision:
    """The planner's verdict for a turn: run specialists, answer directly, ask, or refuse with a reason."""

    kind: DecisionKind
    tasks: list[SpecialistTask] = field(default_factory=list)
    message: str = ""  # the question to ask, the direct answer, or the reason for refusing
    focus: Focus = field(default_factory=Focus)
    intent: str = ""
    assumptions: list[str] = field(default_factory=list)
    reference_date: date | None = None
    shape: QuestionShape = "open"
    scope: Scope = "asset"


@dataclass
class TurnDecision:
    """What later nodes of the turn need of the planner's decision (its tasks and focus are kept
    apart, in the plan and the focus)."""

    kind: DecisionKind = "answer"
    message: str = ""
    intent: str = ""
    assumptions: list[str] = field(default_factory=list)
    shape: QuestionShape = "open"
    scope: Scope = "asset"

    @classmethod
    def of(cls, decision: Decision, *, kind: DecisionKind | None = None) -> TurnDecision:
        """The turn's part of `decision` (`kind` overrides: a run with nothing runnable answers)."""
        return cls(kind=kind or decision.kind, message=decision.message, intent=decision.intent,
                   assumptions=list(decision.assumptions), shape=decision.shape, scope=decision.scope)
