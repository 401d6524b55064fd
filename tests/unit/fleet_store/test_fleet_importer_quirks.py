"""The importer tolerates the quirks of real files: BOM, m/d/y dates, TRUE/FALSE, empty cells,
trailing commas, naive and offset timestamps, unknown sensors."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from fleet.importer import AssetOpsBenchImportError, read_assetopsbench


def _write(folder: Path, name: str, text: str, *, bom: bool = False) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.replace("\n", "\r\n").encode())


def test_csv_quirks_are_normalised(tmp_path: Path) -> None:
    _write(tmp_path, "all_wo_with_code_component_events.csv",
           "wo_id,wo_description,equipment_id,equipment_name,preventive,work_priority,actual_finish\n"
           "WO1,,CWC04009,Chiller 9,TRUE,5,4/6/16 14:00\n"
           "WO2,Leak,CWC04009,Chiller 9,false,,12/31/2019 7:05\n", bom=True)
    _write(tmp_path, "alert_rule.csv", "rule_id,rule_name,rule_logic\nRUL0012,Chiller - A,,\nRUL0013,Chiller - B,,\n")
    data = read_assetopsbench(tmp_path)
    orders = data.work_orders
    assert orders["wo_id"].tolist() == ["WO1", "WO2"]  # BOM gone from the first header
    assert orders["wo_description"].tolist() == [None, "Leak"]
    assert orders["preventive"].tolist() == [True, False]
    assert orders["work_priority"].isna().tolist() == [False, True]
    assert orders["actual_finish"].tolist() == [pd.Timestamp("2016-04-06 14:00"), pd.Timestamp("2019-12-31 07:05")]
    assert data.alert_rules["rule_id"].tolist() == ["RUL0012", "RUL0013"]
    assert data.alert_rules["rule_logic"].isna().all()
    assert data.telemetry is None and data.events is None and data.assets is None


def test_unreadable_values_become_notes_and_incomplete_rows_are_dropped(tmp_path: Path) -> None:
    _write(tmp_path, "event.csv",
           "event_id,event_group,event_category,equipment_id,event_time\n"
           "E1,ALERT,ALERT,CWC04009,2020-01-02 03:04:05\n"
           "E2,ALERT,ALERT,CWC04009,yesterday\n")
    data = read_assetopsbench(tmp_path)
    assert data.events["event_id"].tolist() == ["E1"]
    notes = json.loads(data.meta["import_notes"])
    assert any("'yesterday'" in n for n in notes) and any("1 rows lack" in n for n in notes)


def test_telemetry_lines_with_offsets_naive_times_and_unknown_sensors(tmp_path: Path) -> None:
    docs = [
        {"asset_id": "Chiller 9", "timestamp": "2020-11-01T01:30:00", "Chiller 9 Tonnage": 100.0},
        {"asset_id": "Chiller 9", "timestamp": "2020-11-01T01:30:00", "Chiller 9 Tonnage": 101.0},
        {"asset_id": "Chiller 9", "timestamp": "2021-05-20T14:43:27.589000-04:00", "Chiller 9 Tonnage": 5.0,
         "Chiller 9 Vibration": 0.2},
    ]
    (tmp_path / "iot.jsonl").write_text("\n".join(json.dumps(d) for d in docs))
    data = read_assetopsbench(tmp_path)
    telemetry = data.telemetry
    # The repeated autumn hour: first EDT (-04:00), then EST (-05:00).
    assert telemetry["ts"].tolist() == [pd.Timestamp("2020-11-01 05:30", tz="UTC"),
                                        pd.Timestamp("2020-11-01 06:30", tz="UTC"),
                                        pd.Timestamp("2021-05-20 18:43:27.589", tz="UTC")]
    assert telemetry["utc_offset_min"].tolist() == [-240, -300, -240]
    assert telemetry["tonnage"].tolist() == [100.0, 101.0, 5.0]
    notes = json.loads(data.meta["import_notes"])
    assert any("'Chiller 9 Vibration'" in n for n in notes)
    assert "(2 samples)" in json.loads(data.meta["assumptions"])[0]
    assert data.asset_sensors["sensor_name"].tolist() == ["Chiller 9 Tonnage"]
    assert data.assets.set_index("asset_id").loc["Chiller 9", "equipment_id"] == "CWC04009"


def test_folder_without_known_files_is_refused(tmp_path: Path) -> None:
    (tmp_path / "readme.txt").write_text("nothing here")
    with pytest.raises(AssetOpsBenchImportError, match="holds no AssetOpsBench file"):
        read_assetopsbench(tmp_path)
    with pytest.raises(AssetOpsBenchImportError, match="is not a directory"):
        read_assetopsbench(tmp_path / "missing")
