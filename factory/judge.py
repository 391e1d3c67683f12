"""The transcript judge: did the model work the way the order demands?

The gates judge the product; this judges the process, from the session's
messages alone (the tool calls the model made, in order, and their results),
as the zenyx card verifies rollouts from world state and transcript. Its
verdict is shown at the end of a shift and stored in the row. It must never
look at anything but the transcript, the catalogue at base and the catalogue
now; it must never fail a shift on taste.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from factory.lines import Line
from factory.session import Session

SCRATCH = ".factory/scratch/"
READERS = ("cat", "head", "tail", "less", "more", "jq", "python", "python3", "sed", "nl")


@dataclass
class Verdict:
    ok: bool
    reasons: list[str] = field(default_factory=list)
    """One sentence per failed check, saying what the model did not do."""
    checks: dict[str, bool] = field(default_factory=dict)

    def as_row(self) -> dict[str, Any]:
        return {"ok": self.ok, "reasons": list(self.reasons), "checks": dict(self.checks)}


@dataclass
class Call:
    """One tool call, in transcript order, with its result text."""

    index: int
    name: str
    args: dict[str, Any]
    result: str

    @property
    def failed(self) -> bool:
        return self.result.lstrip().lower().startswith(("error", "refused"))

    def text(self, key: str) -> str:
        value = self.args.get(key)
        return value if isinstance(value, str) else ""


def calls(messages: list[dict[str, Any]]) -> list[Call]:
    """Every tool call of the conversation with its arguments parsed (bad JSON: empty)."""
    results = {
        m.get("tool_call_id"): str(m.get("content") or "")
        for m in messages
        if m.get("role") == "tool"
    }
    found: list[Call] = []
    for message in messages:
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            try:
                args = json.loads(function.get("arguments") or "{}")
            except (json.JSONDecodeError, TypeError):
                args = {}
            if not isinstance(args, dict):
                args = {}
            result = results.get(call.get("id"), "")
            found.append(Call(len(found), str(function.get("name")), args, result))
    return found


def _relative(path: str, workspace: Path) -> str:
    """A tool's path argument as a workspace-relative POSIX path."""
    candidate = Path(path)
    if candidate.is_absolute():
        try:
            candidate = candidate.relative_to(workspace)
        except ValueError:
            try:
                candidate = candidate.resolve().relative_to(workspace.resolve())
            except ValueError:
                return candidate.as_posix()
    return PurePosixPath(*PurePosixPath(candidate.as_posix()).parts).as_posix().removeprefix("./")


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def _first(items: list[Call]) -> int | None:
    return items[0].index if items else None


def judge(
    session: Session,
    workspace: Path,
    line: Line,
    slug: str | None,
    base_catalogue: list,
) -> Verdict:
    """The verdict on one session (for a chain, the newest: its messages hold the chain's)."""
    every = calls(session.messages)
    ok = [c for c in every if not c.failed]
    catalogue = line.catalogue_path(workspace).relative_to(workspace).as_posix()
    shelf = line.shelf_dir(workspace).relative_to(workspace).as_posix() + "/"

    def writes_under(prefix: str) -> list[Call]:
        return [
            c
            for c in ok
            if c.name == "write" and _relative(c.text("path"), workspace).startswith(prefix)
        ]

    def views_of(name: str) -> list[Call]:
        return [c for c in ok if c.name == "view" and PurePosixPath(c.text("path")).name == name]

    def shots_taken(of: str) -> list[Call]:
        found = []
        for c in ok:
            if c.name == "screenshot" and of in c.text("target"):
                found.append(c)
            elif c.name == "shell":
                words = _words(c.text("command"))
                if "probe" in words and (of in words or "--all" in words):
                    found.append(c)
        return found

    checks: dict[str, bool] = {}
    reasons: list[str] = []

    def check(name: str, passed: bool, reason: str) -> None:
        checks[name] = passed
        if not passed:
            reasons.append(reason)

    read = [
        c
        for c in ok
        if (c.name == "read" and _relative(c.text("path"), workspace) == catalogue)
        or (
            c.name == "shell"
            and catalogue in c.text("command")
            and any(w in READERS for w in _words(c.text("command")))
        )
    ]
    check("catalogue_read", bool(read), f"the catalogue {catalogue} was never read")

    product_writes = writes_under(shelf)
    first_product_write = _first(product_writes)
    newest = line.look_first
    if newest:
        missing = []
        for entry in base_catalogue[-newest:]:
            old = str(entry.get("slug", "")) if isinstance(entry, dict) else ""
            shot = _first(shots_taken(old))
            view = _first(views_of(f"{old}-desktop.png"))
            in_time = shot is not None and view is not None
            if in_time and first_product_write is not None:
                in_time = shot < first_product_write and view < first_product_write
            if not in_time:
                missing.append(old)
        check(
            "newest_viewed",
            not missing,
            f"the newest products were not screenshotted and viewed before building: {', '.join(missing)}",
        )

    briefs = [
        c
        for c in ok
        if c.name == "write"
        and SCRATCH in "/" + _relative(c.text("path"), workspace)
        and "brief" in PurePosixPath(c.text("path")).name.lower()
    ]
    markup = [c for c in product_writes if PurePosixPath(c.text("path")).name == "index.html"]
    first_markup = _first(markup)
    check(
        "brief_before_markup",
        bool(briefs) and (first_markup is None or briefs[0].index < first_markup),
        "no brief was written in the scratch folder before the markup (index.html)",
    )

    name = slug or "<no new product>"
    probes = []
    for c in ok:
        words = _words(c.text("command")) if c.name == "shell" else []
        if "probe" in words and "--shots-only" not in words:
            after = words[words.index("probe") + 1 :]
            if slug in after or not [w for w in after if not w.startswith("-")]:
                probes.append(c)
    check("probe_run", slug is not None and bool(probes), f"the probe was never run on {name}")

    own_shots = line.shot_names(slug) if slug else []
    unseen = [shot for shot in own_shots if not views_of(shot)]
    check(
        "shots_viewed",
        slug is not None and not unseen,
        f"these screenshots of {name} were never viewed: {', '.join(unseen or own_shots or ['all'])}",
    )

    own_views = [c for c in ok if c.name == "view" and slug and slug in c.text("path")]
    own_writes = writes_under(f"{shelf}{slug}/") if slug else []
    first_view = _first(own_views)
    check(
        "critique_round",
        first_view is not None and any(c.index > first_view for c in own_writes),
        f"no product file of {name} was changed after looking at it (no design-critique round)",
    )
    check(
        "two_views",
        len(own_views) >= 2,
        f"{name} was viewed {len(own_views)} time(s); at least two are needed",
    )

    before = {e.get("slug") for e in base_catalogue if isinstance(e, dict)}
    now = _catalogue(line.catalogue_path(workspace))
    check(
        "entry_appended",
        slug is not None and slug not in before and slug in {e.get("slug") for e in now},
        f"no new entry was appended to {catalogue}",
    )
    check(
        "success_called",
        any(c.name == "success" for c in every),
        "success was never called",
    )
    return Verdict(ok=not reasons, reasons=reasons, checks=checks)


def _catalogue(path: Path) -> list[dict[str, Any]]:
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return []
    return [e for e in loaded if isinstance(e, dict)] if isinstance(loaded, list) else []
