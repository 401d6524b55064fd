"""`PlanContext`: one turn's understanding resolved against the focus, shared by every recipe."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta

from assetops.domain.catalog import FleetCatalog
from assetops.domain.turn import DecisionKind, Focus, TimeWindow
from graph.planning.artifacts import ArtifactSummary
from graph.understanding import Understanding
from graph.understanding import calendar_math as cal
from graph.understanding.request import RequestReading
from graph.understanding.sensors import all_sensors, expand
from graph.understanding.vocabulary import Vocabulary

# Intents whose evidence is telemetry: they need chillers with telemetry and a window inside coverage.
TELEMETRY_INTENTS = frozenset({
    "history", "point_value", "compare", "anomalies", "investigate", "forecast", "finetune",
    "evaluate_forecast", "sensor_health", "sensor_validity", "thresholds", "diagnose", "prioritize", "load_bins",
    "worsening", "running_now",
})
# Intents besides the work-order ones that work for any chiller, telemetry or not.
NO_TELEMETRY_INTENTS = frozenset({"failure_modes", "restart", "validation", "plan_fix"})
# Intents that look at the whole work-order history unless a period is named (or the previous turn was
# one of them, so "any of those in one visit?" keeps "since 2018").
WHOLE_HISTORY_INTENTS = frozenset({"work_orders", "bundling", "predict_next", "alerts", "alert_to_failure"})
# The default window length (a key of `defaults` in the vocabulary) per telemetry intent.
DEFAULT_DAYS_KEY = {
    "history": "history_days", "point_value": "history_days", "compare": "history_days",
    "anomalies": "history_days", "investigate": "investigate_days", "finetune": "finetune_days",
    "evaluate_forecast": "forecast_horizon_days", "sensor_health": "health_days", "sensor_validity": "health_days",
    "thresholds": "threshold_baseline_days", "diagnose": "history_days", "prioritize": "history_days",
    "forecast": "forecast_context_days", "load_bins": "health_days", "worsening": "investigate_days", "running_now": "history_days",
}


@dataclass(frozen=True)
class Stop:
    """A recipe's verdict that the turn cannot run as asked: ask ("clarify") or refuse ("reject")."""

    kind: DecisionKind
    message: str


@dataclass
class PlanContext:
    """Everything a recipe needs: the message's reading, the resolved assets/window/sensors, the history."""

    understanding: Understanding
    focus: Focus
    reference_date: date
    artifacts: Sequence[ArtifactSummary]
    intents: list[str]
    vocab: Vocabulary
    catalog: FleetCatalog  # the loaded fleet: chillers, equipment ids, sensors, coverage, time zone
    assets: list[str] = field(default_factory=list)
    window: TimeWindow | None = None
    window_explicit: bool = False
    window_is_aside: bool = False  # a side window ("recent work orders") that must not replace the focus window
    canonical_sensors: list[str] = field(default_factory=list)
    sensors_explicit: bool = False
    assumptions: list[str] = field(default_factory=list)
    request: RequestReading | None = None  # how the message asks (act, shape, write command, scope cues)
    scope: str = "asset"  # a `Scope`: set to "fleet" when the turn looks at the whole site
    writes_allowed: bool = True  # False: no recipe may add a write (a drafted work order)
    extra_windows: list[TimeWindow] = field(default_factory=list)  # periods discussed earlier a comparison adds
    compared_subject: str | None = None  # "how does that compare with ch3?": the chiller the comparison is about
    against_focus: bool = False  # the named period is what the focus window is compared with ("more than last year?")
    asked: str | None = None  # the full question this turn asks ("and in august?" carries the last one's)

    @property
    def primary(self) -> str:
        """The strongest intent of the turn (it names the decision and the new focus)."""
        return self.intents[0]

    @property
    def telemetry_assets(self) -> list[str]:
        """The resolved assets that have telemetry."""
        return [a for a in self.assets if self.catalog.has_telemetry(a)]

    def equipment_ids(self, assets: Sequence[str] | None = None) -> list[str]:
        """Maximo ids of `assets` (default: the resolved assets)."""
        return self.catalog.equipment_ids_of(list(self.assets if assets is None else assets))

    def sensors_for(self, asset: str, canonical: Sequence[str] | None = None) -> list[str]:
        """Full sensor names of `asset` for `canonical` names (default: the turn's sensors, else all)."""
        names = list(canonical) if canonical is not None else (self.canonical_sensors or all_sensors(asset, self.catalog))
        full, notes = expand([asset], names, self.vocab, self.catalog)
        self.note(*notes)
        return full

    def with_context(self, canonical: Sequence[str]) -> list[str]:
        """`canonical` plus the operating-context sensors an analysis of them needs (load for power...)."""
        out = list(canonical)
        for name in canonical:
            out.extend(self.vocab.sensor_context.get(name, ()))
        return list(dict.fromkeys(out))

    def analysis_window(self) -> TimeWindow:
        """The turn's window; telemetry work without one gets the default days before the reference date."""
        if self.window is None:
            days = int(self.vocab.defaults["history_days"])
            self.window = cal.window(self.reference_date - timedelta(days=days), self.reference_date,
                                     f"last {days} days", self.catalog.zone)
            self.note(f"No period given: using the {days} days before {self.reference_date.isoformat()}.")
        return self.window

    def default(self, key: str) -> object:
        """A planning default from the vocabulary file."""
        return self.vocab.defaults[key]

    def note(self, *assumptions: str) -> None:
        """Record assumptions the answer must state, once each."""
        for text in assumptions:
            if text and text not in self.assumptions:
                self.assumptions.append(text)

    def has(self, *intents: str) -> bool:
        """True when the turn carries any of `intents`."""
        return any(i in self.intents for i in intents)
