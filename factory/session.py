"""The session log: one append-only JSONL record per event, fsynced as written.

A session is one run of the loop. Its log lives at
`<workspace>/.factory/sessions/<id>.jsonl`, its images once each by content
digest under `<id>.blobs/`. Everything downstream (resume, export, the judge,
`factory sessions`) is rebuilt from these records alone, so this module must
never rewrite or drop a record that was written; a torn last line (the process
died mid-write) is skipped on read, never "repaired" in place.

Record kinds, each with `kind` and `t` (UTC ISO time):
- `meta`       first record: id, order, task, model, provider, driver, workspace,
               system, tools, continues, chain, started, line, seed
- `inherit`    the messages a resume starts from (the previous session's state)
- `message`    one conversation message (see `factory.messages`)
- `compaction` the older turns were summarised: `checkpoint` (a message) and
               `keep` (how many of the newest messages stay verbatim)
- `event`      a counted happening: `event` is iteration, nudge, retry, tool,
               usage, snapshot, ... with free-form fields
- `outcome`    the terminal record: reason, iterations, calls, tokens, cost, ...
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SESSIONS_DIR = Path(".factory") / "sessions"

STOP_REASONS = (
    "settled", "failed", "iterations", "calls", "time", "continuations",
    "cycle", "empty", "unsettled", "aborted", "error",
)  # fmt: skip


CUT_SHORT = ("time", "aborted", "error", "iterations", "calls")
"""Stop reasons imposed on the run from outside the model's own decision (a limit,
a SIGTERM, a provider that failed). Such a run, like one with no outcome at all,
is continued by the next shift; one that settled, failed or misbehaved is not."""


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def new_id() -> str:
    """Sortable by start time to the millisecond (a resume picks the newest session
    by name, and two shifts can start in the same second), unique without
    coordination."""
    stamp = datetime.now(UTC)
    return f"{stamp:%Y%m%dT%H%M%S}{stamp.microsecond // 1000:03d}Z-{secrets.token_hex(3)}"


def sessions_dir(workspace: Path) -> Path:
    return workspace / SESSIONS_DIR


class SessionLog:
    """Writes one session's records. Each `append` is durable when it returns,
    or, inside `batch()`, when the batch ends."""

    def __init__(self, path: Path):
        self.path = path
        self.id = path.stem
        self.blobs = path.with_name(f"{self.id}.blobs")
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - held for the session
        self._batched = 0

    @classmethod
    def create(cls, workspace: Path, session_id: str | None = None) -> SessionLog:
        session_id = session_id or new_id()
        return cls(sessions_dir(workspace) / f"{session_id}.jsonl")

    def append(self, kind: str, **fields: Any) -> dict[str, Any]:
        record = {"kind": kind, "t": now(), **fields}
        self._file.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._file.flush()  # in the kernel now: a killed process loses nothing
        if not self._batched:
            os.fsync(self._file.fileno())
        return record

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One durability point for a turn's records: each is written and flushed at
        once (a SIGKILL loses none), and fsynced together when the block ends, so a
        turn costs one disk sync instead of one per record."""
        self._batched += 1
        try:
            yield
        finally:
            self._batched -= 1
            if not self._batched and not self._file.closed:
                os.fsync(self._file.fileno())

    def message(self, message: dict[str, Any]) -> None:
        self.append("message", message=message)

    def event(self, event: str, **fields: Any) -> None:
        self.append("event", event=event, **fields)

    def store_image(self, data: bytes, suffix: str = ".png") -> str:
        """Stores bytes once by sha256; returns the row-relative `images/<sha>.png`."""
        digest = hashlib.sha256(data).hexdigest()
        self.blobs.mkdir(parents=True, exist_ok=True)
        target = self.blobs / f"{digest}{suffix}"
        if not target.exists():
            tmp = target.with_suffix(".tmp")
            tmp.write_bytes(data)
            os.replace(tmp, target)
        return f"images/{digest}{suffix}"

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()


