"""What the question asks of the answer's shape: which results answer it, how long, what to add.

Pure: reads the user's message (and the planner's intent) only. The offline answer uses it to put
the result that answers this turn's question first (not the newest one), to keep a "few lines for
my boss" request short, to add a severity statement when asked "how serious is it?", and to allow
a longer reply only when the user asks for detail.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# The actions whose results answer each intent (assetops.domain.actions.ACTIONS names; intents are the
# planner's, see graph/understanding/vocabulary.yaml).
ANSWERING_ACTIONS: dict[str, frozenset[str]] = {
    "inventory": frozenset({"inventory"}),
    "data_coverage": frozenset({"sensors"}),
    "models": frozenset({"capabilities"}),
    "history": frozenset({"history", "compare"}),
    "point_value": frozenset({"point_value"}),
    "compare": frozenset({"compare"}),
    "investigate": frozenset({"diagnose", "anomaly_detection", "trend_stats"}),
    "anomalies": frozenset({"anomaly_detection"}),
    "worsening": frozenset({"trend_stats"}),
    "running_now": frozenset({"history"}),
    "repair_check": frozenset({"history", "wo_summary"}),
    "load_bins": frozenset({"load_bins"}),
    "forecast": frozenset({"forecast"}),
    "finetune": frozenset({"finetune"}),
    "evaluate_forecast": frozenset({"evaluate_forecast"}),
    "sensor_health": frozenset({"trend_stats", "sensor_validity"}),
    "thresholds": frozenset({"threshold_suggestion", "monitoring_config"}),
    "failure_modes": frozenset({"failure_modes", "sensor_mapping"}),
    "diagnose": frozenset({"diagnose"}),
    "sensor_validity": frozenset({"sensor_validity"}),
    "prioritize": frozenset({"prioritize"}),
    "work_orders": frozenset({"wo_summary"}),
    "bundling": frozenset({"bundle"}),
    "predict_next": frozenset({"predict_next"}),
    "alerts": frozenset({"alert_rules"}),
    "alert_to_failure": frozenset({"alert_to_failure"}),
    "draft_wo": frozenset({"draft_wo"}),
    "plan_fix": frozenset({"draft_wo", "validation_protocol", "restart_checklist"}),
    "restart": frozenset({"restart_checklist"}),
    "validation": frozenset({"validation_protocol"}),
    "report": frozenset({"report"}),
}
# Data actions that answer "what did sensor X read" when the message names a sensor and no analysis.
SENSOR_READING_ACTIONS = frozenset({"history", "point_value", "compare"})

_BRIEF = re.compile(
    r"\b(few lines|couple of lines|in short|short (answer|version|summary|note|update)|briefly|brief|tl;?dr|"
    r"one paragraph|(for|to) (my|the|our) (boss|manager|management|director)|management summary|"
    r"executive summary|summari[sz]e (it )?for (management|my boss|the boss))\b", re.IGNORECASE)
_DETAIL = re.compile(r"\b(in (full )?detail|detailed|full (details|report|breakdown)|all the details|"
                     r"everything you (have|found)|verbose|long version)\b", re.IGNORECASE)
_SEVERITY = re.compile(r"\b(how (serious|bad|severe|urgent|critical|worried)|severity|is (it|this|that) "
                       r"(serious|urgent|critical|bad)|urgency|should i (be )?worr(y|ied))\b", re.IGNORECASE)


@dataclass(frozen=True)
class QuestionStyle:
    """How this turn's answer should be shaped."""

    intents: list[str] = field(default_factory=list)  # the message's own intents, strongest first
    sensors: list[str] = field(default_factory=list)  # canonical sensor names the message names
    brief: bool = False
    detail: bool = False
    severity: bool = False

    def answering_actions(self, planner_intent: str) -> frozenset[str]:
        """Actions whose results answer the question, most direct reading first.

        A message with its own intent is answered by that intent's actions. A follow-up without one
        ("chiller 4 supply temp for march") that names a sensor asks for its readings; otherwise the
        planner's (inherited) intent decides.
        """
        if self.intents:
            return frozenset().union(*(ANSWERING_ACTIONS.get(i, frozenset()) for i in self.intents))
        if self.sensors:
            return SENSOR_READING_ACTIONS
        return ANSWERING_ACTIONS.get(planner_intent, frozenset())


def read_question(message: str) -> QuestionStyle:
    """The style of the answer `message` asks for (intents and sensors via the planner's vocabulary)."""
    from graph.understanding.intents import classify, score_intents
    from graph.understanding.sensors import find_sensors
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary

    if not message.strip():
        return QuestionStyle()
    vocab = vocabulary()
    text = Text.of(message[:2000])  # long pastes are refused before an answer is composed
    return QuestionStyle(
        intents=classify(score_intents(text, vocab), vocab),
        sensors=find_sensors(text, vocab).canonical,
        brief=bool(_BRIEF.search(message)),
        detail=bool(_DETAIL.search(message)),
        severity=bool(_SEVERITY.search(message)),
    )
