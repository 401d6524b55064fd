"""Where every tool server module lives; importing them fills the registry.

Servers load on demand (`load_server`), so serving `iot` never imports torch for `tsfm`. A server
module that is not written yet, or fails to import because a dependency is missing, is marked
unavailable with a warning instead of taking the other servers down with it.
"""

from __future__ import annotations

import importlib
import logging

log = logging.getLogger(__name__)

SERVER_MODULES: dict[str, str] = {
    "iot": "tools.iot",
    "utilities": "tools.utilities",
    "fmsr": "tools.fmsr",
    "tsfm": "tools.tsfm",
    "wo": "tools.wo",
}
SERVERS: tuple[str, ...] = tuple(SERVER_MODULES)
loaded: dict[str, bool] = {}


def load_server(server: str) -> bool:
    """Import one server's module (once); True when its tools are registered."""
    if server in loaded:
        return loaded[server]
    module = SERVER_MODULES.get(server)
    if module is None:
        return False
    try:
        importlib.import_module(module)
        loaded[server] = True
    except ModuleNotFoundError as exc:
        if exc.name is None or not module.startswith(exc.name):
            log.warning("tool server %s not available: %s", server, exc)
        loaded[server] = False  # else: the module does not exist (yet)
    return loaded[server]


def load_all() -> dict[str, bool]:
    """Import every server module; returns which ones are available."""
    for server in SERVERS:
        load_server(server)
    return dict(loaded)
