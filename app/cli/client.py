"""How the CLI reaches a running service: base URL and API key from options, settings or the local key."""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from app.auth import local_key_file
from assetops.settings import Settings


@dataclass
class ServiceClient:
    """A thin httpx wrapper with the Bearer header set and errors turned into readable messages."""

    url: str
    key: str

    @classmethod
    def from_options(cls, settings: Settings, url: str | None, key: str | None) -> ServiceClient:
        base = (url or settings.api_url or f"http://{settings.host}:{settings.port}").rstrip("/")
        token = key or settings.api_key
        if not token and local_key_file(settings).is_file():
            token = local_key_file(settings).read_text().strip()
        return cls(base, token)

    def http(self, timeout: float = 600.0) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.key}"} if self.key else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=timeout)


def raise_for_status(response: httpx.Response) -> None:
    """Turn an error response into a SystemExit with the service's own message."""
    if response.is_success:
        return
    try:
        detail = response.json().get("detail", response.text)
    except ValueError:
        detail = response.text
    raise SystemExit(f"error {response.status_code}: {detail}")
