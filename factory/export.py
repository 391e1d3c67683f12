"""The row: a session chain exported exactly as the dataset cards define it.

A row is rebuilt from session logs alone (`factory.session`): one JSONL line at
`<out>/<id>/<id>.jsonl` plus the images it shows at `<out>/<id>/images/`.
Exporting the same chain twice gives the same bytes, so nothing here may put
export-time facts (clocks, absolute paths, set ordering) into a row, and no
row is written before the secret scan has passed. Files land whole (temporary
file, then rename) so a reader never sees half a row.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from factory import card, session
from factory.lines import Line, all_lines
from factory.messages import images_in
from factory.secretscan import SecretFound, scan
from factory.session import Session

FORMATS = ("row", "sft")
SFT_OUT = Path("sft") / "data"
"""Where `--format sft` writes by default, beside its `rejects/` as the zenyx card lays
out `data/` and `rejects/`: never in the rows folder, where it would replace a row."""

EVENT_COUNTS = {
    "iteration": "iterations",
    "nudge": "nudges",
    "retry": "retries",
    "tool": "calls",
    "compaction": "compactions",
}
"""Session event names to the row's `events` keys; these are always present."""
UNCOUNTED_EVENTS = ("usage",)
"""Token accounting, not a happening: the outcome carries the totals."""

GATE_VALUES = {True: "success", False: "failure", None: ""}
CARD_REASONS = {"settled": "success"}
"""The cards name a run that ended through the `success` tool `success`; the harness's
stop reason for it is `settled` (SPEC). Every other stop reason reads the same in both."""


class Message(BaseModel):
    """One row message: the OpenAI chat convention plus the factory's `type`."""

    model_config = ConfigDict(extra="allow")

    role: Literal["system", "user", "assistant", "tool"]
    type: Literal["user", "bot", "activity", "attachment", "checkpoint", "instructions"]
    content: str | list[dict[str, str]]


class Row(BaseModel):
    """The row as the cards define it; additive fields (a line side, `tools`) are allowed."""

    model_config = ConfigDict(extra="allow")

    id: str
    chain: list[str]
    task: str
    model: str
    provider: str
    driver: str
    started: str
    ended: str
    outcome: dict[str, Any] | None = None
    complete: bool
    messages: list[Message]
    snapshots: list[list[Message]]
    images: list[str]
    events: dict[str, int]


class ExportError(ValueError):
    """A one-line problem with what was asked to be exported."""


# --- files --------------------------------------------------------------------------


def atomic_write(path: Path, data: bytes) -> None:
    """Write `data` to `path` so a reader sees the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def row_bytes(row: dict[str, Any]) -> bytes:
    return (json.dumps(row, ensure_ascii=False) + "\n").encode("utf-8")


# --- the chain ----------------------------------------------------------------------


def chain_of(newest: Session) -> list[Session]:
    """The sessions behind `newest`, oldest first, ending in it.

    The meta's `chain` is trusted when present; otherwise `continues` is
    followed back. A log missing from the chain is skipped, not fatal: the
    row then holds what survives rather than no row at all.
    """
    ids = _chain_ids(newest)
    sessions = []
    for sid in ids[:-1]:
        path = newest.path.with_name(f"{sid}.jsonl")
        if path.is_file():
            sessions.append(session.load(path))
    return [*sessions, newest]


def _chain_ids(current: Session) -> list[str]:
    recorded = list(current.meta.get("chain") or [])
    if recorded:
        return recorded if recorded[-1] == current.id else [*recorded, current.id]
    previous = current.meta.get("continues")
    if not previous:
        return [current.id]
    path = current.path.with_name(f"{previous}.jsonl")
    if not path.is_file():
        return [previous, current.id]
    return [*_chain_ids(session.load(path)), current.id]


def superseded(chain: list[Session]) -> list[list[dict[str, Any]]]:
    """Every earlier state of the conversation that compaction or a resume replaced.

    A session's own compactions are its `snapshots`. Its final state is
    superseded too, unless the next session picked it up verbatim (then the
    state lives on inside the newer messages and repeating it adds nothing).
    """
    states: list[list[dict[str, Any]]] = []
    for index, current in enumerate(chain):
        states.extend(current.snapshots)
        if index + 1 < len(chain):
            inherited = _inherited(chain[index + 1])
            if inherited[: len(current.messages)] != current.messages:
                states.append(current.messages)
    return states


def _inherited(current: Session) -> list[dict[str, Any]]:
    for record in current.records:
        if record.get("kind") == "inherit":
            return list(record.get("messages") or [])
    return []


def line_of(meta: dict[str, Any]) -> Line | None:
    """The product line a session worked for: by the meta's `line`, else its order."""
    wanted = meta.get("line")
    for line in all_lines().values():
        if wanted in (line.name, line.noun, line.side) or (
            not wanted and meta.get("order") == line.order
        ):
            return line
    return None


