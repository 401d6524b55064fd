"""The plan-execute baseline: plan everything first, execute, summarise; no memory across turns.

Design (the honest way to compare architectures with everything else held equal):
- planner: the same planners as the supervisor (the offline `graph.planning.offline.plan_turn`, or
  the LLM decision in LLM mode) write the whole plan of the turn up front, but they are shown *no*
  artifacts of earlier turns, so nothing found before is reused; the dialog focus (which asset,
  which window) still carries over, as any chat history would;
- executor: runs the plan's steps (each a specialist action, which issues its tool calls through the
  same tool layer and contract) wave by wave in dependency order, without re-deciding after each
  result: follow-up work a successful step suggests is ignored; specialists see only this turn's
  artifacts and the tool memo is fresh every turn (`Deps.cross_turn_memo=False`);
- replanning only on failure: when a step fails, the planner's plan is folded once more (retry of
  the failed step, the missing evidence it named) and a `replan` decision is emitted;
- summariser: the same respond node as the supervisor (offline composition, or LLM synthesis).

The plan is a flat list of specialist steps rather than of raw tool calls: which calls a step needs
depends on the data it finds (45-day chunks, covering windows), which no up-front planner can know,
and writing that logic twice would compare two implementations instead of two architectures. The
turn emits the same typed events (graph/events.py); `baselines.plan_execute.rollout` writes its
rollout with the planner / executor / summarizer roles of ROLLOUT_FORMAT.md §1.4.
"""

ARCH = "plan-execute"
