"""The one small protocol between the loop and whatever answers it.

The OpenAI-compatible driver, the built-in designer, the replay driver and the
scripted test driver all implement `Model`. The loop never asks which one it
has. Drivers translate provider failures into the closed set of errors below;
the loop decides what to do about them (retry, wait, compact, stop).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: str
    """The JSON string the model sent, verbatim (it may not even be JSON)."""


@dataclass
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cost: float = 0.0


@dataclass
class Reply:
    content: str = ""
    reasoning: str | None = None
    tool_calls: list[ToolCall] = field(default_factory=list)
    finish_reason: str | None = None
    """`stop`, `tool_calls` or `length` (cut at the output limit)."""
    usage: Usage = field(default_factory=Usage)


@dataclass
class Request:
    system: str
    """Instructions + the workspace's AGENTS.md + the rendered order. Never compacted."""
    messages: list[dict[str, Any]]
    """The conversation in row form (see `factory.messages`)."""
    tools: list[dict[str, Any]]
    """OpenAI function-tool schemas."""
    image: Callable[[str], bytes]
    """Resolves an attachment's `images/<sha256>.png` to its bytes."""
    max_output_tokens: int | None = None


class Model(Protocol):
    name: str
    """The model id as the row records it."""
    provider: str
    """Who serves it (a host, `builtin`, `scripted`, `replay`)."""
    driver: str
    """Which driver: `openai`, `builtin`, `replay`, `scripted`."""
    vision: bool
    """Whether the model can see images (the `view` tool is offered only then)."""

    def query(self, request: Request) -> Reply: ...


class ProviderError(Exception):
    """A failure of the model provider, classified for the loop."""


class Transient(ProviderError):
    """5xx, 408, a cut stream, a dropped connection: retry with doubling backoff."""


class RateLimited(ProviderError):
    """429: wait for Retry-After (capped) and try again."""

    def __init__(self, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


class ContextTooLong(ProviderError):
    """The request exceeded the context window: compact, then retry."""


class Fatal(ProviderError):
    """Any other 4xx, a bad model name, a refused key: the run stops with `error`."""


class Exhausted(ProviderError):
    """A replay or scripted driver ran out of recorded turns."""
