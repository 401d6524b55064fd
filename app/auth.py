"""API keys: created with `assetops users create NAME`, stored as SHA-256, sent as `Bearer` tokens.

With `ASSETOPS_AUTH=off` every request is the single local user (documented for local use only).
The embedded default creates a `local` user on first start and prints its key once (it is also
kept, readable only by its owner, under the data directory so `assetops chat` can find it).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import secrets
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from fastapi import Depends, HTTPException, Request, WebSocket, status
from sqlalchemy import select

from app.deps import ResourcesDep
from assetops.db.engine import Database
from assetops.db.tables import UserRow
from assetops.settings import Settings

log = logging.getLogger(__name__)

LOCAL_USER = "local"
KEY_PREFIX = "aok_"


@dataclass(frozen=True)
class User:
    """The caller: sessions, artifacts and drafts belong to `id`."""

    id: str
    name: str


def hash_key(key: str) -> str:
    """SHA-256 hex of an API key (keys are random, so a fast hash is enough)."""
    return hashlib.sha256(key.encode()).hexdigest()


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(24)


async def create_user(db: Database, name: str) -> tuple[User, str]:
    """Create a user and return it with its API key (shown once, stored hashed)."""
    key = new_key()
    user_id = uuid.uuid4().hex[:16]
    async with db.session() as session:
        if (await session.execute(select(UserRow).where(UserRow.name == name))).scalar_one_or_none() is not None:
            raise ValueError(f"a user named '{name}' already exists")
        session.add(UserRow(id=user_id, name=name, key_hash=hash_key(key)))
    return User(user_id, name), key


async def user_for_key(db: Database, key: str) -> User | None:
    """The user owning `key`, or None."""
    async with db.session() as session:
        row = (await session.execute(select(UserRow).where(UserRow.key_hash == hash_key(key)))).scalar_one_or_none()
        return User(row.id, row.name) if row is not None else None


def local_key_file(settings: Settings) -> Path:
    return settings.data_dir / "local_api_key"


async def ensure_local_key(settings: Settings, db: Database) -> str | None:
    """On first start (no users yet), create the `local` user, save and return its key."""
    async with db.session() as session:
        if (await session.execute(select(UserRow.id).limit(1))).first() is not None:
            return None
    _, key = await create_user(db, LOCAL_USER)
    path = local_key_file(settings)
    path.write_text(key + "\n")
    path.chmod(0o600)
    return key


def _bearer(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _key_hint(settings: Settings) -> str:
    """Where the local key file is, as the person running the service would type it (relative to
    the directory it was started from when inside it, so no absolute server path is echoed)."""
    path = local_key_file(settings)
    with contextlib.suppress(ValueError):
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    return f"the service's data directory ({path.name})"


async def authenticate(settings: Settings, db: Database, token: str | None) -> User:
    """The user of a token, or 401 with what to do about it."""
    if settings.auth == "off":
        return User(LOCAL_USER, LOCAL_USER)
    if token is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED,
                            "Missing API key: send 'Authorization: Bearer KEY' (create one with "
                            f"`assetops users create NAME`; the local key is in {_key_hint(settings)}).",
                            headers={"WWW-Authenticate": "Bearer"})
    user = await user_for_key(db, token)
    if user is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, "Unknown API key.", headers={"WWW-Authenticate": "Bearer"})
    return user


async def current_user(request: Request, resources: ResourcesDep) -> User:
    """Dependency: the authenticated caller (the middleware may have resolved it already)."""
    cached = getattr(request.state, "user", None)
    if isinstance(cached, User):
        return cached
    user = await authenticate(resources.settings, resources.db, _bearer(request.headers.get("authorization")))
    request.state.user = user
    return user


async def websocket_user(websocket: WebSocket) -> User | None:
    """The user of a websocket (Bearer header, or `?token=` since browsers cannot set headers)."""
    resources = websocket.app.state.resources
    token = _bearer(websocket.headers.get("authorization")) or websocket.query_params.get("token")
    try:
        return await authenticate(resources.settings, resources.db, token)
    except HTTPException:
        return None


CurrentUser = Annotated[User, Depends(current_user)]


async def rate_limited_user(user: CurrentUser, resources: ResourcesDep) -> User:
    """Dependency: the caller, counted against its per-minute budget (429 past it)."""
    await resources.limiter.check(user.id)
    return user


ApiUser = Annotated[User, Depends(rate_limited_user)]
