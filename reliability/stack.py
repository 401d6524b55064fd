"""The pieces a reliability run starts on loopback: a Redis server, a PostgreSQL schema with a
generated fleet, the service under uvicorn, and an API user. Everything is torn down at exit."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from assetops.settings import PROJECT_ROOT, Settings

PG_BASE_URL = os.environ.get("ASSETOPS_RELIABILITY_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")


def free_port() -> int:
    """A TCP port free on loopback right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class RedisServer:
    """`redis-server --port N --save ''` on loopback; stop() and start() again on the same port."""

    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed (make faults / make load install Debian redis-server)")
        self.process = subprocess.Popen([binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                         "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: _connects(self.port), 10.0, "redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    def key_count(self) -> int:
        import redis

        return int(redis.Redis.from_url(self.url, socket_timeout=2).dbsize())


def _connects(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def wait_for(check: object, timeout_s: float, message: str) -> None:
    """Poll `check()` until true, or raise RuntimeError(message) after `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise RuntimeError(message)


@dataclass
class PgSchema:
    """A PostgreSQL schema of its own (dropped at close), with the schema at head and a fleet loaded."""

    name: str = field(default_factory=lambda: f"rel_{uuid.uuid4().hex[:10]}")
    app_name: str = field(default_factory=lambda: f"assetops-rel-{uuid.uuid4().hex[:6]}")

    @property
    def url(self) -> str:
        return f"{PG_BASE_URL}?options=-csearch_path%3D{self.name}&application_name={self.app_name}"

    def create(self, settings: Settings, *, full_fleet: bool) -> None:
        import psycopg

        from assetops.db import migrate
        from fleet.loader import load_fleet
        from fleet.synthetic import generate_fleet, small_config

        with psycopg.connect(PG_BASE_URL, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{self.name}"')
        migrate.upgrade(settings)
        if full_fleet:
            load_fleet(settings, generate_fleet())  # the default fleet: seed 7, 2016-2021, four chillers
        else:
            load_fleet(settings, generate_fleet(small_config("2021-05-01", "2021-06-30")))

    def terminate_backends(self) -> int:
        """pg_terminate_backend on every connection of the service (by application_name)."""
        import psycopg

        with psycopg.connect(PG_BASE_URL, autocommit=True) as conn:
            rows = conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
                                (self.app_name,)).fetchall()
        return len(rows)

    def execute(self, statement: str) -> None:
        """Run one statement inside this schema (fault injection: rename a table, and back)."""
        import psycopg

        with psycopg.connect(PG_BASE_URL, autocommit=True) as conn:
            conn.execute(f'SET search_path TO "{self.name}"')
            conn.execute(statement)  # type: ignore[arg-type]

    def drop(self) -> None:
        import psycopg

        with contextlib.suppress(Exception), psycopg.connect(PG_BASE_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{self.name}" CASCADE')


@dataclass
class Service:
    """The API under uvicorn in its own process group (so its tool workers go with it)."""

    env: dict[str, str]
    port: int = field(default_factory=free_port)
    workers: int = 1
    process: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, *, wait_ready: bool = True) -> None:
        self.log_path = self.log_path or Path(tempfile.mkstemp(prefix="assetops-service-", suffix=".log")[1])
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "app.main:create_app", "--factory", "--host", "127.0.0.1",
             "--port", str(self.port), "--workers", str(self.workers), "--log-level", "warning"],
            env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT), **self.env}, cwd=str(PROJECT_ROOT),
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        wait_for(self._answers, 120.0, f"the service did not start (log: {self.log_path})")
        if wait_ready:
            wait_for(self._ready, 60.0, f"the service did not become ready (log: {self.log_path})")

    def _answers(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"the service exited with {self.process.returncode} (log: {self.log_path})")
        try:
            return httpx.get(f"{self.url}/healthz", timeout=1.0).status_code == 200
        except httpx.HTTPError:
            return False

    def _ready(self) -> bool:
        try:
            return httpx.get(f"{self.url}/readyz", timeout=2.0).json().get("status") in ("ready", "degraded")
        except (httpx.HTTPError, ValueError):
            return False

    def kill(self) -> None:
        """SIGKILL the whole process group (the API and its tool workers), like a crash."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None

    def worker_pids(self) -> list[int]:
        """The tool worker processes (children of the API process that run the worker entry point)."""
        import psutil

        if self.process is None:
            return []
        children = psutil.Process(self.process.pid).children(recursive=True)
        return [c.pid for c in children if any("worker_main" in part for part in c.cmdline())]


def service_settings(root: Path, database_url: str, redis_url: str, **extra: object) -> Settings:
    """Settings for a run: data and work dirs under `root`, the repository's TTM checkpoints."""
    values: dict[str, object] = {"data_dir": root / "data", "work_dir": root / "work",
                                 "models_dir": PROJECT_ROOT / "var" / "models", "database_url": database_url,
                                 "redis_url": redis_url, **extra}
    settings = Settings(**values)  # type: ignore[arg-type]
    settings.ensure_dirs()
    return settings


def service_env(settings: Settings, **extra: str) -> dict[str, str]:
    """The ASSETOPS_* environment that reproduces `settings` in the service process."""
    env = {"ASSETOPS_DATA_DIR": str(settings.data_dir), "ASSETOPS_WORK_DIR": str(settings.work_dir),
           "ASSETOPS_MODELS_DIR": str(settings.models_dir), "ASSETOPS_DATABASE_URL": settings.database_url,
           "ASSETOPS_REDIS_URL": settings.redis_url, "ASSETOPS_RATE_LIMIT_PER_MINUTE": "1000000",
           "ASSETOPS_LOG_LEVEL": "WARNING"}
    return {**env, **extra}


def create_api_key(settings: Settings, name: str) -> str:
    """A new API user's key."""
    from app.auth import create_user
    from assetops.db.engine import Database

    async def make() -> str:
        db = Database(settings)
        try:
            return (await create_user(db, name))[1]
        finally:
            await db.close()

    return asyncio.run(make())
