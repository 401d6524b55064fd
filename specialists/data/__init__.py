"""The data specialist (`data`): sites, assets, sensors and telemetry windows as artifacts."""

from specialists.data.specialist import DataSpecialist

__all__ = ["DataSpecialist"]
