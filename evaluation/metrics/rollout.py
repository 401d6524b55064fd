"""The harness's automatic metrics from an event-stream rollout, exactly as ROLLOUT_FORMAT.md §2 defines them.

Tool-name validity (TNV), schema compliance (SC) against `../shared/contract/tools.json`, execution
success (ESR) and recovery success (RSR). A turn is scored with the plan-execute rules when any of its
events has role planner/executor, a `plan` dict, a `plan_kind` or a plan task type (§1.4), with the
supervisor-specialist rules otherwise. Corpus figures are micro-averages (TNV, SC, ESR) and a
dialog-level rate (RSR); a figure with an empty denominator is None ("n/a").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CONTRACT_FILE = Path(__file__).resolve().parents[2] / ".." / "shared" / "contract" / "tools.json"
PLAN_TASK_TYPES = frozenset({"plan_generation", "plan_execution", "replan_generation"})

Line = dict[str, Any]


def load_contract(path: Path = CONTRACT_FILE) -> dict[str, dict[str, Any]]:
    """The contract's tool schemas by server, then tool name."""
    return json.loads(path.read_text())["servers"]


def schema_error(args: Any, schema: dict[str, Any]) -> str | None:
    """The first schema violation of a legal call's args (§2.2), None when compliant."""
    if not isinstance(args, dict):
        args = {}
    props: dict[str, Any] = schema.get("properties", {})
    unknown = [k for k in args if k not in props]
    if unknown:
        return f"unknown key {unknown[0]}"
    for key in schema.get("required", []):
        if key not in args:
            return f"missing required {key}"
        if args[key] == "" and "string" in _types(props.get(key, {})):
            return f"empty required string {key}"
    for key, value in args.items():
        types = _types(props[key])
        if types and not any(_matches(value, t, props[key]) for t in types):
            return f"type mismatch {key}"
    return None


def _types(prop: dict[str, Any]) -> list[str]:
    if "type" in prop:
        return prop["type"] if isinstance(prop["type"], list) else [prop["type"]]
    return [t for option in prop.get("anyOf", []) for t in _types(option)]


def _matches(value: Any, type_: str, prop: dict[str, Any]) -> bool:
    if type_ == "null":
        return value is None
    if type_ == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if type_ == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if type_ == "array":
        item_types = _types(prop.get("items", {})) or [t for o in prop.get("anyOf", []) if o.get("type") == "array"
                                                      for t in _types(o.get("items", {}))]
        return isinstance(value, list) and all(not item_types or any(_matches(v, t, {}) for t in item_types)
                                               for v in value)
    expected = {"string": str, "boolean": bool, "object": dict}.get(type_)
    return expected is None or isinstance(value, expected)


