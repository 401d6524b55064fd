"""The fleet catalog read from the loaded tables: the generated fleet, an old database, an imported fleet."""

from __future__ import annotations

import csv
import json
from collections import Counter
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from sqlalchemy import delete

from assetops.db import migrate
from assetops.db.engine import Database
from assetops.db.tables import FleetMetaRow
from assetops.domain.catalog import DEFAULT_SITE_TIMEZONE, TIMEZONE_META_KEY, FleetCatalog
from assetops.domain.catalog_loader import load_catalog
from assetops.settings import Settings
from fleet.catalog import catalog_of, generated_catalog
from fleet.importer import read_assetopsbench
from fleet.loader import load_fleet
from fleet.synthetic import generate_fleet, small_config
from tests.support.catalog import default_catalog

SMALL = small_config("2021-06-01", "2021-06-10", assets=("Chiller 6", "Chiller 9"))


async def _catalog_of_db(settings: Settings) -> FleetCatalog:
    db = Database(settings)
    try:
        return await load_catalog(db)
    finally:
        await db.close()


async def test_a_loaded_generated_fleet_reads_back_as_its_config_describes_it(sqlite_settings: Settings) -> None:
    migrate.upgrade(sqlite_settings)
    data = generate_fleet(SMALL)
    load_fleet(sqlite_settings, data)
    catalog = await _catalog_of_db(sqlite_settings)
    assert catalog == generated_catalog(SMALL) == catalog_of(data)
    assert catalog.telemetry_assets == ("Chiller 6", "Chiller 9")
    assert catalog.first_day == date(2021, 6, 1) and catalog.end_day == date(2021, 6, 11)
    assert catalog.timezone == DEFAULT_SITE_TIMEZONE and catalog.site == "MAIN"
    assert "Run Status" not in catalog.sensors_of("Chiller 6")  # a status channel, listed apart
    assert catalog.asset("chiller 6") is not None and catalog.asset("chiller 6").status_channels
    # the alert rules by their names, read from the alert_rules table (rules are named by their words in chat)
    assert ("RUL0021", "Chiller - Excessive Power use in chiller that is off") in catalog.alert_rules
    # and the failure codes each rule points at, from alert_rule_fc_mapping ("which codes is that rule tied to?")
    assert catalog.failure_codes_of_rule("RUL0021") == ["E004 Starter Failure", "M011 Motor Failure"]


async def test_an_empty_database_gives_an_empty_catalog_and_an_old_one_the_default_zone(
        sqlite_settings: Settings) -> None:
    migrate.upgrade(sqlite_settings)
    empty = await _catalog_of_db(sqlite_settings)
    assert empty.assets == () and empty.telemetry_start is None and empty.first_day is None
    load_fleet(sqlite_settings, generate_fleet(SMALL))
    db = Database(sqlite_settings)
    async with db.session() as session:  # a database loaded before the zone was stored
        await session.execute(delete(FleetMetaRow).where(FleetMetaRow.key == TIMEZONE_META_KEY))
        await session.commit()
    await db.close()
    assert (await _catalog_of_db(sqlite_settings)).timezone == DEFAULT_SITE_TIMEZONE


def test_lookups_ignore_case_and_map_both_ways() -> None:
    catalog = default_catalog()
    assert catalog.asset_id_of("cwc04009") == "Chiller 9" and catalog.equipment_id_of("CHILLER 9") == "CWC04009"
    assert catalog.equipment_ids_of(["Chiller 4", "Chiller 99", "Chiller 1"]) == ["CWC04704", "CWC04701"]
    assert catalog.asset_ids[:4] == catalog.telemetry_assets == ("Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9")
    assert catalog.asset_ids[4:] == ("Chiller 1", "Chiller 2", "Chiller 7", "Chiller 10", "Chiller 12",
                                     "Chiller 13", "Chiller 14")
    assert catalog.has_telemetry("chiller 3") and not catalog.has_telemetry("Chiller 1")
    assert catalog.asset("Chiller 99") is None and catalog.sensors_of("Chiller 99") == []


async def test_an_imported_assetopsbench_fleet_is_described_as_its_files_say(
        sqlite_settings: Settings, assetopsbench_dir: Path) -> None:
    migrate.upgrade(sqlite_settings)
    load_fleet(sqlite_settings, read_assetopsbench(assetopsbench_dir))
    catalog = await _catalog_of_db(sqlite_settings)

    documents = json.loads((assetopsbench_dir / "chiller6_june2020_sensordata_couchdb.json").read_text())
    telemetry_assets = sorted({d["asset_id"] for d in documents})
    stamps = sorted(datetime.fromisoformat(d["timestamp"]) for d in documents)
    zone = ZoneInfo(DEFAULT_SITE_TIMEZONE)  # the files' naive times are site-local
    assert list(catalog.telemetry_assets) == telemetry_assets
    assert catalog.telemetry_start == stamps[0].replace(tzinfo=zone)
    assert catalog.telemetry_end == stamps[-1].replace(tzinfo=zone)
    assert (catalog.first_day, catalog.end_day) == (stamps[0].date(), date.fromordinal(stamps[-1].toordinal() + 1))

    sensors = {key.removeprefix(f"{d['asset_id']} ") for d in documents for key in d
               if key not in ("_id", "_rev", "asset_id", "timestamp")}
    assert set(catalog.sensors_of("Chiller 6")) == sensors - {"Run Status", "Schedule"}

    with (assetopsbench_dir / "all_wo_with_code_component_events.csv").open(newline="") as handle:
        pairs = Counter((row["equipment_name"], row["equipment_id"]) for row in csv.DictReader(handle))
    for (name, equipment_id), _ in pairs.most_common():
        if sum(1 for n, _e in pairs if n == name) == 1:  # a name the file gives one id
            assert catalog.equipment_id_of(name) == equipment_id
            assert catalog.asset_id_of(equipment_id.lower()) == name
    assert {name for name, _ in pairs} <= set(catalog.asset_ids)
