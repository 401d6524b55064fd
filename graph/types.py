"""Types shared by the supervisor, the offline planner and the specialists.

The specialist ids and the action names below are the contract between planning (which decides
what to do) and the specialists (which do it). One concept, one name, everywhere: the specialist id
is also the node name, the artifact producer and the rollout role's key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal

SpecialistId = Literal["data", "timeseries", "failure", "maintenance"]
SPECIALISTS: tuple[SpecialistId, ...] = ("data", "timeseries", "failure", "maintenance")

# Rollout roles (docs/ROLLOUT_FORMAT.md) of each specialist.
ROLLOUT_ROLE: dict[str, str] = {
    "data": "data_collection_specialist",
    "timeseries": "time_series_analysis_specialist",
    "failure": "failure_reasoning_specialist",
    "maintenance": "maintenance_planning_specialist",
}

# What each specialist can be asked to do. Planning only emits these; specialists implement them.
ACTIONS: dict[SpecialistId, tuple[str, ...]] = {
    "data": (
        "inventory",  # sites and assets
        "sensors",  # sensors of an asset and its data coverage
        "history",  # telemetry window for the asset(s) and sensors (the evidence base)
        "point_value",  # the value(s) of sensors at a moment / on a day
        "compare",  # side-by-side statistics of several assets over one window
    ),
    "timeseries": (
        "capabilities",  # get_ai_tasks / get_tsfm_models
        "anomaly_detection",  # run_integrated_tsad on the window and sensors
        "forecast",  # run_tsfm_forecasting ahead of the window
        "finetune",  # run_tsfm_finetuning on the window
        "evaluate_forecast",  # forecast with a (tuned) checkpoint and score it against actuals
        "trend_stats",  # trend, drift, variance change, missing data per sensor
        "load_bins",  # behaviour at high vs low load
        "threshold_suggestion",  # baseline ranges and proposed alert thresholds
    ),
    "failure": (
        "failure_modes",  # get_failure_modes
        "sensor_mapping",  # get_failure_mode_sensor_mapping
        "diagnose",  # ranked hypotheses with calibrated confidence from the artifacts
        "sensor_validity",  # sensor drift vs real process change (correlated-sensor check)
    ),
    "maintenance": (
        "wo_summary",  # work-order history (all / corrective / preventive, distribution)
        "bundle",  # corrective orders that could have been one visit
        "predict_next",  # next work order probabilities
        "alert_rules",  # which rules fire and how often
        "alert_to_failure",  # do alerts lead to maintenance
        "draft_wo",  # a drafted work order (persisted as a draft)
        "monitoring_config",  # alert / monitoring configuration
        "restart_checklist",  # safe restart after a trip
        "validation_protocol",  # post-repair validation
        "prioritize",  # which asset needs attention first and why
        "report",  # management report from the artifacts only (no tool calls)
    ),
}


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
