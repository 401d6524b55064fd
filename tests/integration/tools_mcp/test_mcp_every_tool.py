"""An MCP client lists all 26 contract tools of `assetops mcp serve all` (stdio) and calls every one successfully.

One server subprocess on a small generated fleet (Chiller 9, June 2021) with a tiny trained TTM as
`ttm_96_28`; the calls run once, in an order where later tools consume what earlier ones wrote
(history_csv -> csv_stats / forecasting / tsad / finetuning; forecast JSON -> run_tsad / json_reader).
Each tool then gets its own test so a failure names the tool.
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from assetops.db import migrate
from assetops.settings import Settings
from fleet.loader import load_fleet
from fleet.synthetic import generate_fleet, small_config
from tests.conftest import require_shared
from tests.integration.tools_mcp.conftest import ASSETOPS, REPO_ROOT
from tests.unit.timeseries.fixtures import tiny_checkpoint
from tools.framework import contract_view

pytestmark = pytest.mark.integration
__all__ = ["tiny_checkpoint"]  # the session's tiny TTM, shared with other tests that need it

EQUIPMENT = "CWC04009"
CHILLER = "Chiller 9"
TARGET = f"{CHILLER} Supply Temperature"
TSFM_DATA = {"timestamp_column": "timestamp", "target_columns": [TARGET]}

# TOOL_CONTRACT.md §1, "success output keys" (json_reader returns the parsed file itself).
WO_RANGE = ["equipment_id", "start_date", "end_date"]
OUTPUT_KEYS: dict[str, list[str]] = {
    "sites": ["sites"],
    "assets": ["site_name", "total_assets", "assets", "message"],
    "sensors": ["site_name", "asset_id", "total_sensors", "sensors", "message"],
    "history": ["site_name", "asset_id", "total_observations", "start", "final", "observations", "message"],
    "history_csv": ["site_name", "asset_id", "total_observations", "start", "final", "columns", "csv_path", "message"],
    "json_reader": [],
    "current_date_time": ["currentDateTime", "currentDateTimeDescription"],
    "current_time_english": ["english", "iso"],
    "csv_stats": ["csv_path", "all_columns", "stats"],
    "get_failure_modes": ["asset_name", "failure_modes"],
    "get_failure_mode_sensor_mapping": ["metadata", "fm2sensor", "sensor2fm", "full_relevancy"],
    "get_ai_tasks": ["tasks"],
    "get_tsfm_models": ["models"],
    "run_tsfm_forecasting": ["status", "results_file", "dataquality_summary", "message"],
    "run_tsfm_finetuning": ["status", "model_checkpoint", "results_file", "message"],
    "run_tsad": ["status", "results_file", "total_records", "anomaly_count", "columns", "message"],
    "run_integrated_tsad": ["status", "results_file", "total_records", "anomaly_count", "columns", "message"],
    "get_work_orders": [*WO_RANGE, "total", "work_orders", "message"],
    "get_preventive_work_orders": [*WO_RANGE, "total", "work_orders", "message"],
    "get_corrective_work_orders": [*WO_RANGE, "total", "work_orders", "message"],
    "get_events": [*WO_RANGE, "total", "events", "message"],
    "get_failure_codes": ["total", "failure_codes"],
    "get_work_order_distribution": [*WO_RANGE, "total_work_orders", "distribution", "message"],
    "predict_next_work_order": [*WO_RANGE, "last_work_order_type", "predictions", "message"],
    "get_alert_rules": ["equipment_id", "total", "rules", "message"],
    "analyze_alert_to_failure": ["equipment_id", "rule_id", "start_date", "end_date", "total_alerts_analyzed",
                                 "transitions", "message"],
}


@dataclass
class Called:
    """One tool call over MCP: what was sent and what came back (text parsed as JSON when possible)."""

    args: dict[str, Any]
    is_error: bool
    text: str
    output: Any


@dataclass
class Session:
    """What one client session against `assetops mcp serve all` saw."""

    work_dir: Path
    listed: dict[str, dict[str, Any]]
    calls: dict[str, Called]


def _fleet_settings(root: Path, models_dir: Path) -> Settings:
    """Offline settings over a SQLite file in `root` holding a three-week Chiller 9 fleet."""
    settings = Settings(data_dir=root, work_dir=root / "work", models_dir=models_dir,
                        database_url=f"sqlite:///{root / 'assetops.db'}", redis_url="", llm_base_url="", llm_model="")
    settings.ensure_dirs()
    migrate.upgrade(settings)
    load_fleet(settings, generate_fleet(small_config("2021-06-01", "2021-06-21", assets=(CHILLER,))))
    return settings


def _server_env(settings: Settings) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith("ASSETOPS_")},
        "ASSETOPS_DATA_DIR": str(settings.data_dir),
        "ASSETOPS_WORK_DIR": str(settings.work_dir),
        "ASSETOPS_MODELS_DIR": str(settings.models_dir),
        "ASSETOPS_DATABASE_URL": settings.database_url,
        "ASSETOPS_REDIS_URL": "",
        "ASSETOPS_LLM_BASE_URL": "",
        "ASSETOPS_LLM_MODEL": "",
        "PYTHONPATH": str(REPO_ROOT),
    }


class Caller:
    """Calls tools on an open client and records each call by tool name."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.calls: dict[str, Called] = {}

    async def __call__(self, name: str, args: dict[str, Any]) -> Any:
        result = await self.client.call_tool(name, args)
        text = result.content[0].text if result.content else ""
        try:
            output: Any = json.loads(text)
        except json.JSONDecodeError:
            output = None
        self.calls[name] = Called(args, result.is_error is True, text, output)
        return output if isinstance(output, dict) else {}