def tips(workspace: Path) -> list[Path]:
    """Session logs that no later session continues: the ends of chains, oldest first."""
    logs = session.list_sessions(workspace)
    metas = {}
    for path in logs:
        metas[path.stem] = _meta(path)
    behind: set[str] = set()
    for sid, meta in metas.items():
        behind.update(x for x in meta.get("chain") or [] if x != sid)
        if meta.get("continues"):
            behind.add(meta["continues"])
    return [path for path in logs if path.stem not in behind]


def _meta(path: Path) -> dict[str, Any]:
    """The first record only: listing chains must not read every whole log."""
    with open(path, encoding="utf-8") as f:
        first = f.readline()
    try:
        record = json.loads(first)
    except json.JSONDecodeError:
        return {}
    return record if isinstance(record, dict) and record.get("kind") == "meta" else {}


# --- the row ------------------------------------------------------------------------


def build_row(newest: Session, *, snapshots: bool = True) -> dict[str, Any]:
    """The row of the chain ending in `newest`, in the cards' field order; nothing written."""
    chain = chain_of(newest)
    meta = newest.meta
    row: dict[str, Any] = {
        "id": newest.id,
        "chain": _chain_ids(newest),
        "task": meta.get("task", ""),
        "model": meta.get("model", ""),
        "provider": meta.get("provider", ""),
        "driver": meta.get("driver", ""),
        "started": chain[0].started,
        "ended": newest.ended,
    }
    # The cards: `outcome` is absent (not null) when the run was cut short.
    if newest.outcome is not None:
        row["outcome"] = card_outcome(newest.outcome)
    row["complete"] = newest.complete
    row["messages"] = newest.messages
    row["snapshots"] = superseded(chain) if snapshots else []
    row["images"] = _images(row["snapshots"], row["messages"])
    row["events"] = _events(chain)
    line = line_of(meta)
    if line is not None:
        row[line.side] = line_side(newest, line)
    row["tools"] = meta.get("tools") or []
    return row


def card_outcome(outcome: dict[str, Any]) -> dict[str, Any]:
    """The run's outcome with its reason in the cards' words."""
    reason = outcome.get("reason")
    return {**outcome, "reason": CARD_REASONS.get(reason, reason)} if reason else outcome


def _images(states: list[list[dict[str, Any]]], final: list[dict[str, Any]]) -> list[str]:
    """Image paths in the order first shown: snapshots are older than the final state."""
    seen: dict[str, None] = {}
    for messages in [*states, final]:
        for message in messages:
            for image in images_in(message):
                seen.setdefault(image, None)
    return list(seen)


def _events(chain: list[Session]) -> dict[str, int]:
    counts = dict.fromkeys(EVENT_COUNTS.values(), 0)
    compaction_records = 0
    for current in chain:
        for name, count in current.events.items():
            if name in UNCOUNTED_EVENTS:
                continue
            key = EVENT_COUNTS.get(name, name)
            counts[key] = counts.get(key, 0) + count
        compaction_records += sum(1 for r in current.records if r.get("kind") == "compaction")
    # A harness may log the compaction record without a separate event; count the larger.
    counts["compactions"] = max(counts["compactions"], compaction_records)
    return counts


def side_outcome(outcome: dict[str, Any] | None) -> str:
    reason = (outcome or {}).get("reason")
    return reason if reason in ("settled", "failed") else "error"


