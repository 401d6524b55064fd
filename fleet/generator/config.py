"""Generator configuration: seed, telemetry window, assets, optional explicit fault schedule."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

from assetops.domain.catalog import DEFAULT_SITE_TIMEZONE
from fleet.model import TELEMETRY_ASSETS

if TYPE_CHECKING:
    from fleet.generator.faults import FaultEpisode

DEFAULT_SEED = 7
GENERATOR_VERSION = "1.0.0"
SITE_TIMEZONE = DEFAULT_SITE_TIMEZONE  # the generated fleet uses the default zone (stored with it)
SAMPLE_MINUTES = 15

ProgressCallback = Callable[[str, float], None]  # (stage name, fraction done 0..1)


@dataclass(frozen=True)
class GeneratorConfig:
    """What to generate. `end` is inclusive (its whole local day is covered).

    `episodes` replaces the seed's fault schedule when given (tests inject one fault on purpose;
    an empty tuple means a fault-free fleet). Work orders cover the calendar years from the year
    before `start` to the year after `end`, so the default window gives 2015-2022.
    """

    seed: int = DEFAULT_SEED
    start: date = date(2016, 1, 1)
    end: date = date(2021, 12, 31)
    assets: tuple[str, ...] = TELEMETRY_ASSETS
    progress: ProgressCallback | None = field(default=None, compare=False)
    episodes: Sequence[FaultEpisode] | None = None

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError(f"end {self.end} is before start {self.start}; give an end on or after start")
        unknown = [a for a in self.assets if a not in TELEMETRY_ASSETS]
        if unknown:
            raise ValueError(f"assets {unknown} have no telemetry model; choose from {list(TELEMETRY_ASSETS)}")
        if not self.assets:
            raise ValueError("assets is empty; give at least one of " + ", ".join(TELEMETRY_ASSETS))

    @property
    def work_order_years(self) -> range:
        """Calendar years covered by work orders."""
        return range(self.start.year - 1, self.end.year + 2)

    def report(self, stage: str, fraction: float) -> None:
        """Tell the progress callback (if any) that `stage` is `fraction` done."""
        if self.progress is not None:
            self.progress(stage, fraction)


def small_config(
    start: date | str = date(2021, 5, 1),
    end: date | str = date(2021, 6, 30),
    *,
    assets: Sequence[str] = TELEMETRY_ASSETS,
    seed: int = DEFAULT_SEED,
    episodes: Sequence[FaultEpisode] | None = None,
) -> GeneratorConfig:
    """A config for a short window (weeks to months) that generates in about a second.

    Dates may be ISO strings. With the default seed the anchored episodes that overlap the window
    are kept, so e.g. May-June 2021 contains the Chiller 9 evaporator-approach surge.
    """
    return GeneratorConfig(
        seed=seed, start=_as_date(start), end=_as_date(end), assets=tuple(assets), episodes=episodes,
    )


def _as_date(value: date | str) -> date:
    return value if isinstance(value, date) else date.fromisoformat(value)
