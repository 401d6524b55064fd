"""Make sure a fresh machine has a fleet: generate and load the default one when telemetry is empty."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assetops.settings import Settings
from fleet.loader import LoadReport, ProgressCallback, is_fleet_loaded, load_fleet

if TYPE_CHECKING:
    from fleet.generator.config import ProgressCallback as GenerationProgress


def ensure_default_fleet(settings: Settings, *, generation_progress: GenerationProgress | None = None,
                         load_progress: ProgressCallback | None = None) -> LoadReport | None:
    """Generate + load the default fleet unless telemetry is already there (then None, fast).

    An imported AssetOpsBench dataset counts as a fleet too: it is never overwritten here.
    """
    if is_fleet_loaded(settings):
        return None
    # Imported here: the generator's modules are only worth loading when there is work to do.
    from fleet.generator import GeneratorConfig, generate_fleet

    data = generate_fleet(GeneratorConfig(progress=generation_progress))
    return load_fleet(settings, data, progress=load_progress)
