"""Secret scanning: find credentials in a row before it is written or shipped.

A row is public the moment it ships, so every string in it is checked for the
configured secret values and for the shapes common credentials have. A finding
says where (a JSON path such as `messages[12].content`) and which kind; it must
never carry or print the secret itself. Bytes (image data) are skipped: they
are pixels, not text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

# (kind, literals one of which every match contains, pattern). The literals are a
# cheap substring prefilter: a regex over every string of a long row is slow,
# and almost no string holds any of them. Patterns are anchored so they do not
# fire inside ordinary words ("task-...").
PATTERNS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = tuple(
    (kind, literals, re.compile(pattern))
    for kind, literals, pattern in (
        ("openrouter key", ("sk-or-",), r"(?<![\w-])sk-or-v1-[A-Za-z0-9]{20,}"),
        ("anthropic key", ("sk-ant-",), r"(?<![\w-])sk-ant-[A-Za-z0-9_-]{20,}"),
        ("openai key", ("sk-",), r"(?<![\w-])sk-(?:proj-)?(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}"),
        ("hub token", ("hf_",), r"(?<![\w-])hf_[A-Za-z0-9]{30,}"),
        ("aws access key", ("AKIA", "ASIA"), r"(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])"),
        (
            "github token",
            ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
            r"(?<![\w-])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
        ),
        ("slack token", ("xox",), r"(?<![\w-])xox[abprs]-[A-Za-z0-9-]{10,}"),
        ("gitlab token", ("glpat-",), r"(?<![\w-])glpat-[A-Za-z0-9_-]{20,}"),
        ("npm token", ("npm_",), r"(?<![\w-])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])"),
        ("google api key", ("AIza",), r"(?<![\w-])AIza[0-9A-Za-z_-]{35}(?![\w-])"),
        (
            "stripe key",
            ("_live_", "_test_"),
            r"(?<![\w-])(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}",
        ),
        (
            "json web token",
            ("eyJ",),
            r"(?<![\w-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        ),
        (
            "password in a url",
            ("://",),
            r"\b[a-z][a-z0-9+.-]*://[^\s/:@'\"<>]+:[^\s/@'\"<>]{3,}@[\w.-]+",
        ),
        ("private key", ("PRIVATE KEY-----",), r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----"),
        ("bearer token", ("Bearer",), r"\bBearer\s+[A-Za-z0-9._~+/-]{20,}=*"),
    )
)

PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z_.-]{0,39}")
"""A dict key a finding's path may show: letters, `.`, `_`, `-`, as field and file names
are. Any other key (one that could be a credential) shows as `{key N}`."""


@dataclass(frozen=True)
class Finding:
    where: str
    """The JSON path of the string, e.g. `messages[12].content`."""
    kind: str
    """What was found: `configured secret`, `openai key`, `private key`, ..."""

    def __str__(self) -> str:
        return f"{self.kind} at {self.where}"


class SecretFound(ValueError):
    """Refusal to write or ship: names the findings, never the secrets."""

    def __init__(self, subject: str, findings: list[Finding]):
        self.findings = findings
        shown = ", ".join(str(f) for f in findings[:3])
        more = f" and {len(findings) - 3} more" if len(findings) > 3 else ""
        super().__init__(f"{subject}: refused, a secret is in it: {shown}{more}")


def strings(obj: Any, where: str = "") -> Iterator[tuple[str, str]]:
    """Every string inside `obj` with its JSON path, in document order."""
    if isinstance(obj, str):
        yield where or "text", obj
    elif isinstance(obj, dict):
        for index, (key, value) in enumerate(obj.items()):
            # A key is model-made text too (a product's JSON): scanned, and named in a
            # path only when it looks like a field name, never like a credential.
            name = str(key) if PLAIN_KEY.fullmatch(str(key)) else f"{{key {index}}}"
            yield f"{where}.{name}" if where else name, str(key)
            yield from strings(value, f"{where}.{name}" if where else name)
    elif isinstance(obj, list | tuple):
        for index, value in enumerate(obj):
            yield from strings(value, f"{where}[{index}]")


def scan(obj_or_text: Any, secrets: list[str]) -> list[Finding]:
    """Findings in a row (any JSON-like value) or a text; empty when clean."""
    # Very short values would match everywhere and mean nothing as secrets.
    values = [s for s in secrets if len(s) >= 8]
    findings: list[Finding] = []
    for where, text in strings(obj_or_text):
        if any(value in text for value in values):
            findings.append(Finding(where, "configured secret"))
            continue
        for kind, literals, pattern in PATTERNS:
            if any(literal in text for literal in literals) and pattern.search(text):
                findings.append(Finding(where, kind))
                break
    return findings
