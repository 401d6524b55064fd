"""The base TinyTimeMixer checkpoints the project trains itself: names, shapes and model configuration."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tsfm_public import TinyTimeMixerConfig


@dataclass(frozen=True)
class CheckpointSpec:
    """Shape and size of one base checkpoint (`ttm_96_28` reads 96 steps and predicts 28)."""

    name: str
    context_length: int
    prediction_length: int
    patch_length: int
    d_model: int = 32
    num_layers: int = 2
    decoder_d_model: int = 16
    decoder_num_layers: int = 2
    description: str = ""


# Patch lengths divide the daily season (96 steps at 15 min): 8 for the short context, 32 for 512 (3
# patches a day, 16 in all), so a patch boundary repeats every day.
BASE_CHECKPOINTS: dict[str, CheckpointSpec] = {
    "ttm_96_28": CheckpointSpec(
        "ttm_96_28", 96, 28, 8, description="Pretrained forecasting model with context length 96"
    ),
    "ttm_512_96": CheckpointSpec(
        "ttm_512_96", 512, 96, 32, description="Pretrained forecasting model with context length 512"
    ),
}
DEFAULT_CHECKPOINT = "ttm_96_28"


def build_config(spec: CheckpointSpec, *, dropout: float = 0.1) -> TinyTimeMixerConfig:
    """A channel-independent TTM configuration for `spec` (std scaling, no frequency token)."""
    from tsfm_public import TinyTimeMixerConfig  # torch loads here, not when the tool list is built

    return TinyTimeMixerConfig(
        context_length=spec.context_length,
        prediction_length=spec.prediction_length,
        patch_length=spec.patch_length,
        patch_stride=spec.patch_length,
        num_input_channels=1,
        d_model=spec.d_model,
        num_layers=spec.num_layers,
        decoder_d_model=spec.decoder_d_model,
        decoder_num_layers=spec.decoder_num_layers,
        mode="common_channel",
        decoder_mode="common_channel",
        scaling="std",
        adaptive_patching_levels=0,
        resolution_prefix_tuning=False,
        dropout=dropout,
        head_dropout=dropout,
        loss="mae",  # MASE, the quality target, is an absolute error; MAE also shrugs off on/off jumps
    )
