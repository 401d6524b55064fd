"""Settings URL handling and the in-process LRU that backs the hot cache."""

from __future__ import annotations

import pytest

from assetops.cache import FallbackCache, LRUCache
from assetops.settings import Settings, async_database_url, sync_database_url


def test_default_database_is_a_sqlite_file_under_the_data_dir(tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings = Settings(data_dir=tmp_path, database_url="")
    assert settings.effective_database_url == f"sqlite+aiosqlite:///{tmp_path / 'assetops.db'}"
    assert settings.sync_database_url == f"sqlite:///{tmp_path / 'assetops.db'}"
    assert not settings.is_postgres


@pytest.mark.parametrize("url", ["postgresql://u@h/db", "postgres://u@h/db", "postgresql+asyncpg://u@h/db"])
def test_postgres_urls_use_psycopg_for_both_modes(url: str) -> None:
    assert async_database_url(url) == "postgresql+psycopg://u@h/db"
    assert sync_database_url(async_database_url(url)) == "postgresql+psycopg://u@h/db"


def test_settings_read_the_prefixed_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSETOPS_REDIS_URL", "redis://example:6379/0")
    monkeypatch.setenv("ASSETOPS_PORT", "9100")
    settings = Settings()
    assert settings.redis_url == "redis://example:6379/0" and settings.port == 9100


async def test_lru_evicts_the_least_recently_used_entry() -> None:
    cache = LRUCache(max_entries=2)
    await cache.set("a", b"1", 60)
    await cache.set("b", b"2", 60)
    assert await cache.get("a") == b"1"  # touch a: b is now the oldest
    await cache.set("c", b"3", 60)
    assert await cache.get("b") is None
    assert await cache.get("a") == b"1" and await cache.get("c") == b"3"


async def test_lru_entries_expire() -> None:
    cache = LRUCache()
    await cache.set("k", b"v", 0)
    assert await cache.get("k") is None


async def test_cache_without_redis_serves_from_the_lru() -> None:
    cache = FallbackCache("", LRUCache())
    await cache.set("k", b"v", 60)
    assert await cache.get("k") == b"v"
    assert not cache.using_redis
    await cache.delete("k")
    assert await cache.get("k") is None
