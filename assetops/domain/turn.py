"""The types of one turn: the time window, the dialog focus, a specialist task and the planner's decision.

Planning produces them, the supervisor carries them between nodes, and the specialists read them.
"""

from __future__ import annotations

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
    last_intent: str | None = None
    scope: str = "asset"  # a `Scope`: "fleet" while the dialog is about the whole site
    pending_offer: str | None = None  # an action the last answer offered ("draft_wo"): "yes, do it" takes it


@dataclass
class SpecialistTask:
    """One narrow task for one specialist. `depends_on` indexes earlier tasks of the same plan."""

    specialist: SpecialistId
    action: str
    asset_ids: list[str] = field(default_factory=list)
    equipment_ids: list[str] = field(default_factory=list)
    window: TimeWindow | None = None
    sensors: list[str] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)
    depends_on: list[int] = field(default_factory=list)
    goal: str = ""  # one line a person can read: "anomaly detection on Chiller 4 power, Mar-May 2021"


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
