"""Scenario generation from a hand-written fault schedule: concurrent faults travel to the scorer."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

from evaluation.scenarios import Episode, scenario_suite, to_yaml
from evaluation.suite import load_suite

EVAP, PURGE, FLOW = "Evaporator Water side fouling", "Purge Unit Excessive purge", "Condenser Improper water side flow rate"


def _at(day: str) -> datetime:
    return datetime.fromisoformat(day).replace(hour=16, tzinfo=UTC)


SCHEDULE = [
    Episode("EF", "Chiller 9", "evaporator_fouling", EVAP, _at("2016-05-10"), _at("2016-08-10"), _at("2016-09-08")),
    Episode("RL", "Chiller 9", "refrigerant_loss", PURGE, _at("2016-06-05"), _at("2016-08-25"), _at("2016-09-08")),
    Episode("CW", "Chiller 6", "condenser_flow", FLOW, _at("2016-08-03"), _at("2016-08-03"), _at("2016-08-24")),
]


def test_overlapping_episodes_of_one_chiller_list_each_other(tmp_path: Path) -> None:
    coverage = {"Chiller 9": (date(2016, 1, 1), date(2016, 12, 31)), "Chiller 6": (date(2016, 1, 1), date(2016, 12, 31))}
    suite = scenario_suite(SCHEDULE, coverage, [EVAP], controls=0)
    by_mode = {d["expect_failure_mode"]: d for d in suite["dialogs"]}
    assert by_mode[EVAP]["also_active"] == [PURGE]  # the refrigerant loss began in June
    assert by_mode[PURGE]["also_active"] == [EVAP]  # the fouling is repaired only in September
    assert "also_active" not in by_mode[FLOW]  # another chiller's fault does not count
    path = tmp_path / "scenarios.yaml"
    path.write_text(to_yaml(suite))
    loaded = load_suite(str(path))
    expectations = {e.failure_mode: e for e in loaded.diagnosis.values()}
    assert expectations[EVAP].also_active == (PURGE,) and expectations[FLOW].also_active == ()
    assert {EVAP, PURGE, FLOW} <= set(loaded.failure_modes)


def test_an_episode_repaired_before_the_date_is_not_active() -> None:
    early = Episode("X", "Chiller 9", "trip", "Control Panel: Electrical failure (safety trip)",
                    _at("2016-03-01"), _at("2016-03-01"), _at("2016-03-10"))
    suite = scenario_suite([SCHEDULE[0], early], {"Chiller 9": (date(2016, 1, 1), date(2016, 12, 31))}, [], controls=0)
    assert "also_active" not in next(d for d in suite["dialogs"] if d["expect_failure_mode"] == EVAP)
