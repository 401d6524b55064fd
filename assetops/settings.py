"""One `Settings` object for the whole service; nothing else reads the environment."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    """Service configuration, read from `ASSETOPS_*` environment variables and `.env`."""

    model_config = SettingsConfigDict(env_prefix="ASSETOPS_", env_file=".env", extra="ignore")

    data_dir: Path = Field(default=PROJECT_ROOT / "var" / "data", description="Database file, fleet files.")
    work_dir: Path = Field(
        default=PROJECT_ROOT / "var" / "work",
        description="The only directory tool file arguments may point into (CSV, JSON, models).",
    )
    models_dir: Path = Field(
        default=PROJECT_ROOT / "var" / "models",
        description="Where the base TTM checkpoints (ttm_96_28, ttm_512_96) live.",
    )
    database_url: str = Field(
        default="",
        description="SQLAlchemy URL; empty means a SQLite file under data_dir. postgresql:// URLs use psycopg.",
    )
    redis_url: str = Field(default="", description="Redis URL; empty means the in-process cache.")
    host: str = "127.0.0.1"
    port: int = 8000
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    artifact_cache_ttl_s: int = Field(default=3600, description="TTL of artifacts in the hot cache.")
    artifact_lru_size: int = Field(default=2048, description="Entries of the in-process fallback cache.")
    tool_timeout_s: float = Field(default=120.0, description="Per tool call timeout.")
    tool_worker_processes: int | None = Field(
        default=None,
        description="Worker processes for GIL-bound tool work (telemetry window reads); "
                    "empty = one per CPU core (at most 8; none on one core), 0 = all work in this process.",
    )
    remote_tool_servers: dict[str, str] = Field(
        default_factory=dict,
        description='Tool servers served elsewhere over MCP, e.g. {"iot": "http://127.0.0.1:8101/mcp"}.',
    )
    auth: Literal["on", "off"] = Field(
        default="on",
        description="API-key auth; 'off' serves everyone as the single local user (local use only).",
    )
    max_request_bytes: int = Field(default=64_000, description="Largest request body accepted (413 above).")
    max_message_chars: int = Field(
        default=20_000, ge=1,
        description="Longest user message read (the request schema, the turn runner and the planner all use it).",
    )
    cors_origins: list[str] = Field(
        default_factory=list,
        description='Browser origins allowed to call the API cross-site, e.g. ["https://ops.example.com"]; '
                    "empty (the default) leaves CORS off.",
    )
    rate_limit_per_minute: int = Field(default=120, description="Requests per API key per minute (429 above).")
    api_url: str = Field(default="", description="Service URL the CLI talks to (empty: run embedded).")
    api_key: str = Field(default="", description="API key the CLI sends (default: the local key file).")
    model_checkpoint: str = Field(
        default="",
        description="Directory (or HF id) of the TTM checkpoints; empty means models_dir.",
    )
    llm_base_url: str = Field(default="", description="OpenAI-compatible endpoint; empty means the offline mode.")
    llm_model: str = Field(default="", description="Chat model name at llm_base_url (LLM mode needs it set).")
    llm_api_key: str = Field(default="", description="API key of the LLM endpoint (any string for local servers).")

    @field_validator("data_dir", "work_dir", "models_dir", mode="after")
    @classmethod
    def _absolute(cls, value: Path) -> Path:
        return value.expanduser().resolve()

    @property
    def effective_database_url(self) -> str:
        """The async SQLAlchemy URL actually used (driver names filled in)."""
        return async_database_url(self.database_url or f"sqlite:///{self.data_dir / 'assetops.db'}")

    @property
    def sync_database_url(self) -> str:
        """The same database through a synchronous driver (migrations, bulk loads)."""
        return sync_database_url(self.effective_database_url)

    @property
    def is_postgres(self) -> bool:
        return self.effective_database_url.startswith("postgresql")

    def ensure_dirs(self) -> None:
        """Create the data and work directories when missing."""
        for path in (self.data_dir, self.work_dir, self.models_dir):
            path.mkdir(parents=True, exist_ok=True)


def async_database_url(url: str) -> str:
    """Map a plain database URL to the async driver the service uses (aiosqlite / psycopg)."""
    if url.startswith("sqlite:///") or url.startswith("sqlite+pysqlite:///"):
        return "sqlite+aiosqlite:///" + url.split(":///", 1)[1]
    for prefix in ("postgresql://", "postgres://", "postgresql+asyncpg://", "postgresql+psycopg2://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def sync_database_url(url: str) -> str:
    """Map an async URL back to its synchronous twin (psycopg serves both modes)."""
    if url.startswith("sqlite+aiosqlite:///"):
        return "sqlite:///" + url.split(":///", 1)[1]
    return url


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings (tests build their own `Settings` and pass it explicitly)."""
    return Settings()