def read_records(path: Path) -> list[dict[str, Any]]:
    """All records of a log. A torn last line is skipped; a torn middle line is an error."""
    lines = path.read_bytes().split(b"\n")
    records: list[dict[str, Any]] = []
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            records.append(json.loads(raw))
        except json.JSONDecodeError as error:
            if all(not rest.strip() for rest in lines[number:]):
                break  # the process died mid-write: the last line is torn
            raise ValueError(f"{path}: line {number} is not JSON ({error.msg})") from None
    return records


@dataclass
class Session:
    """A session rebuilt from its log."""

    id: str
    path: Path
    meta: dict[str, Any]
    messages: list[dict[str, Any]]
    snapshots: list[list[dict[str, Any]]]
    events: dict[str, int]
    outcome: dict[str, Any] | None
    started: str
    ended: str
    records: list[dict[str, Any]] = field(repr=False, default_factory=list)

    @property
    def complete(self) -> bool:
        return self.outcome is not None

    @property
    def cut_short(self) -> bool:
        """Unfinished: the next shift of the same order resumes it."""
        return self.outcome is None or self.outcome.get("reason") in CUT_SHORT

    @property
    def chain(self) -> list[str]:
        return list(self.meta.get("chain") or [self.id])


def image_path(folder: Path, chain: list[str], image: str) -> Path:
    """`images/<sha>.png` to its blob file in `folder`, newest session of the chain first."""
    name = image.split("/", 1)[-1]
    for session_id in reversed(chain):
        candidate = folder / f"{session_id}.blobs" / name
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"{folder}: image {image} is in no blob folder of {chain[-1]}'s chain")


def load(path: Path) -> Session:
    records = read_records(path)
    if not records or records[0].get("kind") != "meta":
        raise ValueError(f"{path}: no meta record at the top")
    meta = records[0]
    messages: list[dict[str, Any]] = []
    snapshots: list[list[dict[str, Any]]] = []
    events: dict[str, int] = {}
    outcome = None
    for record in records[1:]:
        kind = record.get("kind")
        if kind == "message":
            messages.append(record["message"])
        elif kind == "inherit":
            messages = list(record["messages"])
        elif kind == "compaction":
            snapshots.append(copy.deepcopy(messages))
            keep = int(record.get("keep", 0))
            recent = messages[len(messages) - keep :] if keep else []
            messages = [record["checkpoint"], *recent]
        elif kind == "event":
            name = str(record.get("event"))
            events[name] = events.get(name, 0) + 1
        elif kind == "outcome":
            outcome = {k: v for k, v in record.items() if k not in ("kind", "t")}
    return Session(
        id=meta.get("id", path.stem),
        path=path,
        meta=meta,
        messages=messages,
        snapshots=snapshots,
        events=events,
        outcome=outcome,
        started=meta.get("started", meta.get("t", "")),
        ended=(outcome or {}).get("ended") or records[-1].get("t", ""),
        records=records,
    )


def list_sessions(workspace: Path) -> list[Path]:
    """Session logs, oldest first (ids sort by start time)."""
    folder = sessions_dir(workspace)
    if not folder.is_dir():
        return []
    return sorted(folder.glob("*.jsonl"))


def find(workspace: Path, ref: str) -> Path:
    """A session by id, unique id prefix, or `last`."""
    logs = list_sessions(workspace)
    if ref == "last":
        if not logs:
            raise LookupError(f"{sessions_dir(workspace)}: no sessions yet")
        return logs[-1]
    matches = [p for p in logs if p.stem == ref] or [p for p in logs if p.stem.startswith(ref)]
    if len(matches) != 1:
        problem = "no session" if not matches else f"{len(matches)} sessions"
        raise LookupError(f"{sessions_dir(workspace)}: {problem} match {ref!r}")
    return matches[0]
