"""AssetOpsBench `failure_mode.csv` (Equipment, Failure Mode, Degradation Mechanism, Influencing
Factors) to the `fmea` frame.

The file names the curated failure modes differently from what `fmsr.get_failure_modes` serves
("Condenser: Water side" + "Fouling on the water side" is "Condenser Water side fouling"), so the
rows that correspond to a curated mode are mapped to its served name and rank; detection, preventive
task and failure codes, which the file lacks, come from the curated knowledge for those rows.
"""

from __future__ import annotations

import pandas as pd

from fleet.knowledge import curated_failure_modes, fmea_entries

# (asset class, the file's "Failure Mode") -> rank in the curated list of that class.
CURATED_RANKS: dict[tuple[str, str], int] = {
    ("chiller", "Compressor Overheating"): 1,
    ("chiller", "Heat Exchangers: Fans"): 2,
    ("chiller", "Evaporator"): 3,
    ("chiller", "Condenser: Water side"): 4,
    ("chiller", "Condenser: Improper water flow rate"): 5,
    ("chiller", "Purge Unit"): 6,
    ("chiller", "Refrigerant Operated Control Valve"): 7,
    ("ahu", "Pressure Regulators"): 1,
    ("ahu", "Steam Heating Coils"): 2,
    ("ahu", "Belts or Sheaves"): 3,
    ("ahu", "Improper switch position"): 4,
    ("ahu", "Solenoid Valves"): 5,
}
FMEA_COLUMNS = ["asset_class", "failure_mode", "degradation_mechanism", "influencing_factors", "detection",
                "preventive_task", "primary_codes", "curated_rank"]


def fmea_from_failure_modes(raw: pd.DataFrame, notes: list[str]) -> pd.DataFrame:
    """The fmea frame for the rows of `failure_mode.csv` (read as text, empty cells None)."""
    expected = {"Equipment", "Failure Mode"}
    if not expected <= set(raw.columns):
        notes.append(f"failure_mode.csv: columns {sorted(expected)} expected, found {list(raw.columns)}; skipped")
        return pd.DataFrame(columns=FMEA_COLUMNS)
    knowledge = {(e.asset_class, e.failure_mode): e for e in fmea_entries()}
    rows = []
    for record in raw.to_dict("records"):
        if not record.get("Equipment") or not record.get("Failure Mode"):
            continue
        asset_class = str(record["Equipment"]).strip().lower()
        name = str(record["Failure Mode"]).strip()
        rank = CURATED_RANKS.get((asset_class, name))
        curated = curated_failure_modes(asset_class)
        served = curated[rank - 1] if rank is not None and rank <= len(curated) else name
        entry = knowledge.get((asset_class, served))
        rows.append({
            "asset_class": asset_class, "failure_mode": served,
            "degradation_mechanism": record.get("Degradation Mechanism"),
            "influencing_factors": record.get("Influencing Factors"),
            "detection": entry.detection if entry else None,
            "preventive_task": entry.preventive_task if entry else None,
            "primary_codes": list(entry.primary_codes) if entry else [],
            "curated_rank": rank,
        })
    frame = pd.DataFrame(rows, columns=FMEA_COLUMNS)
    frame["curated_rank"] = frame["curated_rank"].astype("Int64")
    return frame
