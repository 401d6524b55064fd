"""Make sure the base checkpoints exist: a no-op when they do, pretraining when they are missing."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from assetops.settings import Settings
from timeseries.fleet_series import load_fleet_series
from timeseries.models import is_checkpoint_dir
from timeseries.pretrain import pretrain_all
from timeseries.ttm_config import BASE_CHECKPOINTS

log = logging.getLogger(__name__)


def missing_checkpoints(settings: Settings) -> list[str]:
    """Base checkpoints not yet in `settings.models_dir` (an external model_checkpoint needs none)."""
    if settings.model_checkpoint.strip():
        return []
    return [name for name in BASE_CHECKPOINTS if not is_checkpoint_dir(settings.models_dir / name)]


def ensure_checkpoints(
    settings: Settings, *, progress: Callable[[str], None] | None = None, force: bool = False
) -> list[dict[str, Any]]:
    """Train the missing base checkpoints (all with `force`); return their training records."""
    names = list(BASE_CHECKPOINTS) if force else missing_checkpoints(settings)
    if not names:
        return []
    settings.models_dir.mkdir(parents=True, exist_ok=True)
    fleet = load_fleet_series(settings)
    return pretrain_all(fleet, settings.models_dir, names=names, progress=progress or log.info)