def line_side(newest: Session, line: Line) -> dict[str, Any]:
    """The line's side of the row: the shift's last `line` record, else what the log knows."""
    recorded: dict[str, Any] = {}
    for record in newest.records:
        if record.get("kind") == "line" and isinstance(record.get("side"), dict):
            recorded = record["side"]
    side: dict[str, Any] = {
        line.noun: recorded.get(line.noun, recorded.get("entry")) or {},
        "files": recorded.get("files") or {},
        "outcome": recorded.get("outcome") or side_outcome(newest.outcome),
        "catalogue_check": _gate(recorded.get("catalogue_check")),
        "probe": _gate(recorded.get("probe")),
        "committed": bool(recorded.get("committed", False)),
        "commit": recorded.get("commit") or "",
        "run": recorded.get("run") or "",
    }
    if recorded.get("judge") is not None:
        side["judge"] = recorded["judge"]
    skip = {*side, "entry"}
    side.update({k: v for k, v in recorded.items() if k not in skip})
    return side


def _gate(value: Any) -> Any:
    """Gates read as the cards' filters expect: `success`, `failure`, or empty when not run."""
    return GATE_VALUES.get(value, value) if isinstance(value, bool | None) else value


def rejections(row: dict[str, Any]) -> list[str]:
    """Why the gates or the transcript judge rejected this row; empty when they did not."""
    reasons = []
    for line in all_lines().values():
        side = row.get(line.side)
        if not isinstance(side, dict):
            continue
        for gate in ("catalogue_check", "probe"):
            if side.get(gate) == "failure":
                reasons.append(f"{gate} failed")
        judge = side.get("judge")
        if isinstance(judge, dict) and _judge_rejects(judge):
            detail = judge.get("reasons") or judge.get("reason") or judge.get("detail") or ""
            if isinstance(detail, list):
                detail = "; ".join(str(d) for d in detail)
            reasons.append(f"judge rejected: {detail}" if detail else "judge rejected")
    return reasons


def _judge_rejects(judge: dict[str, Any]) -> bool:
    verdict = str(judge.get("verdict", "")).lower()
    return verdict in ("reject", "rejected", "fail", "failure") or judge.get("ok") is False


# --- the SFT shape ------------------------------------------------------------------


def sft_row(newest: Session) -> dict[str, Any]:
    """The zenyx SFT shape: system (the model's instructions and the tool schemas), user,
    assistant (prose, or only a `<tool_call>` block), tool."""
    row = build_row(newest, snapshots=False)
    tools = row["tools"]
    system = str(newest.meta.get("system") or row["task"]).strip()
    system += "\n\n# Tools\n\nCall them as <tool_call>[...]</tool_call>.\n\n"
    system += json.dumps(tools, ensure_ascii=False)
    messages: list[dict[str, str]] = []
    for message in row["messages"]:
        turn = _sft_turn(message)
        if turn["role"] == "system":
            system += "\n\nThe work so far, summarised:\n" + turn["content"]
            continue
        if turn["role"] == "assistant" and not any(m["role"] == "user" for m in messages):
            messages.append({"role": "user", "content": row["task"]})
        messages.append(turn)
    line = line_of(newest.meta)
    side = row.get(line.side, {}) if line else {}
    entry = side.get(line.noun, {}) if line else {}
    task_info = {
        "id": row["id"],
        "chain": row["chain"],
        "order": newest.meta.get("order", ""),
        "task": row["task"],
        "line": line.name if line else "",
        "slug": entry.get("slug", "") if isinstance(entry, dict) else "",
        "reason": row.get("outcome", {}).get("reason", ""),
        "outcome": side.get("outcome", ""),
        "model": row["model"],
        "driver": row["driver"],
    }
    return {
        "messages": [{"role": "system", "content": system}, *messages],
        "tools": json.dumps(tools, ensure_ascii=False),
        "domain": f"factory_{line.name}" if line else "factory",
        "provider": f"{row['provider']}:{row['model']}",
        "seed": str(newest.meta.get("seed") or ""),
        "task_info": json.dumps(task_info, ensure_ascii=False),
    }


def _sft_turn(message: dict[str, Any]) -> dict[str, str]:
    role = message.get("role", "user")
    content = message.get("content")
    if isinstance(content, list):  # an attachment: small text models get the captions
        parts = [p.get("text") or f"[image {p.get('image', '')}]" for p in content]
        content = "\n".join(parts)
    content = content or ""
    if role == "assistant" and message.get("tool_calls"):
        # The card: a tool-calling turn is only the block (any prose stays in the row).
        calls = [
            {"name": c["function"]["name"], "arguments": _arguments(c["function"]["arguments"])}
            for c in message["tool_calls"]
        ]
        content = f"<tool_call>{json.dumps(calls, ensure_ascii=False)}</tool_call>"
    return {"role": role, "content": content}


