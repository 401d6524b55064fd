"""The `assetops` command line: setup, serving, fleet, models, MCP servers, users and chat."""
