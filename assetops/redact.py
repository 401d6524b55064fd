"""Masking secrets out of text that leaves the process (logs, error messages, readiness reasons).

API keys (`aok_...`), bearer tokens, passwords in URLs (`scheme://user:password@host`) and
`password=`/`api_key=`-style pairs are replaced by `***`. Pure functions plus one logging filter.
"""

from __future__ import annotations

import logging
import re

MASK = "***"
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\baok_[A-Za-z0-9_\-]{8,}"), "aok_" + MASK),                       # our API keys
    (re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=\-]{8,}"), r"\1" + MASK),          # Authorization values
    (re.compile(r"\b([a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@]*:)[^\s@/]+@"), r"\1" + MASK + "@"),  # URL passwords
    (re.compile(r"(?i)\b((?:password|passwd|pwd|api[_-]?key|secret|token)\s*[=:]\s*['\"]?)[^\s'\"&,;]+"),
     r"\1" + MASK),
    (re.compile(r"\bsk-[A-Za-z0-9_\-]{12,}"), "sk-" + MASK),                          # OpenAI-style keys
)


def redact(text: str) -> str:
    """`text` with every recognised secret replaced by `***`."""
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class RedactingFilter(logging.Filter):
    """A logging filter that masks secrets in the rendered message (args included) and tracebacks."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed log call: leave it to the handler's own error path
            return True
        record.msg, record.args = redact(message), None
        if record.exc_info and record.exc_info[1] is not None and not record.exc_text:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        return True


def install_log_redaction() -> None:
    """Mask secrets in every record of every handler on the root logger (idempotent)."""
    root = logging.getLogger()
    for handler in root.handlers:
        if not any(isinstance(f, RedactingFilter) for f in handler.filters):
            handler.addFilter(RedactingFilter())
