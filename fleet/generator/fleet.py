"""generate_fleet: the whole fault-injected MAIN-site fleet as FleetData."""

from __future__ import annotations

import pandas as pd

from assetops.db.tables.telemetry import SENSOR_COLUMNS, SENSOR_UNITS
from assetops.domain.catalog import TIMEZONE_META_KEY
from fleet.generator import knowledge_frames as kf
from fleet.generator.alerts import evaluate_alerts
from fleet.generator.anomalies import evaluate_anomalies
from fleet.generator.config import GENERATOR_VERSION, SITE_TIMEZONE, GeneratorConfig
from fleet.generator.events import unified_events
from fleet.generator.faults import episodes_frame, schedule_for
from fleet.generator.sensors import STATUS_REPORTERS
from fleet.generator.telemetry import simulate
from fleet.generator.work_orders import work_orders
from fleet.model import EQUIPMENT_IDS, SITE, FleetData, sensors_of


def assets_frame(config: GeneratorConfig) -> pd.DataFrame:
    """All eleven chillers; has_telemetry for the generated telemetry chillers."""
    rows = [{"asset_id": asset, "site": SITE, "equipment_id": equipment, "asset_class": "chiller",
             "has_telemetry": asset in config.assets} for asset, equipment in EQUIPMENT_IDS.items()]
    return pd.DataFrame(rows, columns=["asset_id", "site", "equipment_id", "asset_class", "has_telemetry"])


def asset_sensors_frame(config: GeneratorConfig) -> pd.DataFrame:
    """The ten sensors per telemetry chiller (full names), plus Run Status / Schedule where reported."""
    rows = []
    for asset in config.assets:
        names = sensors_of(asset) + (["Run Status", "Schedule"] if asset in STATUS_REPORTERS else [])
        rows += [{"asset_id": asset, "sensor_name": f"{asset} {name}", "column_name": SENSOR_COLUMNS[name],
                  "unit": SENSOR_UNITS[name]} for name in names]
    return pd.DataFrame(rows, columns=["asset_id", "sensor_name", "column_name", "unit"])


def generate_fleet(config: GeneratorConfig | None = None) -> FleetData:
    """Generate every table of the fleet for `config` (default: seed DEFAULT_SEED, 2016-2021, four chillers)."""
    config = config or GeneratorConfig()
    episodes = schedule_for(config)
    simulated = simulate(config, episodes)
    config.report("alerts and anomalies", 0.7)
    alerts = evaluate_alerts(simulated.telemetry)
    anomalies = evaluate_anomalies(simulated.telemetry)
    config.report("work orders and events", 0.85)
    orders = work_orders(config, episodes)
    events = unified_events(orders, alerts, anomalies, config.seed)
    generated = [e for e in episodes if e.asset_id in config.assets]
    fleet = FleetData(
        source=f"generated:seed={config.seed}", assets=assets_frame(config),
        asset_sensors=asset_sensors_frame(config), telemetry=simulated.telemetry, work_orders=orders,
        events=events, alert_events=alerts, alert_rules=kf.alert_rule_frame(),
        alert_rule_fc_mapping=kf.alert_rule_mapping_frame(), anomaly_events=anomalies,
        anomaly_fc_mapping=kf.anomaly_mapping_frame(), failure_codes=kf.failure_code_frame(),
        primary_failure_codes=kf.primary_failure_code_frame(), fmea=kf.fmea_frame(),
        sensor_relevance=kf.sensor_relevance_frame(), fault_episodes=episodes_frame(generated),
        meta={"seed": str(config.seed), "start": config.start.isoformat(), "end": config.end.isoformat(),
              "generator_version": GENERATOR_VERSION, TIMEZONE_META_KEY: SITE_TIMEZONE, "assets": ",".join(config.assets),
              "work_orders_from": f"{config.work_order_years.start}-01-01",
              "work_orders_to": f"{config.work_order_years.stop - 1}-12-31"},
    )
    config.report("done", 1.0)
    return fleet
