"""The maintenance specialist (`maintenance`): work orders, bundling, prediction, alert triage,
drafted work orders, protocols, prioritisation and management reports."""

from specialists.maintenance.specialist import MaintenanceSpecialist

__all__ = ["MaintenanceSpecialist"]
