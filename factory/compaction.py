"""Compaction: when the conversation nears the input budget, older turns become a checkpoint.

The newest quarter of the messages stays verbatim; the rest is summarised into
one `checkpoint` message, by the model itself when it can, else by a
mechanical digest. A cut never separates a tool call from its results (nor
the images that follow them). This module decides and summarises; it never
writes the log (the loop records the `compaction` record) and never touches
the system prompt, where the order lives.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from factory import messages
from factory.model import ProviderError, Reply, Request

NEAR = 0.8
"""Compact when the estimate passes this share of the input budget."""
IMAGE_TOKENS = 1600
"""What one attached image costs, roughly, at the 1568 px edge."""

SUMMARY_REQUEST = (
    "The conversation is getting too long and its older part will be replaced by your summary. "
    "Write that summary now, without calling tools: what the order asks, what you have done so "
    "far (files written, commands run and their results, what the screenshots showed), "
    "decisions made and why, what is broken or unfinished, and the next steps. Be concrete: "
    "paths, names, numbers. Plain text."
)


def chars(message: dict[str, Any]) -> int:
    content = message.get("content")
    size = len(content) if isinstance(content, str) else 0
    if isinstance(content, list):
        for part in content:
            size += len(part.get("text", "")) + (IMAGE_TOKENS * 4 if part.get("image") else 0)
    for call in message.get("tool_calls") or []:
        size += len(call["function"]["name"]) + len(call["function"]["arguments"])
    return size + len(message.get("reasoning") or "")


def estimate(system: str, conversation: list[dict[str, Any]]) -> int:
    """Tokens, roughly: four characters to a token."""
    return (len(system) + sum(chars(m) for m in conversation)) // 4


def needed(tokens: int, budget: int) -> bool:
    return budget > 0 and tokens >= NEAR * budget


def cut(conversation: list[dict[str, Any]]) -> int:
    """Where the kept tail starts: about the newest quarter, on a turn boundary. 0: no cut."""
    if len(conversation) < 4:
        return 0
    start = len(conversation) - max(1, len(conversation) // 4)
    # A tool result or an attachment belongs with the call before it: move back.
    while start > 0 and _follows(conversation[start]):
        start -= 1
    if start == 0:
        # Too few boundaries behind: keep less rather than nothing compacted.
        start = len(conversation) - max(1, len(conversation) // 4)
        while start < len(conversation) and _follows(conversation[start]):
            start += 1
    if start >= len(conversation) or start < 2:
        return 0
    return start


def _follows(message: dict[str, Any]) -> bool:
    return message.get("role") == "tool" or message.get("type") == "attachment"


def digest(older: list[dict[str, Any]]) -> str:
    """A deterministic summary of older turns: the calls made and where they left things."""
    lines: list[str] = []
    results = {
        m.get("tool_call_id"): m.get("content", "") for m in older if m.get("role") == "tool"
    }
    written: list[str] = []
    for message in older:
        if message.get("type") == "checkpoint":
            lines.append("Earlier checkpoint:\n" + str(message.get("content", "")))
        for call in messages.tool_calls(message):
            name = call["function"]["name"]
            arguments = call["function"]["arguments"]
            try:
                args = json.loads(arguments)
            except (json.JSONDecodeError, TypeError):
                args = {}
            if not isinstance(args, dict):
                args = {}
            if name == "write" and "path" in args:
                written.append(str(args["path"]))
            shown = {k: v for k, v in args.items() if k != "content"}
            result = str(results.get(call["id"], "(no result)")).strip().splitlines()
            last = result[-1][:200] if result else ""
            lines.append(f"- {name}({json.dumps(shown)[:200]}) -> {last}")
    if written:
        lines.append("Files written: " + ", ".join(dict.fromkeys(written)))
    said = [m.get("content") for m in older if m.get("type") == "bot" and m.get("content")]
    if said:
        lines.append("Last thing said: " + str(said[-1])[:1000])
    return "\n".join(lines)


def summarise(
    ask: Callable[[Request], Reply], system: str, older: list[dict[str, Any]], image: Any
) -> tuple[str, str, Any]:
    """(summary text, how it was made: `model` or `digest`, the summary call's usage or None).

    `ask` is the loop's guarded model call, so the summary obeys the run's time limit and
    abort like any turn; what it raises to stop the run passes through untouched."""
    request = Request(
        system=system,
        messages=[*older, messages.instructions(SUMMARY_REQUEST)],
        tools=[],
        image=image,
    )
    try:
        reply = ask(request)
    except ProviderError:
        reply = None
    if reply is not None and reply.content.strip() and not reply.tool_calls:
        return reply.content.strip(), "model", reply.usage
    return digest(older), "digest", (reply.usage if reply is not None else None)


def checkpoint_text(summary: str, how: str) -> str:
    source = "your own summary" if how == "model" else "a digest of the tool calls"
    return (
        f"[checkpoint] The older part of this conversation was compacted into {source}; "
        f"the order is unchanged in your instructions.\n\n{summary}"
    )
