"""The fleet catalog: what the loaded fleet contains, read from its tables once per process.

Sites, the site time zone, the assets with their equipment ids, whether they report telemetry and
which sensors, and the telemetry coverage. Every layer that needs a fact about the fleet gets it
from here (passed explicitly), so an imported AssetOpsBench fleet, or any other, is described as it
is loaded instead of as the generator would have made it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import cached_property
from zoneinfo import ZoneInfo

# The time zone of a fleet that does not say (a database loaded before the zone was stored, the
# generator's default fleet, the AssetOpsBench files, whose naive times are taken as this zone).
DEFAULT_SITE_TIMEZONE = "America/New_York"
TIMEZONE_META_KEY = "site_timezone"
DEFAULT_SITE = "MAIN"  # the site named when no fleet is loaded

# Channels reported only when they change (on/off, schedule): not sensors to analyse or plot.
STATUS_CHANNELS: tuple[str, ...] = ("Run Status", "Schedule")


@dataclass(frozen=True)
class AssetInfo:
    """One asset of the fleet. `sensors` are bare names ("Supply Temperature"), alphabetical, without
    the status channels (`STATUS_CHANNELS`), which are listed apart."""

    asset_id: str  # "Chiller 9"
    equipment_id: str  # "CWC04009"
    site: str = "MAIN"
    asset_class: str = "chiller"
    has_telemetry: bool = False
    sensors: tuple[str, ...] = ()
    status_channels: tuple[str, ...] = ()


def _asset_sort_key(asset_id: str) -> tuple[str, int, str]:
    """"Chiller 3" before "Chiller 10": the name, then the trailing number, numerically."""
    head, _, tail = asset_id.rpartition(" ")
    return (head, int(tail), "") if tail.isdigit() else (asset_id, -1, "")


@dataclass(frozen=True)
class FleetCatalog:
    """The loaded fleet, read-only. Assets with telemetry come first, then the others, each by number.

    `telemetry_start` / `telemetry_end` are the first and last telemetry samples (aware, UTC), None
    when the fleet has no telemetry. `alert_rules` are the (id, name) pairs of the alert rules loaded. Lookups by asset name or equipment id ignore case.
    """

    sites: tuple[str, ...]
    timezone: str
    assets: tuple[AssetInfo, ...]
    telemetry_start: datetime | None = None
    telemetry_end: datetime | None = None
    alert_rules: tuple[tuple[str, str], ...] = ()  # (rule id, rule name) of the loaded alert rules
    # (rule id, primary failure code, its description): the failure codes each alert rule points at
    rule_failure_codes: tuple[tuple[str, str, str], ...] = ()
    _by_key: dict[str, AssetInfo] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        ordered = sorted(self.assets, key=lambda a: (not a.has_telemetry, _asset_sort_key(a.asset_id)))
        object.__setattr__(self, "assets", tuple(ordered))
        for asset in ordered:
            self._by_key[asset.asset_id.casefold()] = asset
            self._by_key[asset.equipment_id.casefold()] = asset

    def failure_codes_of_rule(self, rule_id: str) -> list[str]:
        """The failure codes the alert rule points at, each with its description ("CS007 Overactive Control
        Logic"), in the mapping's order; empty for a rule the mapping lacks."""
        return [f"{code} {text}".strip() for rule, code, text in self.rule_failure_codes
                if rule.casefold() == rule_id.casefold()]

    @property
    def site(self) -> str:
        """The site (this service runs one site per fleet); `DEFAULT_SITE` for an empty catalog."""
        return self.sites[0] if self.sites else DEFAULT_SITE

    @cached_property
    def zone(self) -> ZoneInfo:
        """The site's time zone."""
        return ZoneInfo(self.timezone)

    @property
    def asset_ids(self) -> tuple[str, ...]:
        """Every asset, telemetry chillers first."""
        return tuple(a.asset_id for a in self.assets)

    @property
    def telemetry_assets(self) -> tuple[str, ...]:
        """The assets that report telemetry."""
        return tuple(a.asset_id for a in self.assets if a.has_telemetry)

    @property
    def equipment_ids(self) -> dict[str, str]:
        """Asset name -> equipment id, for every asset."""
        return {a.asset_id: a.equipment_id for a in self.assets}

    def asset(self, name_or_equipment_id: str) -> AssetInfo | None:
        """The asset named `name_or_equipment_id` (an asset name or an equipment id, any case)."""
        return self._by_key.get(name_or_equipment_id.strip().casefold())

    def asset_id_of(self, name_or_equipment_id: str) -> str | None:
        """The canonical asset name for an asset name or equipment id; None when unknown."""
        asset = self.asset(name_or_equipment_id)
        return asset.asset_id if asset else None

    def equipment_id_of(self, name_or_equipment_id: str) -> str | None:
        """The equipment id of an asset (by name or equipment id); None when unknown."""
        asset = self.asset(name_or_equipment_id)
        return asset.equipment_id if asset else None

    def equipment_ids_of(self, asset_ids: list[str] | tuple[str, ...]) -> list[str]:
        """The equipment ids of the known assets among `asset_ids`, in order."""
        return [eid for eid in (self.equipment_id_of(a) for a in asset_ids) if eid]

    def is_known(self, asset_id: str) -> bool:
        """True for an asset of this fleet (name or equipment id)."""
        return self.asset(asset_id) is not None

    def has_telemetry(self, asset_id: str) -> bool:
        """True when the asset reports telemetry."""
        asset = self.asset(asset_id)
        return bool(asset and asset.has_telemetry)

    def sensors_of(self, asset_id: str) -> list[str]:
        """The bare sensor names the asset reports, alphabetical; empty for an unknown asset."""
        asset = self.asset(asset_id)
        return list(asset.sensors) if asset else []

    @property
    def first_day(self) -> date | None:
        """The site-local day of the first telemetry sample."""
        return self.telemetry_start.astimezone(self.zone).date() if self.telemetry_start else None

    @property
    def end_day(self) -> date | None:
        """The site-local day after the last telemetry sample (coverage is [first_day, end_day))."""
        return self.telemetry_end.astimezone(self.zone).date() + timedelta(days=1) if self.telemetry_end else None
