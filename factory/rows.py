"""The dataset cards' filters, as code over a rows folder.

Finished products, chain tips only, and design-critique rounds (a `view` of a
probe screenshot with the assistant turn that answers it). This room only
reads rows; it must never change or drop a file in the folder it is shown.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from factory.lines import Line, all_lines

Row = dict[str, Any]


class RowsError(ValueError):
    """A one-line problem with a rows folder or one of its files."""


def load_rows(folder: Path) -> list[Row]:
    """Every row under `folder` (`<id>/<id>.jsonl`), or under `folder/trajectories`."""
    if not folder.is_dir():
        raise RowsError(f"{folder}: no such folder")
    paths = sorted(folder.glob("*/*.jsonl"))
    if not paths and (folder / "trajectories").is_dir():
        paths = sorted((folder / "trajectories").glob("*/*.jsonl"))
    rows = []
    for path in paths:
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not text.strip():
                continue
            try:
                row = json.loads(text)
            except json.JSONDecodeError as error:
                raise RowsError(f"{path}: line {number} is not JSON ({error.msg})") from None
            if not isinstance(row, dict) or "id" not in row:
                raise RowsError(f"{path}: line {number} is not a row (no id)")
            rows.append(row)
    return rows


def side_of(row: Row) -> tuple[Line | None, dict[str, Any]]:
    """The row's line and its line side (`machinery`, `arcade`, ...)."""
    for line in all_lines().values():
        side = row.get(line.side)
        if isinstance(side, dict):
            return line, side
    return None, {}


def finished(row: Row) -> bool:
    """complete, the shift settled, the check passed, and the probe too where the card asks."""
    line, side = side_of(row)
    if line is None or not row.get("complete"):
        return False
    probed = side.get("probe") == "success" or not line.probe_finishes
    return side.get("outcome") == "settled" and side.get("catalogue_check") == "success" and probed


def chain_tips(rows: list[Row]) -> list[Row]:
    """Drop rows whose id appears in another row's chain."""
    behind = {sid for row in rows for sid in row.get("chain", []) if sid != row["id"]}
    return [row for row in rows if row["id"] not in behind]


def critique_suffixes() -> tuple[str, ...]:
    shots: dict[str, None] = {}
    for line in all_lines().values():
        shots.update((f"-{shot}.png", None) for shot in line.shots)
    return tuple(shots)


def critique_rounds(row: Row) -> list[dict[str, Any]]:
    """Each `view` of a probe screenshot, the images it attached, and the reply after.

    Snapshots are searched too (compaction may have summarised a round away);
    a round seen in several states is reported once.
    """
    suffixes = critique_suffixes()
    rounds: dict[str, dict[str, Any]] = {}
    for state in [*row.get("snapshots", []), row.get("messages", [])]:
        for index, message in enumerate(state):
            for call in message.get("tool_calls") or []:
                function = call.get("function", {})
                path = _path_argument(function.get("arguments"))
                if function.get("name") != "view" or not path.endswith(suffixes):
                    continue
                if call.get("id") in rounds:
                    continue
                images, answer = _answer(state, index)
                if answer is not None:
                    rounds[call.get("id")] = {
                        "id": row["id"],
                        "call": call.get("id"),
                        "path": path,
                        "images": images,
                        "reply": answer.get("content") or "",
                        "calls": [
                            {
                                "name": c.get("function", {}).get("name", ""),
                                "arguments": c.get("function", {}).get("arguments", ""),
                            }
                            for c in answer.get("tool_calls") or []
                        ],
                    }
    return list(rounds.values())


def _path_argument(arguments: Any) -> str:
    try:
        path = json.loads(arguments).get("path", "")
    except (TypeError, AttributeError, json.JSONDecodeError):
        return ""
    return path if isinstance(path, str) else ""


def _answer(state: list[dict[str, Any]], index: int) -> tuple[list[str], dict[str, Any] | None]:
    """The images attached after the call at `index`, and the next assistant turn: its
    text and the tool calls it made (what the model did about what it saw)."""
    images: list[str] = []
    for message in state[index + 1 :]:
        if message.get("type") == "attachment" and isinstance(message.get("content"), list):
            images += [p["image"] for p in message["content"] if p.get("type") == "image"]
        elif message.get("role") == "assistant":
            return images, message
    return images, None


def select(rows: list[Row], *, only_finished: bool = False, only_tips: bool = False) -> list[Row]:
    if only_tips:
        rows = chain_tips(rows)
    if only_finished:
        rows = [row for row in rows if finished(row)]
    return rows


def summary(row: Row) -> dict[str, Any]:
    """One table line: what a reader scans for."""
    line, side = side_of(row)
    entry = side.get(line.noun, {}) if line else {}
    return {
        "id": row["id"],
        "line": line.name if line else "",
        "product": entry.get("name", "") if isinstance(entry, dict) else "",
        "complete": bool(row.get("complete")),
        "reason": (row.get("outcome") or {}).get("reason", ""),
        "outcome": side.get("outcome", ""),
        "check": side.get("catalogue_check", ""),
        "probe": side.get("probe", ""),
        "chain": len(row.get("chain", [])),
        "messages": len(row.get("messages", [])),
        "images": len(row.get("images", [])),
        "finished": finished(row),
    }
