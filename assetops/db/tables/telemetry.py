"""The wide telemetry table: one row per asset and timestamp, one column per sensor kind.

Sensor names in the tool contract are "<asset> <sensor>", e.g. "Chiller 9 Supply Temperature".
The table stores the sensor part as a column; a sensor an asset does not have is NULL there
(Chiller 6 reports the condenser *return* temperature instead of the *supply* one).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Float, SmallInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from assetops.db.base import Base, UTCDateTime

# Sensor name (without the asset prefix) -> column of `telemetry`. The order is the alphabetical
# order of the contract's sensor names, which is the order `iot.sensors` returns.
SENSOR_COLUMNS: dict[str, str] = {
    "Chiller % Loaded": "pct_loaded",
    "Chiller Efficiency": "efficiency",
    "Condenser Water Flow": "condenser_water_flow",
    "Condenser Water Return To Tower Temperature": "condenser_return_temp",
    "Condenser Water Supply To Chiller Temperature": "condenser_supply_temp",
    "Liquid Refrigerant Evaporator Temperature": "refrigerant_evap_temp",
    "Power Input": "power_input",
    "Return Temperature": "return_temp",
    "Run Status": "run_status",
    "Schedule": "schedule",
    "Setpoint Temperature": "setpoint_temp",
    "Supply Temperature": "supply_temp",
    "Tonnage": "tonnage",
}

# Units per sensor, served with tool results (the contract allows extra keys such as units).
SENSOR_UNITS: dict[str, str] = {
    "Chiller % Loaded": "%",
    "Chiller Efficiency": "kW/ton",
    "Condenser Water Flow": "gpm",
    "Condenser Water Return To Tower Temperature": "degF",
    "Condenser Water Supply To Chiller Temperature": "degF",
    "Liquid Refrigerant Evaporator Temperature": "degF",
    "Power Input": "kW",
    "Return Temperature": "degF",
    "Run Status": "0/1",
    "Schedule": "0/1",
    "Setpoint Temperature": "degF",
    "Supply Temperature": "degF",
    "Tonnage": "tons",
}


class TelemetryRow(Base):
    """One sample of one asset. `ts` is UTC; `utc_offset_min` restores the site-local ISO string."""

    __tablename__ = "telemetry"

    asset_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    ts: Mapped[datetime] = mapped_column(UTCDateTime(), primary_key=True)
    utc_offset_min: Mapped[int] = mapped_column(SmallInteger, default=0)
    pct_loaded: Mapped[float | None] = mapped_column(Float, nullable=True)
    efficiency: Mapped[float | None] = mapped_column(Float, nullable=True)
    condenser_water_flow: Mapped[float | None] = mapped_column(Float, nullable=True)
    condenser_return_temp: Mapped[float | None] = mapped_column(Float, nullable=True)
    condenser_supply_temp: Mapped[float | None] = mapped_column(Float, nullable=True)
    refrigerant_evap_temp: Mapped[float | None] = mapped_column(Float, nullable=True)
    power_input: Mapped[float | None] = mapped_column(Float, nullable=True)
    return_temp: Mapped[float | None] = mapped_column(Float, nullable=True)
    run_status: Mapped[float | None] = mapped_column(Float, nullable=True)
    schedule: Mapped[float | None] = mapped_column(Float, nullable=True)
    setpoint_temp: Mapped[float | None] = mapped_column(Float, nullable=True)
    supply_temp: Mapped[float | None] = mapped_column(Float, nullable=True)
    tonnage: Mapped[float | None] = mapped_column(Float, nullable=True)