async def _call_iot_and_utilities(call: Caller) -> dict[str, Any]:
    await call("sites", {})
    await call("assets", {"site_name": "MAIN"})
    await call("sensors", {"site_name": "MAIN", "asset_id": CHILLER})
    await call("history", {"site_name": "MAIN", "asset_id": CHILLER, "start": "2021-06-02", "final": "2021-06-03"})
    # All three weeks: fine-tuning needs continuous segments of ~3 days, which one week does not have.
    history = await call("history_csv", {"site_name": "MAIN", "asset_id": CHILLER, "start": "2021-06-01",
                                         "final": "2021-06-22"})
    await call("current_date_time", {})
    await call("current_time_english", {})
    await call("csv_stats", {"csv_path": history.get("csv_path", "missing.csv"), "columns": [TARGET]})
    return history


async def _call_fmsr(call: Caller) -> None:
    modes = await call("get_failure_modes", {"asset_name": "Chiller"})
    sensors = (call.calls["sensors"].output or {}).get("sensors", [TARGET])
    await call("get_failure_mode_sensor_mapping", {"asset_name": "Chiller",
                                                   "failure_modes": modes.get("failure_modes", [])[:2],
                                                   "sensors": sensors[:3]})


async def _call_tsfm(call: Caller, csv_path: str) -> None:
    await call("get_ai_tasks", {})
    await call("get_tsfm_models", {})
    data = {"dataset_path": csv_path, **TSFM_DATA}
    forecast = await call("run_tsfm_forecasting", {**data, "include_dataquality_summary": True})
    forecast_json = forecast.get("results_file", "missing.json")
    await call("json_reader", {"file_name": forecast_json})
    await call("run_tsad", {**data, "tsfm_output_json": forecast_json})
    await call("run_integrated_tsad", data)
    await call("run_tsfm_finetuning", {**data, "n_finetune": 0.2, "n_test": 0.1})


async def _call_wo(call: Caller) -> None:
    wide = {"equipment_id": EQUIPMENT, "start_date": "2020-01-01", "end_date": "2023-01-01"}
    await call("get_work_orders", wide)
    await call("get_preventive_work_orders", wide)
    await call("get_corrective_work_orders", wide)
    await call("get_events", {"equipment_id": EQUIPMENT, "start_date": "2021-06-01", "end_date": "2021-06-22"})
    await call("get_failure_codes", {})
    await call("get_work_order_distribution", wide)
    await call("predict_next_work_order", wide)
    rules = await call("get_alert_rules", {"equipment_id": EQUIPMENT})
    rule_ids = [r.get("rule_id") for r in rules.get("rules", []) if isinstance(r, dict)]
    await call("analyze_alert_to_failure", {"equipment_id": EQUIPMENT, "rule_id": rule_ids[0] if rule_ids else "RUL0018",
                                            "start_date": "2021-06-01", "end_date": "2021-06-22"})