def _arguments(raw: str) -> Any:
    try:
        return json.loads(raw)
    except (TypeError, json.JSONDecodeError):
        return raw  # the model sent something that is not JSON: keep it verbatim


# --- writing ------------------------------------------------------------------------


def resolve_image(chain: list[Session], image: str) -> Path:
    """`images/<sha>.png` to its blob file, newest session's blobs first."""
    try:
        return session.image_path(chain[-1].path.parent, [s.id for s in chain], image)
    except FileNotFoundError as error:
        raise ExportError(str(error)) from None


def write_row(row: dict[str, Any], folder: Path, chain: list[Session]) -> Path:
    """`<folder>/<newest id>.jsonl` and its images. Images first, the JSONL last:
    a row whose line exists is a whole row."""
    for image in row.get("images", []):
        target = folder / image
        if not target.exists():
            tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(resolve_image(chain, image), tmp)
            os.replace(tmp, target)
    path = folder / f"{chain[-1].id}.jsonl"
    _refuse_other_shape(path, row)
    atomic_write(path, row_bytes(row))
    return path


def shape_of(row: dict[str, Any]) -> str:
    """`row` (the cards) or `sft` (zenyx): what a JSONL line holds."""
    return "row" if "id" in row else "sft"


def _refuse_other_shape(path: Path, row: dict[str, Any]) -> None:
    """A row of the other format at the same path would be lost, and the folder would
    no longer load as one dataset: refuse in one line."""
    try:
        with path.open(encoding="utf-8") as existing:
            there = json.loads(existing.readline())
    except (OSError, ValueError):
        return
    if isinstance(there, dict) and shape_of(there) != shape_of(row):
        raise ExportError(
            f"{path}: holds a {shape_of(there)} row; write {shape_of(row)} rows to another "
            "folder (--out)"
        )


def export_session(
    newest: Session,
    out: Path,
    *,
    snapshots: bool = True,
    fmt: str = "row",
    rejects: bool = False,
    secrets: list[str] | None = None,
) -> Path:
    """Export one loaded session's chain; returns the JSONL written."""
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    row = build_row(newest, snapshots=snapshots) if fmt == "row" else sft_row(newest)
    findings = scan(row, secrets or [])
    if findings:
        raise SecretFound(f"row {newest.id}", findings)
    folder = out
    reasons: list[str] = []
    if rejects:
        # The card row already holds the verdicts; only the sft shape needs one built.
        reasons = rejections(row if fmt == "row" else build_row(newest, snapshots=False))
    if reasons:
        # Beside the rows, as zenyx keeps them: negatives with their reasons.
        folder = out.parent / "rejects"
        row = {**row, "reasons": reasons}
    elif fmt == "row":
        atomic_write(out / "README.md", card.card_text().encode("utf-8"))
    return write_row(row, folder / newest.id, chain_of(newest) if fmt == "row" else [newest])


def export_row(
    workspace: Path,
    ref: str,
    out: Path,
    *,
    snapshots: bool = True,
    fmt: str = "row",
    rejects: bool = False,
    secrets: list[str] | None = None,
) -> Path:
    """Export the chain ending in session `ref` (id, unique prefix, or `last`)."""
    try:
        path = session.find(workspace, ref)
    except LookupError as error:
        raise ExportError(str(error)) from None
    return export_session(
        session.load(path), out, snapshots=snapshots, fmt=fmt, rejects=rejects, secrets=secrets
    )


def export_all(
    workspace: Path,
    out: Path,
    *,
    snapshots: bool = True,
    fmt: str = "row",
    rejects: bool = False,
    secrets: list[str] | None = None,
) -> list[Path]:
    """Export every chain tip; a chain's earlier sessions live inside its tip's row."""
    return [
        export_session(
            session.load(path), out, snapshots=snapshots, fmt=fmt, rejects=rejects, secrets=secrets
        )
        for path in tips(workspace)
    ]