def resolve_tool(name: str, server: str | None, contract: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """The schema a call's name resolves to (§2.1 lookup order), None when the tool is illegal."""
    if "." in name:
        srv, tool = name.split(".", 1)
        return contract.get(srv, {}).get(tool)
    if server:
        return contract.get(server, {}).get(name)
    found = [tools[name] for tools in contract.values() if name in tools]
    return found[0] if len(found) == 1 else None


def status_ok(status: Any) -> bool:
    """ok/success/missing/empty is OK; any other string is a failure (§1.2)."""
    return status in (None, "", "ok", "success")


def _calls(event: Line) -> list[dict[str, Any]]:
    return [c for c in event.get("tool_calls") or [] if isinstance(c, dict)]


def _has_answer(events: list[Line]) -> bool:
    answers = [e for e in events if e.get("task_type") == "final_response"]
    return bool(answers) and status_ok(answers[-1].get("status")) and bool(str(answers[-1].get("final_response")
                                                                                 or "").strip())


def is_plan_execute_turn(events: list[Line]) -> bool:
    """Whether a turn uses the plan-execute rules (§1.4: decided per turn)."""
    return any(str(e.get("agent_role", "")).lower() in ("planner", "executor") or isinstance(e.get("plan"), dict)
               or e.get("plan_kind") is not None or e.get("task_type") in PLAN_TASK_TYPES for e in events)


def _supervisor_turn(events: list[Line]) -> tuple[bool, bool]:
    """(recovery triggered, turn succeeded) of a supervisor-specialist turn (§2.4): repair per role."""
    actions: dict[str, list[bool]] = {}
    triggered = False
    for event in events:
        if event.get("task_type") == "final_response":
            continue
        role_actions = actions.setdefault(str(event.get("agent_role")), [])
        if not status_ok(event.get("status")):
            role_actions.append(False)
            triggered = True
        for call in _calls(event):
            role_actions.append(status_ok(call.get("status")))
            triggered = triggered or not status_ok(call.get("status"))
    if not triggered:
        return False, _has_answer(events)
    recovered = all(any(acts[len(acts) - acts[::-1].index(False):]) for acts in actions.values() if False in acts)
    return True, recovered and _has_answer(events)


def _is_replan(event: Line) -> bool:
    return "replan" in str(event.get("task_type") or "") or event.get("plan_kind") == "replan"


def _is_execution(event: Line) -> bool:
    task_type = str(event.get("task_type") or "")
    return str(event.get("agent_role", "")).lower() == "executor" or "execute" in task_type or "execution" in task_type


def _plan_execute_turn(events: list[Line]) -> tuple[bool, bool]:
    """(recovery triggered, turn succeeded) of a plan-execute turn (§2.4): a failed call, then a replan,
    then an OK execution event with no failed call and at least one OK call."""
    failed_at = [i for i, e in enumerate(events) if any(not status_ok(c.get("status")) for c in _calls(e))]
    if not failed_at:
        return False, _has_answer(events)
    after = events[failed_at[-1] + 1:]
    replan = next((i for i, e in enumerate(after) if _is_replan(e)), None)
    recovered = replan is not None and any(
        _is_execution(e) and status_ok(e.get("status")) and _calls(e)
        and all(status_ok(c.get("status")) for c in _calls(e)) for e in after[replan + 1:])
    return True, recovered and _has_answer(events)


def turn_outcome(events: list[Line]) -> tuple[bool, bool]:
    """(recovery triggered, turn succeeded) of one turn, with the rules of its mode."""
    return _plan_execute_turn(events) if is_plan_execute_turn(events) else _supervisor_turn(events)


def group_turns(lines: list[Line]) -> list[list[Line]]:
    """Events grouped by exact `turn_id` (missing = turn_001), groups in lexicographic order, file order kept."""
    turns: dict[str, list[Line]] = {}
    for line in lines:
        turns.setdefault(str(line.get("turn_id", "turn_001")), []).append(line)
    return [turns[t] for t in sorted(turns)]


def harness_metrics(lines: list[Line], contract: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Raw counts of one dialog's rollout: calls, legal, schema_ok, exec_ok, recovery_triggered, last_ok."""
    calls = [c for line in lines for c in _calls(line)]
    legal = [(c, s) for c in calls if (s := resolve_tool(str(c.get("tool_name") or "unknown"), c.get("server"),
                                                          contract)) is not None]
    errors = [err for c, s in legal if (err := schema_error(c.get("args"), s))]
    outcomes = [turn_outcome(turn) for turn in group_turns(lines)]
    return {"calls": len(calls), "legal": len(legal), "schema_ok": len(legal) - len(errors),
            "exec_ok": sum(status_ok(c.get("status")) for c in calls), "schema_errors": errors,
            "recovery_triggered": any(t for t, _ in outcomes), "last_ok": bool(outcomes) and outcomes[-1][1]}


def ratio(num: float, den: float) -> float | None:
    """num/den, None when the denominator is 0 (the harness prints n/a)."""
    return num / den if den else None


def corpus_harness(per_dialog: list[dict[str, Any]]) -> dict[str, float | None]:
    """Corpus TNV/SC/ESR (micro-averages) and RSR (dialog-level), None where undefined."""
    recovered = [d for d in per_dialog if d["recovery_triggered"]]
    return {"TNV": ratio(sum(d["legal"] for d in per_dialog), sum(d["calls"] for d in per_dialog)),
            "SC": ratio(sum(d["schema_ok"] for d in per_dialog), sum(d["legal"] for d in per_dialog)),
            "ESR": ratio(sum(d["exec_ok"] for d in per_dialog), sum(d["calls"] for d in per_dialog)),
            "RSR": ratio(sum(d["last_ok"] for d in recovered), len(recovered))}
