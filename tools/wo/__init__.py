"""The `wo` server package: importing it registers the nine work-order tools (see `tools.wo.server`)."""

from tools.wo import server as server  # registers the tools with the framework

__all__ = ["server"]
