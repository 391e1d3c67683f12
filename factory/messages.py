"""The conversation's message shapes: the OpenAI chat convention plus zot's `type`.

These are the shapes the session log records, the loop keeps, and the row
exports, so there is exactly one definition of each. Image parts never carry
pixels: they name `images/<sha256>.png`, resolved through the session's blobs.
"""

from __future__ import annotations

from typing import Any

from factory.model import Reply

Message = dict[str, Any]

TYPES = ("user", "bot", "activity", "attachment", "checkpoint", "instructions")


def user(text: str) -> Message:
    return {"role": "user", "type": "user", "content": text}


def instructions(text: str) -> Message:
    """A harness-injected turn: a nudge, a resume note, a repair brief."""
    return {"role": "user", "type": "instructions", "content": text}


def bot(reply: Reply) -> Message:
    message: Message = {"role": "assistant", "type": "bot", "content": reply.content or ""}
    if reply.reasoning:
        message["reasoning"] = reply.reasoning
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments},
            }
            for call in reply.tool_calls
        ]
    return message


def activity(call_id: str, name: str, content: str) -> Message:
    return {
        "role": "tool",
        "type": "activity",
        "tool_call_id": call_id,
        "name": name,
        "content": content,
    }


def attachment(items: list[tuple[str, str]]) -> Message:
    """One user message carrying every image of a turn: (caption, `images/<sha>.png`)."""
    content: list[dict[str, str]] = []
    for caption, image in items:
        content.append({"type": "text", "text": caption})
        content.append({"type": "image", "image": image})
    return {"role": "user", "type": "attachment", "content": content}


def checkpoint(summary: str) -> Message:
    return {"role": "system", "type": "checkpoint", "content": summary}


def images_in(message: Message) -> list[str]:
    content = message.get("content")
    if not isinstance(content, list):
        return []
    return [part["image"] for part in content if part.get("type") == "image"]


def tool_calls(message: Message) -> list[dict[str, Any]]:
    return list(message.get("tool_calls") or [])
