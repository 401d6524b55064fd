"""Security response headers on every HTTP response (pure ASGI middleware).

`nosniff` stops browsers from guessing content types, `frame-ancestors 'none'` / `X-Frame-Options`
forbid framing (click-jacking), `Referrer-Policy` keeps session ids in URLs out of referrers.
CORS stays off unless `ASSETOPS_CORS_ORIGINS` lists origins (see create_app).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"referrer-policy", b"no-referrer"),
)


class SecurityHeaders:
    """Add `SECURITY_HEADERS` to every HTTP response that does not set them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                present = {name.lower() for name, _ in headers}
                headers.extend((n, v) for n, v in SECURITY_HEADERS if n not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
