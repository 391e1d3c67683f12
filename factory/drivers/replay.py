"""The replay driver: re-issues the assistant turns of a recorded session or exported row.

The tools run for real, so a replay shows whether a recorded trajectory still
works against today's harness and workspace. It never improvises: when the
recording runs out it raises `Exhausted`, and the run stops with `error`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from factory import session
from factory.model import Exhausted, Reply, Request, ToolCall


class ReplayError(ValueError):
    """One line naming the recording and what is wrong with it."""


class Replay:
    driver = "replay"
    provider = "replay"

    def __init__(self, turns: list[dict[str, Any]], name: str = "replay", source: str = ""):
        self.turns = turns
        self.name = name
        self.source = source
        self.vision = True
        self.position = 0

    @classmethod
    def load(cls, workspace: Path, ref: str) -> Replay:
        """A session (id, prefix, `last`, or log path) or an exported row (`.jsonl` with a row)."""
        path = Path(ref)
        if not path.is_absolute() and not path.exists():
            path = workspace / ref
        if not path.is_file():
            try:
                path = session.find(workspace, ref)
            except LookupError as error:
                raise ReplayError(str(error)) from None
        try:
            first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        except (IndexError, json.JSONDecodeError, UnicodeDecodeError):
            raise ReplayError(f"{path}: not a session log or an exported row") from None
        if first.get("kind") == "meta":
            recorded = session.load(path)
            turns = [
                r["message"]
                for r in recorded.records
                if r.get("kind") == "message" and r["message"].get("role") == "assistant"
            ]
            return cls(turns, name=str(recorded.meta.get("model") or "replay"), source=str(path))
        if "messages" in first:
            states = [*(first.get("snapshots") or []), first["messages"]]
            return cls(
                assistant_turns(states), name=str(first.get("model") or "replay"), source=str(path)
            )
        raise ReplayError(f"{path}: not a session log or an exported row")

    def query(self, request: Request) -> Reply:
        if self.position >= len(self.turns):
            raise Exhausted(
                f"the recording {self.source} has no more turns ({len(self.turns)} replayed)"
            )
        turn = self.turns[self.position]
        self.position += 1
        return Reply(
            content=str(turn.get("content") or ""),
            reasoning=turn.get("reasoning"),
            tool_calls=[
                ToolCall(
                    id=str(call.get("id") or ""),
                    name=call["function"]["name"],
                    arguments=call["function"]["arguments"],
                )
                for call in turn.get("tool_calls") or []
            ],
            finish_reason="tool_calls" if turn.get("tool_calls") else "stop",
        )


def assistant_turns(states: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Every assistant turn once, in order, from a row's snapshots and final messages.

    Consecutive states overlap (compaction keeps the newest turns verbatim), so each
    state contributes only what follows the longest overlap with what came before.
    """
    turns: list[dict[str, Any]] = []
    for state in states:
        bots = [m for m in state if m.get("role") == "assistant"]
        overlap = 0
        for size in range(min(len(turns), len(bots)), 0, -1):
            if turns[-size:] == bots[:size]:
                overlap = size
                break
        turns.extend(bots[overlap:])
    return turns
