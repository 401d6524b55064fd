"""Secrets are masked in text and in log records before they leave the process."""

from __future__ import annotations

import logging

import pytest

from assetops.redact import RedactingFilter, redact

SECRETS = [
    ("postgresql://assetops:Hunter2pw@db.internal:5432/ops", "Hunter2pw"),
    ("redis://:r3dispass@127.0.0.1:6379/0", "r3dispass"),
    ("Authorization: Bearer aok_abcdefghijklmnopqrstuvwx", "abcdefghijklmnopqrstuvwx"),
    ("key aok_ZZZZ-yyyy_1234567890abcd leaked", "ZZZZ-yyyy_1234567890abcd"),
    ("connect failed password=swordfish host=x", "swordfish"),
    ("llm_api_key: sk-proj-0123456789abcdefXYZ", "0123456789abcdefXYZ"),
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_each_secret_is_masked_and_the_rest_kept(text: str, secret: str) -> None:
    masked = redact(text)
    assert secret not in masked and "***" in masked
    assert masked.split()[0][:4] == text.split()[0][:4]  # the readable part stays


def test_plain_text_is_unchanged() -> None:
    text = "Chiller 6 Power Input 130.18 kW on 2021-06-01; see /v1/sessions/ses_1234"
    assert redact(text) == text


def test_the_log_filter_masks_arguments_and_tracebacks() -> None:
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "engine %s failed", ("postgresql://u:pw123456@h/db",), None)
    try:
        raise RuntimeError("token=aok_secretsecretsecret")
    except RuntimeError:
        import sys

        record.exc_info = sys.exc_info()
    assert RedactingFilter().filter(record)
    assert "pw123456" not in record.getMessage() and "aok_secretsecretsecret" not in (record.exc_text or "")
