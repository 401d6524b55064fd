"""Forecast and sensor wording people can read: no "flat from 0.00 to 0.00", no repeated asset names."""

from specialists.common.frames import spoken_name
from specialists.timeseries.forecast import forecast_line


def _summary(first: float, last: float, low: float, high: float, direction: str) -> dict[str, object]:
    return {"first": first, "last": last, "min": low, "max": high, "mean": (low + high) / 2,
            "direction": direction}


def test_all_zero_forecast_says_the_chiller_stays_off() -> None:
    line = forecast_line("Chiller 4 Power Input", _summary(0, 0, 0, 0, "flat"), "tomorrow")
    assert "0.00 to 0.00" not in line
    assert "expected to stay off" in line


def test_flat_forecast_gives_its_level() -> None:
    line = forecast_line("Chiller 4 Power Input", _summary(200.0, 201.0, 195.0, 210.0, "flat"), "tomorrow")
    assert line.startswith("Chiller 4 Power Input: flat around 202.50 (range 195.00-210.00)")


def test_rising_forecast_gives_first_and_last() -> None:
    line = forecast_line("Chiller 4 Tonnage", _summary(100.0, 300.0, 100.0, 300.0, "rising"), "tomorrow")
    assert "rising from 100.00 to 300.00" in line


def test_spoken_name_says_the_asset_once() -> None:
    assert spoken_name("Chiller 6 Chiller Efficiency", "Chiller 6") == "Chiller 6 efficiency"
    assert spoken_name("Power Input", "Chiller 9") == "Chiller 9 power input"
