"""`require_shared`: a missing `../shared` path fails the test under CI and skips it elsewhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import require_shared

MISSING = "no-such-folder/no-such-file.json"


def test_a_missing_shared_path_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"no-such-file\.json is missing"):
        require_shared(MISSING)


def test_a_missing_shared_path_skips_outside_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"no-such-file\.json is missing"):
        require_shared(MISSING)


def test_a_present_shared_path_is_returned(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CI", "true")
    monkeypatch.setattr("tests.conftest.SHARED_DIR", tmp_path)
    (tmp_path / "contract").mkdir()
    assert require_shared("contract") == (tmp_path / "contract").resolve()

