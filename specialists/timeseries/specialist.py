"""The timeseries specialist: one handler per action of `assetops.domain.actions.ACTIONS["timeseries"]`."""

from __future__ import annotations

from assetops.domain.specialists import SpecialistId
from assetops.domain.turn import SpecialistTask
from specialists.base import SpecialistContext, SpecialistResult
from specialists.dispatch import Handlers, dispatch
from specialists.timeseries import handlers_anomaly, handlers_stats, handlers_tsfm, handlers_tuning

HANDLERS: Handlers = {
    "capabilities": handlers_tsfm.capabilities,
    "anomaly_detection": handlers_anomaly.anomaly_detection,
    "forecast": handlers_tsfm.forecast,
    "finetune": handlers_tuning.finetune,
    "evaluate_forecast": handlers_tuning.evaluate_forecast,
    "trend_stats": handlers_stats.trend_stats,
    "load_bins": handlers_stats.load_band_stats,
    "threshold_suggestion": handlers_stats.threshold_suggestion,
}


class TimeseriesSpecialist:
    """Anomalies, forecasts, fine-tuning and statistics on the session's telemetry windows."""

    id: SpecialistId = "timeseries"
    handlers: Handlers = HANDLERS

    async def run(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Run one timeseries task; an unknown action is a failed result, never an exception."""
        return await dispatch("timeseries", self.handlers, task, ctx)
