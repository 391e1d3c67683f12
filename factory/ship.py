"""Shipping: publish exported rows to a Hub dataset repo, or to a local folder.

Each row goes up as one commit holding its JSONL and its images. This room
must never publish a row twice (it asks the Hub first and keeps an outbox),
never publish a secret (every row is scanned again just before it leaves),
and never pin a parent commit: another shift committing at the same moment
must not make ours fail. Without a token or a target it ships to the local
`trajectories/` folder and says so; rows meant for the Hub wait in the outbox
until `ship --pending` finds a token.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from factory import card, config, export
from factory.lines import all_lines
from factory.secretscan import SecretFound, scan

PENDING = "--pending"
OUTBOX = Path(".factory") / "outbox.json"
HUB_TARGET = re.compile(r"^hf://datasets/([\w.-]+/[\w.-]+)/?$")
ATTEMPTS = 5
"""Tries per Hub request on a 5xx or a dropped connection, with doubling waits."""


class ShipError(ValueError):
    """A one-line reason shipping could not finish; unshipped rows stay pending."""


@dataclass
class ShipReport:
    target: str
    """`hf://datasets/OWNER/NAME` or the folder the rows went to."""
    shipped: list[str] = field(default_factory=list)
    """Row ids published by this call."""
    skipped: list[str] = field(default_factory=list)
    """Row ids already at the target: not published again."""
    pending: list[str] = field(default_factory=list)
    """Row ids still waiting for the Hub (no token yet)."""
    note: str = ""
    """What the user should know, e.g. that it shipped locally for want of a token."""


# --- the outbox ---------------------------------------------------------------------


def read_outbox(workspace: Path) -> dict[str, dict[str, str]]:
    """`{target: {row id: "pending" | "shipped"}}`."""
    path = workspace / OUTBOX
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ShipError(f"{path}: not JSON ({error.msg})") from None
    if not isinstance(data, dict):
        raise ShipError(f"{path}: must map targets to rows")
    return data


def mark(workspace: Path, target: str, row_id: str, state: str) -> None:
    outbox = read_outbox(workspace)
    outbox.setdefault(target, {})[row_id] = state
    text = json.dumps(outbox, indent=2, sort_keys=True) + "\n"
    export.atomic_write(workspace / OUTBOX, text.encode("utf-8"))


def pending(workspace: Path, target: str, local: Path) -> list[str]:
    """Rows not yet at `target`: those the outbox holds as pending, and every
    local row the outbox has never seen shipped there (exported by hand)."""
    states = read_outbox(workspace).get(target, {})
    ids = {sid for sid, state in states.items() if state == "pending"}
    if local.is_dir():
        ids.update(p.parent.name for p in local.glob("*/*.jsonl") if p.stem == p.parent.name)
    return sorted(sid for sid in ids if states.get(sid) != "shipped")


# --- the Hub ------------------------------------------------------------------------


def _status(error: Exception) -> int | None:
    response = getattr(error, "response", None)
    return getattr(response, "status_code", None)


def _transient(error: Exception) -> bool:
    """5xx, 408 and dropped connections. The HTTP library under `huggingface_hub`
    changes between releases, so its transport errors are known by class name."""
    status = _status(error)
    if status is not None:
        return status >= 500 or status == 408
    dropped = any(cls.__name__ == "TransportError" for cls in type(error).__mro__)
    return dropped or isinstance(error, ConnectionError | TimeoutError)


def retrying(call: Callable[[], Any], sleep: Callable[[float], None], what: str) -> Any:
    """Run `call`, retrying 5xx and dropped connections with doubling waits (1 s .. 30 s)."""
    for attempt in range(ATTEMPTS):
        try:
            return call()
        except Exception as error:
            if not _transient(error):
                raise ShipError(f"{what}: {_one_line(error)}") from None
            if attempt == ATTEMPTS - 1:
                raise ShipError(
                    f"{what}: gave up after {ATTEMPTS} tries ({_one_line(error)})"
                ) from None
            sleep(min(2.0**attempt, 30.0))
    raise AssertionError("unreachable")


def _one_line(error: Exception) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def commit_message(row: dict[str, Any]) -> str:
    """`shift <id>: <product name>` when it settled with a product, else work in progress."""
    for line in all_lines().values():
        side = row.get(line.side)
        if isinstance(side, dict):
            entry = side.get(line.noun) or {}
            name = entry.get("name") if isinstance(entry, dict) else None
            if side.get("outcome") == "settled" and name:
                return f"shift {row['id']}: {name}"
    reason = (row.get("outcome") or {}).get("reason") or "cut short"
    return f"shift {row['id']}: work in progress ({reason})"


class Hub:
    """One dataset repo on a Hub, reached through `huggingface_hub.HfApi`."""

    def __init__(self, repo: str, token: str, endpoint: str | None, sleep: Callable[[float], None]):
        from huggingface_hub import HfApi

        self.repo = repo
        self.api = HfApi(endpoint=endpoint, token=token)
        self.sleep = sleep
        self.has_card: bool | None = None

    def _exists(self, path: str) -> bool:
        return retrying(
            lambda: self.api.file_exists(self.repo, path, repo_type="dataset"),
            self.sleep,
            f"{self.repo}: checking {path}",
        )

    def prepare(self) -> None:
        retrying(
            lambda: self.api.create_repo(self.repo, repo_type="dataset", exist_ok=True),
            self.sleep,
            f"{self.repo}: creating the dataset repo",
        )

    def publish(self, folder: Path, row: dict[str, Any], card_text: str) -> bool:
        """One commit with the row's JSONL and images (and the card, the first time).
        False when the row is already there."""
        from huggingface_hub import CommitOperationAdd

        row_id = row["id"]
        row_path = f"trajectories/{row_id}/{row_id}.jsonl"
        if self._exists(row_path):
            return False
        if self.has_card is None:
            self.has_card = self._exists("README.md")
        files = {row_path: (folder / f"{row_id}.jsonl").read_bytes()}
        for image in row.get("images", []):
            files[f"trajectories/{row_id}/{image}"] = (folder / image).read_bytes()
        if not self.has_card:
            files["README.md"] = card_text.encode("utf-8")

        tried = False

        def attempt() -> None:
            nonlocal tried
            # A commit whose answer was lost may have landed: look before sending again.
            if tried and self._exists(row_path):
                return
            tried = True
            operations = [CommitOperationAdd(path, data) for path, data in files.items()]
            self.api.create_commit(
                self.repo,
                operations,
                commit_message=commit_message(row),
                repo_type="dataset",
            )

        retrying(attempt, self.sleep, f"{self.repo}: publishing row {row_id}")
        self.has_card = True
        return True


# --- shipping -----------------------------------------------------------------------


def _read_row(folder: Path, row_id: str) -> dict[str, Any]:
    path = folder / row_id / f"{row_id}.jsonl"
    try:
        row = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    except (OSError, IndexError, json.JSONDecodeError) as error:
        raise ShipError(f"{path}: not a row ({error})") from None
    if not isinstance(row, dict) or row.get("id") != row_id:
        raise ShipError(f"{path}: not a row of session {row_id} (an sft export?)")
    return row


def ship(
    workspace: Path,
    ref_or_pending: str,
    to: str | None,
    *,
    settings: config.Settings | None = None,
    environ: dict[str, str] | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> ShipReport:
    """Export session `ref_or_pending` (or take every pending row, with `--pending`)
    and publish it to `to`: `hf://datasets/OWNER/NAME`, a folder, or by default
    the configured Hub dataset, else the local `trajectories/` folder."""
    environ = dict(os.environ if environ is None else environ)
    settings = settings or config.load_settings(workspace, environ=environ)
    secrets = config.secret_values(settings, environ)
    local = workspace / settings.trajectories
    repo = None
    if to is not None and to.startswith("hf://"):
        match = HUB_TARGET.match(to)
        if not match:
            raise ShipError(f"{to}: a Hub target is hf://datasets/OWNER/NAME")
        repo = match.group(1)
    elif to is None and settings.hf_dataset:
        repo = settings.hf_dataset
    folder = Path(to) if to is not None and repo is None else local
    token = environ.get(settings.hf_token_env, "")
    card_text = card.card_text()

    refs: list[str] = []
    if ref_or_pending != PENDING:
        path = export.export_row(workspace, ref_or_pending, folder, secrets=secrets)
        refs = [path.stem]

    if repo is None:
        note = "" if to is not None else f"no Hub target: shipped to {folder}"
        if not refs:
            note = f"nothing pending: {folder} is a folder, rows land there when exported"
        export.atomic_write(folder / "README.md", card_text.encode("utf-8"))
        return ShipReport(target=str(folder), shipped=refs, note=note)

    target = f"hf://datasets/{repo}"
    for row_id in refs:
        mark(workspace, target, row_id, "pending")
    if not token:
        waiting = pending(workspace, target, local)
        note = f"no {settings.hf_token_env}: shipped to {local}; {len(waiting)} row(s) wait for the Hub"
        return ShipReport(target=str(local), shipped=refs, pending=waiting, note=note)

    endpoint = settings.hf_endpoint or environ.get("HF_ENDPOINT") or None
    hub = Hub(repo, token, endpoint, sleep)
    todo = refs or pending(workspace, target, local)
    report = ShipReport(target=target)
    if not todo:
        report.note = "nothing pending"
        return report
    findings = scan(card_text, secrets)
    if findings:
        raise SecretFound("README.md", findings)
    hub.prepare()
    for row_id in todo:
        row = _read_row(local, row_id)
        # Scanned again: the file may have been touched since export, or a key added since.
        findings = scan(row, secrets)
        if findings:
            raise SecretFound(f"row {row_id}", findings)
        published = hub.publish(local / row_id, row, card_text)
        (report.shipped if published else report.skipped).append(row_id)
        mark(workspace, target, row_id, "shipped")
    return report
