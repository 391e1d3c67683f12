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

# Each pattern is anchored so it does not fire inside ordinary words ("task-...").
PATTERNS: tuple[tuple[str, str], ...] = (
    ("openrouter key", r"(?<![\w-])sk-or-v1-[A-Za-z0-9]{20,}"),
    ("anthropic key", r"(?<![\w-])sk-ant-[A-Za-z0-9_-]{20,}"),
    ("openai key", r"(?<![\w-])sk-(?:proj-)?(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}"),
    ("hub token", r"(?<![\w-])hf_[A-Za-z0-9]{30,}"),
    ("aws access key", r"(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])"),
    ("github token", r"(?<![\w-])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})"),
    ("slack token", r"(?<![\w-])xox[abprs]-[A-Za-z0-9-]{10,}"),
    ("private key", r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----"),
    ("bearer token", r"\bBearer\s+[A-Za-z0-9._~+/-]{20,}=*"),
)
_COMBINED = re.compile("|".join(f"(?P<p{i}>{p})" for i, (_, p) in enumerate(PATTERNS)))


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
        for key, value in obj.items():
            yield from strings(value, f"{where}.{key}" if where else str(key))
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
        match = _COMBINED.search(text)
        if match:
            index = int(match.lastgroup[1:])  # type: ignore[index]
            findings.append(Finding(where, PATTERNS[index][0]))
    return findings
