"""HTTP profiling as pure ASGI middleware (covers websockets too) and the Prometheus exposition.

Request-level figures live here; turn-level ones (LLM / tool / routing split, tokens, per-server tool
latency) are stored with each turn and read by the dashboard.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Message, Receive, Scope, Send

BUCKETS_MS = (5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000)


@dataclass
class Metrics:
    """Counters and latency histograms per (method, route, status)."""

    requests: dict[tuple[str, str, int], int] = field(default_factory=lambda: defaultdict(int))
    latency_sum_ms: dict[tuple[str, str], float] = field(default_factory=lambda: defaultdict(float))
    latency_buckets: dict[tuple[str, str], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0] * (len(BUCKETS_MS) + 1)))
    turns: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    tool_calls: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    tool_latency_ms: dict[str, float] = field(default_factory=lambda: defaultdict(float))

    def observe_request(self, method: str, route: str, status: int, latency_ms: float) -> None:
        self.requests[(method, route, status)] += 1
        self.latency_sum_ms[(method, route)] += latency_ms
        buckets = self.latency_buckets[(method, route)]
        for i, bound in enumerate(BUCKETS_MS):
            if latency_ms <= bound:
                buckets[i] += 1
        buckets[-1] += 1

    def observe_turn(self, status: str, tool_events: list[tuple[str, str, float]]) -> None:
        """Count a finished turn and its tool calls: (qualified tool, status, latency ms)."""
        self.turns[status] += 1
        for name, call_status, latency in tool_events:
            self.tool_calls[(name, call_status)] += 1
            self.tool_latency_ms[name.split(".")[0]] += latency

    def prometheus(self) -> str:
        """Prometheus text format."""
        out = ["# HELP assetops_http_requests_total HTTP requests by route and status.",
               "# TYPE assetops_http_requests_total counter"]
        for (method, route, status), n in sorted(self.requests.items()):
            out.append(f'assetops_http_requests_total{{method="{method}",route="{route}",status="{status}"}} {n}')
        out += ["# HELP assetops_http_request_duration_ms Request latency.",
                "# TYPE assetops_http_request_duration_ms histogram"]
        for (method, route), buckets in sorted(self.latency_buckets.items()):
            labels = f'method="{method}",route="{route}"'
            for bound, count in zip(BUCKETS_MS, buckets, strict=False):
                out.append(f'assetops_http_request_duration_ms_bucket{{{labels},le="{bound}"}} {count}')
            out.append(f'assetops_http_request_duration_ms_bucket{{{labels},le="+Inf"}} {buckets[-1]}')
            out.append(f"assetops_http_request_duration_ms_sum{{{labels}}} {self.latency_sum_ms[(method, route)]:.3f}")
            out.append(f"assetops_http_request_duration_ms_count{{{labels}}} {buckets[-1]}")
        out += ["# HELP assetops_turns_total Finished chat turns by status.", "# TYPE assetops_turns_total counter"]
        out += [f'assetops_turns_total{{status="{s}"}} {n}' for s, n in sorted(self.turns.items())]
        out += ["# HELP assetops_tool_calls_total Tool calls by tool and status.",
                "# TYPE assetops_tool_calls_total counter"]
        out += [f'assetops_tool_calls_total{{tool="{t}",status="{s}"}} {n}' for (t, s), n in sorted(self.tool_calls.items())]
        out += ["# HELP assetops_tool_latency_ms_total Summed tool latency per server.",
                "# TYPE assetops_tool_latency_ms_total counter"]
        out += [f'assetops_tool_latency_ms_total{{server="{s}"}} {v:.3f}' for s, v in sorted(self.tool_latency_ms.items())]
        return "\n".join(out) + "\n"


class ProfilingMiddleware:
    """Time every HTTP request and websocket session by route template and status."""

    def __init__(self, app: ASGIApp, metrics_of: object) -> None:
        self.app = app
        self.metrics_of = metrics_of  # callable(scope) -> Metrics | None (resources open in the lifespan)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 101 if scope["type"] == "websocket" else 500

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            elif message["type"] == "websocket.close":
                status = int(message.get("code", 1000))
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            route = scope.get("route")
            template = getattr(route, "path", None) or scope.get("path", "?")
            metrics = self.metrics_of(scope)  # type: ignore[operator]
            if metrics is not None:
                method = scope.get("method", "WS")
                metrics.observe_request(method, template, status, (time.perf_counter() - started) * 1000.0)
