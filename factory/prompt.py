"""The system prompt: the harness's instructions, the workspace's AGENTS.md, the order.

The order lives here, in the system prompt, so compaction can never drop it.
This module only assembles text; it never reads anything but AGENTS.md.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from factory.order import Order

INSTRUCTIONS = """\
You are the engineer on duty in an unattended software factory. You work alone, \
with no one to ask: the tools are your only hands, and nothing you say without \
a tool call changes anything.

- The workspace is the current folder of every tool; paths are relative to it.
- Scratch work (screenshots, notes, experiments) goes in the scratch folder: {scratch}.
- Look before you change: list and read what exists first.
- Check your work the way the order says (run the gates with the shell, take \
screenshots and view them) and fix what you find.
- When the order is fulfilled, call success(summary). If it truly cannot be \
fulfilled, call failure(reason). The run ends only through one of these two.
- Today is {today}."""

BEGIN = (
    "Begin the standing order in your instructions. Work through it with the tools, "
    "and end with success or failure."
)


def system_prompt(workspace: Path, order: Order, scratch: str) -> str:
    parts = [INSTRUCTIONS.format(scratch=scratch, today=datetime.now(UTC).date().isoformat())]
    agents = workspace / "AGENTS.md"
    if agents.is_file():
        parts.append("# AGENTS.md (the contract of this workspace)\n\n" + agents.read_text("utf-8"))
    parts.append("# The standing order\n\n" + order.render())
    return "\n\n".join(part.strip() for part in parts) + "\n"


def resume_note(previous: str, reason: str | None) -> str:
    why = f" ({reason})" if reason else ""
    return (
        f"The previous shift was cut short{why} before this order was finished; its "
        f"conversation is above (session {previous}). Continue where it stopped: check the "
        "current state of the workspace first, since some work may be half done, then carry "
        "on and end with success or failure."
    )
