"""Fleet catalogs for unit tests that have no loaded database: the default fleet's, or a small one's."""

from __future__ import annotations

from datetime import date

from assetops.domain.catalog import FleetCatalog
from fleet.catalog import generated_catalog
from fleet.synthetic import GeneratorConfig, small_config


def default_catalog() -> FleetCatalog:
    """The catalog of the default generated fleet (seed 7, 2016-2021, four telemetry chillers)."""
    return generated_catalog()


def small_catalog(start: date | str, end: date | str, assets: tuple[str, ...] | None = None) -> FleetCatalog:
    """The catalog of a small generated fleet (`fleet.synthetic.small_config`)."""
    config = small_config(start, end) if assets is None else small_config(start, end, assets=assets)
    return generated_catalog(config)


__all__ = ["GeneratorConfig", "default_catalog", "small_catalog"]
