"""Resolve checkpoint names to locations and load TinyTimeMixer models once per process.

Base names (`ttm_96_28`, `ttm_512_96` and their `ttm_energy_*` aliases) live in
`settings.model_checkpoint` (a directory, or an HF id such as ibm-granite/granite-timeseries-ttm-r2)
or, when that is empty, in `settings.models_dir`. Any other checkpoint is a directory the caller
resolved (the tool layer confines it to the work directory).
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path

import torch
from tsfm_public import TinyTimeMixerForPrediction

from assetops.settings import Settings
from timeseries.errors import TsfmError
from timeseries.ttm_config import BASE_CHECKPOINTS

log = logging.getLogger(__name__)

# The energy variants of the contract point at the same base checkpoints.
CHECKPOINT_ALIASES = {"ttm_energy_96_28": "ttm_96_28", "ttm_energy_512_96": "ttm_512_96"}
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")
HUB_SEPARATOR = "#"  # "<hf id>#<base name>": which branch of a hub TTM family to load


@dataclass(frozen=True)
class LoadedModel:
    """A model ready for inference and the shape it was trained for."""

    model: TinyTimeMixerForPrediction
    source: str
    context_length: int
    prediction_length: int


_cache: dict[tuple[str, float], LoadedModel] = {}
_cache_lock = threading.Lock()
_threads_configured = False


def configure_torch() -> None:
    """Size torch's intra-op pool to the machine once: all cores but one, at most 8.

    One core stays free for the event loop, the database and the other CPU-pool threads; on a
    busy 2-core machine a single torch thread measured 3-7x faster per training step than two,
    because spinning intra-op threads fight each other and everyone else for the cores.
    """
    global _threads_configured
    if not _threads_configured:
        torch.set_num_threads(max(1, min(8, (os.cpu_count() or 1) - 1)))
        _threads_configured = True


def base_name(name: str) -> str | None:
    """The base checkpoint a name refers to, or None when it is not a base name."""
    name = CHECKPOINT_ALIASES.get(name, name)
    return name if name in BASE_CHECKPOINTS else None


def base_checkpoint_location(name: str, settings: Settings) -> str:
    """Directory (or HF id) of base checkpoint `name` under the configured checkpoint root."""
    root = settings.model_checkpoint.strip()
    if root and not Path(root).expanduser().is_dir() and not root.startswith((".", "/", "~")):
        return f"{root}{HUB_SEPARATOR}{name}"  # an HF hub id: the branch for `name` is chosen at load time
    return str((Path(root).expanduser() if root else settings.models_dir) / name)


def is_checkpoint_dir(path: Path) -> bool:
    """True when `path` holds a config.json and weights that from_pretrained can load."""
    return (path / "config.json").is_file() and any((path / f).is_file() for f in WEIGHT_FILES)


def load_model(location: str | Path) -> LoadedModel:
    """Load (or reuse) the TTM at `location`; a checkpoint rewritten in place is reloaded."""
    configure_torch()
    path = Path(location)
    if path.is_absolute() or path.exists():
        if not is_checkpoint_dir(path):
            raise TsfmError(
                f"No TTM checkpoint at '{path}' (config.json and model weights expected). Base checkpoints are "
                "built by `assetops tsfm pretrain` (or `assetops setup`)."
            )
        key = (str(path.resolve()), (path / "config.json").stat().st_mtime)
    else:
        key = (str(location), 0.0)
    with _cache_lock:
        cached = _cache.get(key)
        if cached is None:
            cached = _load_uncached(str(location))
            _cache[key] = cached
        return cached


def _load_uncached(location: str) -> LoadedModel:
    try:
        if HUB_SEPARATOR in location and not Path(location).exists():
            model = _load_from_hub(*location.split(HUB_SEPARATOR, 1))
        else:
            model = TinyTimeMixerForPrediction.from_pretrained(location)
    except (OSError, ValueError) as exc:
        raise TsfmError(f"Could not load TTM checkpoint '{location}': {exc}") from exc
    model.eval()
    config = model.config
    log.info("loaded TTM %s (context %s, horizon %s)", location, config.context_length, config.prediction_length)
    return LoadedModel(model, location, int(config.context_length), int(config.prediction_length))


def _load_from_hub(hub_id: str, name: str) -> TinyTimeMixerForPrediction:
    """A TTM family on the HF hub (e.g. ibm-granite/granite-timeseries-ttm-r2): granite-tsfm's `get_model`
    picks the branch matching the base checkpoint's context and horizon, then calls from_pretrained."""
    from tsfm_public.toolkit.get_model import get_model

    spec = BASE_CHECKPOINTS[name]
    return get_model(hub_id, context_length=spec.context_length, prediction_length=spec.prediction_length)


def clear_model_cache() -> None:
    """Forget every loaded model (tests, or after replacing checkpoints)."""
    with _cache_lock:
        _cache.clear()
