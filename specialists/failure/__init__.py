"""The failure specialist: FMSR knowledge (failure modes, sensor mapping) and pure, calibrated diagnosis
(ranked hypotheses, sensor drift vs real change) from the session's telemetry and anomaly evidence."""

from specialists.failure.specialist import FailureSpecialist

__all__ = ["FailureSpecialist"]
