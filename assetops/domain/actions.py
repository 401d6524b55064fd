"""What each specialist can be asked to do, and the artifact kind each action writes.

An action names both the task and the artifact it leaves: most specialists name their artifacts by
the action that made them; the data and maintenance specialists use a longer noun for some, listed
in `KIND_OF_ACTION`. `action_of_kind` is the one way back from a stored artifact to its action.
"""

from __future__ import annotations

from assetops.domain.specialists import SpecialistId

# Planning only emits these; specialists implement them.
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

# The artifact kind an action writes where it is not the action's own name.
KIND_OF_ACTION: dict[str, str] = {
    "history": "telemetry_window",
    "compare": "asset_comparison",
    "point_value": "point_values",
    "sensors": "sensor_inventory",
    "inventory": "inventory",
    "wo_summary": "work_order_summary",
    "bundle": "bundles",
    "predict_next": "next_work_order",
    "prioritize": "priority_ranking",
    "draft_wo": "work_order_draft",
    "report": "management_report",
}
ACTION_OF_KIND: dict[str, str] = {kind: action for action, kind in KIND_OF_ACTION.items()}


def kind_of_action(action: str) -> str:
    """The artifact kind that `action` writes."""
    return KIND_OF_ACTION.get(action, action)


def action_of_kind(kind: str) -> str:
    """The action that writes artifacts of `kind` (the kind itself when it is already an action name)."""
    return ACTION_OF_KIND.get(kind, kind)
