"""A worker process: `python -m tools.framework.worker_main [module ...]`.

It imports the named task modules, says it is ready, then answers requests from its parent one at
a time over stdin/stdout until stdin closes (the parent exited or let it go). Frames:

    request   <u32 length> JSON {"task": "module:function", "kwargs": {...}}
    response  <u32 header length> <u32 payload length> JSON header, payload bytes
              header: {"ok": bool, "meta": {...}, "queries": [...], "error": str | null}

The first response (task-less) is the ready signal: {"ok": true, "meta": {"ready": <pid>}}.
"""

from __future__ import annotations

import importlib
import os
import struct
import sys
from typing import Any, BinaryIO

import orjson

REQUEST_HEAD = struct.Struct("<I")
RESPONSE_HEAD = struct.Struct("<II")


def read_exact(stream: BinaryIO, size: int) -> bytes:
    """Exactly `size` bytes from `stream`; EOFError when it ends first."""
    data = stream.read(size)
    if data is None or len(data) < size:
        raise EOFError("stream closed")
    return data


def write_response(stream: BinaryIO, header: dict[str, Any], payload: bytes = b"") -> None:
    """One response frame, flushed."""
    head = orjson.dumps(header)
    stream.write(RESPONSE_HEAD.pack(len(head), len(payload)) + head + payload)
    stream.flush()


def _answer(request: dict[str, Any]) -> tuple[dict[str, Any], bytes]:
    from tools.framework.tasks import resolve_task, run_recorded

    try:
        output, queries = run_recorded(resolve_task(str(request.get("task"))), dict(request.get("kwargs") or {}))
    except Exception as exc:  # reported to the parent, which turns it into the tool's error
        return {"ok": False, "meta": {}, "queries": [], "error": f"{type(exc).__name__}: {exc}"}, b""
    return {"ok": True, "meta": output.meta, "queries": queries, "error": None}, output.payload


def serve(requests: BinaryIO, responses: BinaryIO) -> None:
    """Answer requests until `requests` ends."""
    while True:
        try:
            (size,) = REQUEST_HEAD.unpack(read_exact(requests, REQUEST_HEAD.size))
            request = orjson.loads(read_exact(requests, size))
        except EOFError:
            return
        header, payload = _answer(request)
        write_response(responses, header, payload)


def main(argv: list[str]) -> None:
    """Import the task modules, signal readiness, serve."""
    # The protocol owns the real stdout; anything a library prints goes to stderr instead.
    responses = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    for module in argv:
        importlib.import_module(module)
    write_response(responses, {"ok": True, "meta": {"ready": os.getpid()}, "queries": [], "error": None})
    serve(sys.stdin.buffer, responses)


if __name__ == "__main__":
    main(sys.argv[1:])
