"""LLM mode with scripted chat models: structured routing, contract-checked tool arguments, synthesis,
artifact reuse on the follow-up turn, and every model call recorded in the profile. No network."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from pydantic import Field

from assetops.profiling import Profile
from graph.deps import open_deps
from tests.integration.graph.graph_dialog_support import answer_of, of_type, turn_events
from tests.support.contract_check import call_problem, load_contract

FLEET = ("2021-05-01", "2021-05-31", ("Chiller 9",))
REF = date(2021, 6, 1)
USAGE = {"input_tokens": 120, "output_tokens": 30, "total_tokens": 150}


class ScriptedChatModel(GenericFakeChatModel):
    """Replies from a script; `bind_tools` records the tool schemas it was offered."""

    offered_tools: list[list[dict[str, Any]]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChatModel:
        self.offered_tools.append([t if isinstance(t, dict) else {"schema": str(t)} for t in tools])
        return self


def decision(kind: str, tasks: list[dict[str, Any]] | None = None, message: str = "") -> AIMessage:
    return AIMessage(content="", usage_metadata=USAGE, tool_calls=[{
        "name": "SupervisorDecision", "id": f"d-{kind}", "args": {"kind": kind, "tasks": tasks or [], "message": message,
                                                                   "intent": "history"}}])


def history_task(start: str, end: str) -> dict[str, Any]:
    return {"specialist": "data", "action": "history", "asset_ids": ["Chiller 9"], "window_start": start,
            "window_end": end, "goal": f"Chiller 9 telemetry {start[:10]}..{end[:10]}"}


def tool_calls(*calls: tuple[str, dict[str, Any]]) -> AIMessage:
    return AIMessage(content="", usage_metadata=USAGE,
                     tool_calls=[{"name": name, "args": args, "id": f"t{i}"} for i, (name, args) in enumerate(calls)])


async def test_llm_mode_routes_calls_tools_within_the_contract_and_reuses_on_follow_up(
        fleet_templates, tmp_path: Path) -> None:
    settings = fleet_templates.settings_for(*FLEET, tmp_path)
    valid = {"site_name": "MAIN", "asset_id": "Chiller 9", "start": "2021-05-03", "final": "2021-05-06"}
    model = ScriptedChatModel(messages=iter([
        decision("run", [history_task("2021-05-03T00:00:00-04:00", "2021-05-06T00:00:00-04:00")]),
        tool_calls(("history_csv", valid), ("history_csv", {**valid, "limit": 5})),
        AIMessage(content="Chiller 9 ran normally on 3-5 May 2021.", usage_metadata=USAGE),
        decision("run", [history_task("2021-05-04T00:00:00-04:00", "2021-05-05T00:00:00-04:00")]),
        AIMessage(content="On 4 May 2021 Chiller 9 ran normally.", usage_metadata=USAGE),
    ]))
    contract = load_contract()
    first_profile, second_profile = Profile(), Profile()
    async with open_deps(settings, llm=model) as deps:
        first = await turn_events(deps, "llm", "How did Chiller 9 run on 3-5 May?", REF, profile=first_profile)
        second = await turn_events(deps, "llm", "And on the 4th only?", REF, profile=second_profile)

    assert [t["action"] for t in of_type(first, "supervisor_decision")[0].data["tasks"]] == ["history"]
    executed = [e.data for e in of_type(first, "tool_call_finished")]
    assert [(c["name"], c["args"]) for c in executed if c["name"] == "iot.history_csv"] == [("iot.history_csv", valid)]
    assert all(call_problem(contract, c["name"], c["args"]) is None for c in executed)
    offered = next(tools[0]["function"] for tools in model.offered_tools if "function" in tools[0])
    assert offered["name"] == "history_csv"
    assert set(offered["parameters"]["properties"]) == set(contract["iot.history_csv"]["properties"])
    assert answer_of(first) == "Chiller 9 ran normally on 3-5 May 2021."
    assert [c.purpose for c in first_profile.llm_calls] == ["supervisor_decision", "data_tool_calls",
                                                            "answer_synthesis"]
    # Token counts come from the model's usage metadata (the scripted model reports none when streaming).
    assert all(c.prompt_tokens == 120 and c.completion_tokens == 30 for c in first_profile.llm_calls[:2])
    assert "".join(e.data["text"] for e in of_type(first, "partial_text")) == answer_of(first)  # streamed

    assert of_type(second, "tool_call_started") == []
    assert len(of_type(second, "artifact_reused")) == 1
    assert [c.purpose for c in second_profile.llm_calls] == ["supervisor_decision", "answer_synthesis"]
    assert answer_of(second) == "On 4 May 2021 Chiller 9 ran normally."


async def test_llm_mode_asks_when_the_model_decides_to_clarify(fleet_templates, tmp_path: Path) -> None:
    settings = fleet_templates.settings_for(*FLEET, tmp_path)
    model = ScriptedChatModel(messages=iter([decision("clarify", message="Which chiller do you mean?")]))
    async with open_deps(settings, llm=model) as deps:
        events = await turn_events(deps, "llm-ask", "check the chiller", REF)
    assert of_type(events, "specialist_started") == []
    assert answer_of(events) == "Which chiller do you mean?"


async def test_an_unusable_model_reply_falls_back_to_the_offline_planner(fleet_templates, tmp_path: Path) -> None:
    settings = fleet_templates.settings_for(*FLEET, tmp_path)
    model = ScriptedChatModel(messages=iter([AIMessage(content="I think you should check it."),
                                             AIMessage(content="No tools needed."),  # data: default plan is used
                                             AIMessage(content="Chiller 9 data for early May is summarised.")]))
    async with open_deps(settings, llm=model) as deps:
        events = await turn_events(deps, "llm-fallback", "Show Chiller 9 history for 3 May 2021", REF)
    assert of_type(events, "error")[0].data["recovered"] is True
    assert "data" in {e.specialist for e in of_type(events, "specialist_finished")}
    assert of_type(events, "tool_call_finished")[0].data["name"] == "iot.history_csv"
    assert answer_of(events) == "Chiller 9 data for early May is summarised."
