"""The fast CSV/JSON rendering of telemetry windows is byte-identical to the reference renderings."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from assetops.db.tables import SENSOR_COLUMNS
from tests.support.catalog import default_catalog
from tests.unit.tools_iot.small_fleet import SITE_ZONE, SmallFleet
from tools.framework import ToolContext, call_tool
from tools.iot_shapes import ContractWindow, as_table, csv_text, window_csv_text

C9 = {"site_name": "MAIN", "asset_id": "Chiller 9"}


def _random_values(rows: int, seed: int, with_infinity: bool) -> np.ndarray:
    """Floats of every kind the renderer must get right: 17-digit fractions across magnitudes,
    integers, zeros of both signs, values around both notation switches, subnormals, gaps and
    (optionally) infinities."""
    rng = np.random.default_rng(seed)
    exponents = rng.integers(-12, 20, size=(rows, 6)).astype(float)
    values = rng.random((rows, 6)) * 10.0 ** exponents * rng.choice([-1.0, 1.0], size=(rows, 6))
    values[:, 1] = np.round(values[:, 1])
    special = [0.0, -0.0, 1e-4, 9.999999999999999e-05, 1e16, 9999999999999998.0, 5e-324, np.nan]
    special += [np.inf, -np.inf] if with_infinity else []
    values[: len(special), 2] = special
    values[rng.random((rows, 6)) < 0.1] = np.nan
    return values


def _window(values: np.ndarray, asset_id: str = "Chiller 9") -> ContractWindow:
    stamps = [f"2020-06-01T00:{i % 60:02d}:00-04:00" for i in range(len(values))]
    names = [f"{asset_id} Sensor {j}" for j in range(values.shape[1])]
    return ContractWindow(asset_id=asset_id, timestamps=stamps, sensor_names=names, values=values)


def _pandas_csv(window: ContractWindow) -> str:
    frame = pd.DataFrame({"timestamp": window.timestamps, "asset_id": window.asset_id})
    for j, name in enumerate(window.sensor_names):
        frame[name] = window.values[:, j]
    return frame.to_csv(index=False)


@pytest.mark.parametrize("with_infinity", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_window_csv_text_equals_pandas_to_csv_for_all_kinds_of_floats(seed: int, with_infinity: bool) -> None:
    window = _window(_random_values(400, seed, with_infinity))
    assert window_csv_text(window) == _pandas_csv(window) == csv_text(as_table(window))


def test_window_csv_text_takes_the_matrix_path_for_ordinary_values_and_still_matches() -> None:
    # Only values whose notation orjson shares with repr: the fast path renders all of them.
    rng = np.random.default_rng(7)
    values = (1.0 + rng.random((300, 5))) * 10.0 ** rng.integers(-3, 15, size=(300, 5))
    values[rng.random((300, 5)) < 0.2] = np.nan
    window = _window(values)
    assert window_csv_text(window) == _pandas_csv(window)


@pytest.mark.parametrize("edge", [1.5e-05, 9.999999999999999e-05, 1e16, 1.2345e17, -3.25e-07])
def test_window_csv_text_matches_around_the_notation_switches(edge: float) -> None:
    # One value beyond a switch among ordinary ones: orjson would print it differently from repr.
    values = np.array([[1e-4, 123.456, edge], [0.00012345678901234567, 9999999999999998.0, np.nan]])
    window = _window(values)
    assert window_csv_text(window) == _pandas_csv(window)


def test_window_csv_text_quotes_names_that_need_it() -> None:
    window = _window(np.array([[1.5, 2.25]]), asset_id='Chiller "A", east')
    assert window_csv_text(window) == _pandas_csv(window)


def _expected_csv(fleet: SmallFleet, asset_id: str, start: pd.Timestamp, final: pd.Timestamp) -> str:
    """The contract CSV computed straight from the loaded telemetry frame with pandas."""
    rows = fleet.telemetry[fleet.telemetry["asset_id"] == asset_id]
    local = rows["ts"].dt.tz_convert(SITE_ZONE)
    moments = local if start.tzinfo is not None else local.dt.tz_localize(None)
    rows, local = rows[(moments >= start) & (moments < final)], local[(moments >= start) & (moments < final)]
    frame = pd.DataFrame({"timestamp": [t.isoformat() for t in local], "asset_id": asset_id})
    for sensor in default_catalog().sensors_of(asset_id):
        column = SENSOR_COLUMNS[sensor]
        if column in rows and rows[column].notna().any():
            frame[f"{asset_id} {sensor}"] = rows[column].to_numpy()
    return frame.to_csv(index=False)


@pytest.mark.parametrize(
    ("start", "final"),
    [
        ("2020-06-01", "2020-06-03"),  # plain local window
        ("2020-06-10T14:00:00", "2020-06-10T16:00:00"),  # holds the off-grid sample with microseconds
        ("2020-11-01T00:00:00-04:00", "2020-11-01T03:00:00-05:00"),  # aware bounds across the DST change
    ],
)
async def test_history_csv_file_is_byte_identical_to_pandas_on_the_stored_rows(
    ctx: ToolContext, small_fleet: SmallFleet, start: str, final: str
) -> None:
    out = (await call_tool("iot.history_csv", {**C9, "start": start, "final": final}, context=ctx)).output
    expected = _expected_csv(small_fleet, "Chiller 9", pd.Timestamp(start), pd.Timestamp(final))
    assert Path(out["csv_path"]).read_text(encoding="utf-8") == expected


async def test_history_output_is_exactly_its_own_json_round_trip(ctx: ToolContext) -> None:
    args = {"site_name": "MAIN", "asset_id": "Chiller 6", "start": "2020-06-01", "final": "2020-06-02"}
    first = await call_tool("iot.history", args, context=ctx)
    hit = await call_tool("iot.history", args, context=ctx)
    assert first.output == json.loads(json.dumps(first.output))
    assert isinstance(first.output["observations"], list) and len(first.output["observations"]) == 96
    assert hit.cached is True and hit.output == first.output
