"""The sensor plot: one panel per sensor, fault window, alerts and work orders marked, PNG written."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import matplotlib.pyplot as plt
import pytest

from assetops.settings import Settings
from fleet.loader import load_fleet
from fleet.plot import PlotError, build_figure, plot_asset, read_plot_data
from tests.support.catalog import default_catalog
from tests.unit.fleet_store.fleet_builders import plot_fleet

DAY = date(2020, 11, 1)


@pytest.fixture
def plotted_db(fleet_db: Settings) -> Settings:
    load_fleet(fleet_db, plot_fleet())
    return fleet_db


def test_plot_writes_a_png_with_one_panel_per_sensor(plotted_db: Settings, tmp_path: Path) -> None:
    data = read_plot_data(plotted_db, "Chiller 9", DAY, DAY)
    figure = build_figure(data)
    try:
        assert [axis.get_title(loc="left") for axis in figure.axes] == default_catalog().sensors_of("Chiller 9")
    finally:
        plt.close(figure)
    output = plot_asset(plotted_db, "Chiller 9", DAY, DAY, tmp_path / "out" / "c9.png", ["Tonnage"])
    assert output.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_marks_faults_alerts_and_work_orders(plotted_db: Settings) -> None:
    data = read_plot_data(plotted_db, "Chiller 9", DAY, DAY, ["Tonnage", "Chiller 9 Power Input"])
    assert data.sensors == ["Tonnage", "Power Input"]
    assert data.faults["failure_mode"].tolist() == ["Condenser Water side fouling"]
    assert len(data.alerts) == 2  # both alerts start on the local day
    assert data.work_orders["wo_id"].tolist() == ["WO1"]  # WO2 has no finish time; WO3 is Chiller 6
    figure = build_figure(data)
    try:
        assert len(figure.axes) == 2
        texts = [t.get_text() for t in figure.axes[0].texts]
        assert any("Condenser Water side fouling" in t for t in texts)
        legend = [t.get_text() for t in figure.legends[0].get_texts()]
        assert "alerts (2: RUL0018)" in legend
        assert "preventive work orders (1)" in legend and "corrective work orders (0)" in legend
    finally:
        plt.close(figure)


def test_plot_refuses_unknown_sensors_and_empty_windows(plotted_db: Settings, tmp_path: Path) -> None:
    with pytest.raises(PlotError, match="unknown sensor 'Vibration'"):
        read_plot_data(plotted_db, "Chiller 9", DAY, DAY, ["Vibration"])
    with pytest.raises(PlotError, match="no telemetry for Chiller 9 between 2019-01-01"):
        plot_asset(plotted_db, "Chiller 9", date(2019, 1, 1), date(2019, 1, 2), tmp_path / "empty.png")
