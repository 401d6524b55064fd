"""The configured chat model: offline without a model name, an OpenAI-compatible client with one."""

from __future__ import annotations

from pathlib import Path

from assetops.llm import build_chat_model
from assetops.profiling import chat_model_name as model_name
from assetops.settings import Settings


def test_no_model_name_means_the_offline_mode(tmp_path: Path) -> None:
    assert build_chat_model(Settings(data_dir=tmp_path, llm_model="", llm_base_url="http://x/v1")) is None


def test_a_model_name_builds_an_openai_compatible_client(tmp_path: Path) -> None:
    model = build_chat_model(Settings(data_dir=tmp_path, llm_model="granite-3", llm_base_url="http://127.0.0.1:9/v1",
                                      llm_api_key="secret"))
    assert type(model).__name__ == "ChatOpenAI"
    assert model_name(model) == "granite-3"
    assert str(model.openai_api_base) == "http://127.0.0.1:9/v1"
    assert model.openai_api_key.get_secret_value() == "secret"