async def _run_session(env: dict[str, str]) -> tuple[dict[str, dict[str, Any]], dict[str, Called]]:
    params = StdioServerParameters(command=ASSETOPS[0], args=[*ASSETOPS[1:], "mcp", "serve", "all"],
                                   env=env, cwd=str(REPO_ROOT))
    async with Client(params, read_timeout_seconds=180) as client:
        listed = {t.name: t.input_schema for t in (await client.list_tools()).tools}
        call = Caller(client)
        history = await _call_iot_and_utilities(call)
        await _call_fmsr(call)
        await _call_tsfm(call, history.get("csv_path", "missing.csv"))
        await _call_wo(call)
    return listed, call.calls


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory, tiny_checkpoint: Path) -> Session:
    """One `assetops mcp serve all` subprocess, listed once and every tool called once, in order."""
    root = tmp_path_factory.mktemp("mcp_every_tool")
    models = root / "models"
    models.mkdir()
    (models / "ttm_96_28").symlink_to(tiny_checkpoint, target_is_directory=True)
    settings = _fleet_settings(root, models)
    # A sync module fixture runs outside the tests' event loop, so the client gets its own loop here.
    listed, calls = asyncio.run(_run_session(_server_env(settings)))
    return Session(settings.work_dir, listed, calls)


def test_listing_gives_exactly_the_26_contract_tools_with_their_schemas(session: Session) -> None:
    contract = {tool: entry for tools in json.loads(require_shared("contract/tools.json").read_text())["servers"].values()
                for tool, entry in tools.items()}
    assert len(contract) == 26
    assert set(session.listed) == set(contract)
    for name, schema in session.listed.items():
        view = contract_view(schema)
        assert {"required": view.get("required", []), "properties": view.get("properties", {})} == contract[name], name


def test_every_listed_tool_was_called(session: Session) -> None:
    assert set(session.calls) == set(session.listed) == set(OUTPUT_KEYS)


@pytest.mark.parametrize("tool", sorted(OUTPUT_KEYS))
def test_tool_call_over_mcp_succeeds_with_the_contract_keys(session: Session, tool: str) -> None:
    called = session.calls.get(tool)
    assert called is not None, f"{tool} was not called"
    assert not called.is_error, f"{tool}({called.args}) -> isError: {called.text[:500]}"
    assert called.output is not None, f"{tool} returned non-JSON text: {called.text[:500]}"
    if isinstance(called.output, dict):
        assert "error" not in called.output, f"{tool}({called.args}) -> {called.output['error']}"
        missing = [key for key in OUTPUT_KEYS[tool] if key not in called.output]
        assert not missing, f"{tool} lacks {missing}"


def test_tsfm_results_and_history_csv_live_in_the_work_dir(session: Session) -> None:
    csv_path = Path(session.calls["history_csv"].output["csv_path"])
    assert csv_path.is_relative_to(session.work_dir) and csv_path.is_file()
    for tool in ("run_tsfm_forecasting", "run_tsad", "run_integrated_tsad", "run_tsfm_finetuning"):
        assert Path(session.calls[tool].output["results_file"]).is_relative_to(session.work_dir), tool


def test_json_reader_returns_the_forecast_file_as_written(session: Session) -> None:
    forecast_file = Path(session.calls["run_tsfm_forecasting"].output["results_file"])
    assert session.calls["json_reader"].output == json.loads(forecast_file.read_text())


def test_chained_calls_found_data(session: Session) -> None:
    """The arguments picked exist in the fleet: non-empty rows, stats for the target, relevance for the pairs."""
    assert session.calls["history_csv"].output["total_observations"] > 96 + 28
    assert TARGET in session.calls["csv_stats"].output["stats"]
    assert session.calls["get_failure_mode_sensor_mapping"].output["full_relevancy"]
    assert session.calls["get_work_orders"].output["total"] > 0
    assert session.calls["analyze_alert_to_failure"].output["total_alerts_analyzed"] > 0
