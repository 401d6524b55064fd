"""Where every tool server module lives; importing them fills the registry.

Servers load on demand (`load_server`), so serving `iot` never imports torch for `tsfm`. Every server
module exists: one that fails to import is a bug, and its import error propagates to the caller.
"""

from __future__ import annotations

import importlib

SERVER_MODULES: dict[str, str] = {
    "iot": "tools.iot",
    "utilities": "tools.utilities",
    "fmsr": "tools.fmsr",
    "tsfm": "tools.tsfm",
    "wo": "tools.wo",
}
SERVERS: tuple[str, ...] = tuple(SERVER_MODULES)


def load_server(server: str) -> bool:
    """Import one server's module (once; Python caches it); False when `server` is not a server name."""
    module = SERVER_MODULES.get(server)
    if module is None:
        return False
    importlib.import_module(module)
    return True


def load_all() -> None:
    """Import every server module."""
    for server in SERVERS:
        load_server(server)
