"""Service-layer operations behind the routes, the websocket and the CLI."""
